import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, isRouteErrorResponse, useFetcher, useLoaderData, useNavigate, useRouteError } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PostCard } from "~/components/circle/PostCard";
import { NoPosts } from "~/components/circle/PostPages";
import { Toast } from "~/components/Toast";
import { Icon, type IconName } from "~/components/icons";
import { Glyph } from "~/components/circle/glyphs";
import { Page } from "~/components/Page";
import { FailedCard } from "~/components/FailedCard";
import { app as appMessages } from "~/lib/messages/app";
import { circle as circleMessages } from "~/lib/messages/circle";
import { errors as errorsMessages } from "~/lib/messages/errors";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { circlePage, type CircleSort } from "./circle.server";
import type { SerializeFrom } from "@remix-run/node";

const msg = { app: appMessages, circle: circleMessages, errors: errorsMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.circle} · ${msg.app.name}` }];

const NOTICES: Record<string, string> = {
  dev: msg.app.inDevelopment,
  deleted: msg.circle.deleted,
  published: msg.circle.published,
  reported: msg.circle.reported,
};

export async function loader({ request }: LoaderFunctionArgs) {
  return circlePage(request);
}

const SHORTCUTS: { key: keyof typeof msg.circle.shortcuts; icon: IconName; tint: string }[] = [
  { key: "countdown", icon: "clock", tint: "bg-rose-50 text-rose-500" },
  { key: "treasure", icon: "star", tint: "bg-amber-50 text-amber-500" },
  { key: "experience", icon: "book", tint: "bg-sky-50 text-sky-500" },
  { key: "tutoring", icon: "course", tint: "bg-emerald-50 text-emerald-600" },
  { key: "certificate", icon: "material", tint: "bg-violet-50 text-violet-500" },
];

// 加载更多 with JavaScript records in the address (replacing it) how far the list was loaded
// (?until=); the cards are on the page already, so that change alone loads nothing. Back from a
// post renders the same list from the server, and ScrollRestoration puts the page where it was.
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod || currentUrl.pathname !== nextUrl.pathname) return defaultShouldRevalidate;
  const strip = (url: URL) => {
    const params = new URLSearchParams(url.search);
    params.delete("until");
    return params.toString();
  };
  return strip(currentUrl) === strip(nextUrl) ? false : defaultShouldRevalidate;
};

function listUrl(categoryId: number | null, extra: Record<string, string> = {}, sort: CircleSort = "new") {
  const params = new URLSearchParams();
  if (categoryId) params.set("category", String(categoryId));
  if (sort === "hot") params.set("sort", "hot");
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const query = params.toString();
  return query ? `/circle?${query}` : "/circle";
}

export default function Circle() {
  const data = useLoaderData<typeof loader>();
  const { categories, categoryId, sort } = data;
  return (
    <Page title={msg.titles.circle} withTabBar>
      {/* A GET form: the search page works the same with or without JavaScript. */}
      <Form method="get" action="/circle/search" role="search" className="flex items-center gap-2 rounded-full bg-white px-4 py-1.5 text-sm shadow-sm">
        <Icon name="search" className="h-4 w-4 shrink-0 text-slate-500" />
        <input type="search" name="q" required maxLength={64} placeholder={msg.circle.searchPlaceholder} aria-label={msg.circle.searchLabel} className="min-w-0 flex-1 bg-transparent py-1 outline-none" />
        <button type="submit" className="shrink-0 text-brand">
          {msg.circle.search}
        </button>
      </Form>

      <nav aria-label={msg.circle.category} className="-mx-3 overflow-x-auto px-3 [scrollbar-width:none]">
        <ul className="flex w-max gap-2">
          {[{ id: null as number | null, name: msg.circle.allCategories }, ...categories].map((category) => {
            const active = category.id === categoryId;
            return (
              <li key={category.id ?? "all"}>
                <Link
                  to={listUrl(category.id, {}, sort)}
                  aria-current={active ? "page" : undefined}
                  className={`block whitespace-nowrap rounded-full px-3.5 py-1.5 text-sm ${active ? "bg-brand font-semibold text-white" : "bg-white text-slate-600"}`}
                >
                  {category.name}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {data.warning ? (
        <p role="alert" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-700">
          {data.warning}
        </p>
      ) : null}

      <nav aria-label={msg.circle.sortLabel} className="flex gap-4 px-1 text-sm">
        {(["new", "hot"] as const).map((option) => (
          <Link
            key={option}
            to={listUrl(categoryId, {}, option)}
            aria-current={sort === option ? "page" : undefined}
            className={sort === option ? "border-b-2 border-brand pb-0.5 font-semibold text-slate-900" : "pb-0.5 text-slate-500"}
          >
            {option === "hot" ? msg.circle.sortHot : msg.circle.sortNewest}
          </Link>
        ))}
      </nav>

      {categoryId === null && !data.paged && sort === "new" ? (
        <ul className="card grid grid-cols-5 gap-1 px-2 py-3">
          {SHORTCUTS.map((shortcut) => (
            <li key={shortcut.key}>
              <Link to={listUrl(null, { notice: "dev" })} preventScrollReset replace className="flex flex-col items-center gap-1.5 text-xs text-slate-600">
                <span className={`flex h-10 w-10 items-center justify-center rounded-2xl ${shortcut.tint}`}>
                  <Icon name={shortcut.icon} className="h-5 w-5" />
                </span>
                {msg.circle.shortcuts[shortcut.key]}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}

      {data.paged ? (
        <Link to={listUrl(categoryId, {}, sort)} className="block text-center text-sm text-brand">
          {msg.circle.backToNewest}
        </Link>
      ) : null}

      {data.error ? (
        <p role="alert" className="card text-center text-sm text-red-600">
          {data.error}
        </p>
      ) : (
        <PostList key={`${categoryId ?? "all"}:${sort}:${data.before ?? ""}`} page={data.page} categoryId={categoryId} sort={sort} before={data.before} />
      )}

      <Link
        to="/publish-post"
        className="fixed bottom-20 right-4 z-20 flex h-14 w-14 items-center justify-center rounded-full bg-brand text-white shadow-lg shadow-brand/30 active:scale-95"
        aria-label={msg.circle.publish}
      >
        <Glyph name="plus" className="h-7 w-7" />
      </Link>
      {/* Last: a fixed toast placed first would push the page down by space-y's margin. */}
      {data.notice && NOTICES[data.notice] ? <Toast text={NOTICES[data.notice]!} clearTo={listUrl(categoryId)} /> : null}
    </Page>
  );
}

/** The cards, with 'load more': a plain link to the next page, which with JS appends in place. */
function PostList({
  page,
  categoryId,
  sort,
  before,
}: {
  page: SerializeFrom<typeof loader>["page"];
  categoryId: number | null;
  sort: CircleSort;
  before: number | null;
}) {
  const fetcher = useFetcher<typeof loader>();
  const navigate = useNavigate();
  const [posts, setPosts] = useState(page.posts);
  const [cursor, setCursor] = useState(page.more);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (fetcher.state !== "idle" || !fetcher.data) return;
    const next = fetcher.data;
    if (next.error) {
      setError(next.error);
      return;
    }
    setError(null);
    setPosts((current) => {
      const seen = new Set(current.map((post) => post.id));
      return [...current, ...next.page.posts.filter((post) => !seen.has(post.id))];
    });
    setCursor(next.page.more);
    const last = next.page.posts.at(-1)?.id;
    if (last && sort === "new") navigate(listUrl(categoryId, { ...(before ? { before: String(before) } : {}), until: String(last) }), { replace: true, preventScrollReset: true });
  }, [fetcher.state, fetcher.data]);

  if (posts.length === 0) {
    return <NoPosts icon="chat" text={msg.circle.empty} publish />;
  }
  const moreUrl = cursor ? listUrl(categoryId, cursor) : null;
  return (
    <>
      <ul className="space-y-3" aria-label={msg.titles.circle}>
        {posts.map((post) => (
          <li key={post.id}>
            <PostCard post={post} />
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className="text-center text-sm text-red-600">
          {error}
        </p>
      ) : null}
      {moreUrl ? (
        <Link
          to={moreUrl}
          className="btn-ghost mx-auto flex w-40"
          onClick={(event) => {
            event.preventDefault();
            // The index route's own loader answers the next page as data.
            if (fetcher.state === "idle") fetcher.load(`/circle?index&${moreUrl.split("?")[1]}`);
          }}
        >
          {fetcher.state === "idle" ? msg.circle.loadMore : msg.circle.loadingMore}
        </Link>
      ) : (
        <p className="py-2 text-center text-xs text-slate-500">{msg.circle.noMore}</p>
      )}
    </>
  );
}

/** A failure while loading (also a failed 'load more'): the product rules' message, the tabs stay reachable. */
export function ErrorBoundary() {
  const error = useRouteError();
  const reason = isRouteErrorResponse(error) ? `${error.status}` : error instanceof Error && error.message.includes("fetch") ? msg.circle.network : msg.errors.serverErrorBody;
  return (
    <Page title={msg.titles.circle} withTabBar>
      <FailedCard failed={msg.circle.loadPostsFailed} reason={reason} href="/circle" action={msg.circle.backToNewest} />
    </Page>
  );
}
