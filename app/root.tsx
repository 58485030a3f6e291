import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useLocation, useMatches, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { ErrorScreen } from "~/components/ErrorScreen";
import { useNonce } from "~/components/nonce";
import { TabBar } from "~/components/TabBar";
import { showsTabBar } from "~/lib/tabs";
import { app as appMessages } from "~/lib/messages/app";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { DEFAULT_APPEARANCE, DEFAULT_THEME, appearanceOrDefault, colorSchemeOf, readAppearanceCookie, readThemeCookie, themeOrDefault, themeStyle } from "~/lib/theme";
import { getUser } from "~/server/auth/session.server";
import stylesheet from "~/tailwind.css";

const msg = { app: appMessages, errors: errorsMessages };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: msg.app.name }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  const cookie = request.headers.get("Cookie");
  const theme = themeOrDefault(user?.theme ?? readThemeCookie(cookie));
  const appearance = appearanceOrDefault(user?.appearance ?? readAppearanceCookie(cookie));
  return { theme, appearance };
}

/**
 * A route with no interaction says `export const handle = { hydrate: false }` (decision 027): a
 * page whose every matched route says so ships no JavaScript at all (no <Scripts />, hence no
 * modulepreload, no hydration data); its links are plain anchors and its forms plain forms.
 */
export type RouteHandle = {
  hydrate?: boolean;
  /**
   * A form whose POST without a session keeps what was typed for after the login (the draft
   * stash): the access guard lets its POST through to the action instead of redirecting.
   */
  keepsDraft?: boolean;
};

function useHydrates() {
  const routes = useMatches().filter((match) => match.id !== "root");
  return routes.length === 0 || routes.some((match) => (match.handle as RouteHandle | undefined)?.hydrate !== false);
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const hydrates = useHydrates();
  const theme = data?.theme ?? DEFAULT_THEME;
  const appearance = data?.appearance ?? DEFAULT_APPEARANCE;
  const nonce = useNonce();
  return (
    <html lang="zh-CN" data-theme={theme} data-appearance={appearance} style={themeStyle(theme) as React.CSSProperties}>
      <head>
        <meta charSet="utf-8" />
        <meta name="color-scheme" content={colorSchemeOf(appearance)} />
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="format-detection" content="telephone=no" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        {hydrates ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  const { pathname } = useLocation();
  return (
    <>
      <Outlet />
      {showsTabBar(pathname) ? <TabBar /> : null}
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorScreen title={msg.errors.notFoundTitle} body={msg.errors.notFoundBody} code={404} />;
  }
  // A refused request (too large, malformed, too frequent, shed while the server is busy) shows
  // its own message; a busy server's refusal offers the same page again, not the home page.
  if (isRouteErrorResponse(error) && [400, 413, 414, 429, 503].includes(error.status) && typeof error.data === "string" && error.data.length > 0) {
    if (error.status === 503) return <ErrorScreen title={msg.errors.overloadedTitle} body={error.data} code={503} home={location.pathname + location.search} homeLabel={msg.errors.retry} />;
    const title = error.status === 429 ? msg.errors.rateLimitedTitle : msg.errors.requestRefusedTitle;
    return <ErrorScreen title={title} body={error.data} code={error.status} />;
  }
  return <ErrorScreen title={msg.errors.serverErrorTitle} body={msg.errors.serverErrorBody} code={isRouteErrorResponse(error) ? error.status : 500} />;
}
