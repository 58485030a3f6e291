// /wx/callback — the result page of the messenger authorization. With ?error=CODE it shows the
// catalogue's message for the code (never the text of the URL) and a retry link. With the product rules'
// legacy ?userInfo=<base64 JSON> it decodes the payload (padding fallbacks) but never trusts it:
// nobody is signed in from a URL, the page only shows a neutral message and a link on.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { safeRedirect } from "~/lib/redirect";
import { fillTemplate } from "~/lib/template";
import {
  MESSENGER_DEFAULT_RETURN,
  decodeUserInfoPayload,
  isMessengerErrorCode,
  messengerAuthPath,
  messengerErrorMessage,
} from "~/lib/wechat-auth";
import type { RouteHandle } from "~/root";

const msg = { app: appMessages, titles: titlesMessages, wechat: wechatMessages };

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export const meta: MetaFunction = () => [{ title: `${msg.titles.wxCallback} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const returnPath = safeRedirect(params.get("redirect_url"), MESSENGER_DEFAULT_RETURN);
  const links = { retryHref: messengerAuthPath(returnPath), continueHref: returnPath };
  const error = params.get("error");
  if (error) {
    const code = isMessengerErrorCode(error) ? error : "AUTH_FAILED";
    // Refusing is the student's own choice, not a fault: no fault title, no code to quote.
    const denied = code === "AUTH_DENIED";
    return { kind: "error" as const, code, title: denied ? msg.wechat.deniedTitle : msg.wechat.failedTitle, showCode: !denied, message: messengerErrorMessage(code), ...links };
  }
  if (params.has("userInfo")) {
    if (!decodeUserInfoPayload(params.get("userInfo"))) {
      return { kind: "error" as const, code: "PARSE_ERROR" as const, title: msg.wechat.failedTitle, showCode: true, message: messengerErrorMessage("PARSE_ERROR"), ...links };
    }
    return { kind: "notice" as const, message: msg.wechat.payloadNotice, ...links };
  }
  return { kind: "notice" as const, message: msg.wechat.idle, ...links };
}

export default function WxCallback() {
  const data = useLoaderData<typeof loader>();
  return (
    <Page title={msg.titles.wxCallback}>
      <section className="card flex flex-col items-center gap-3 py-8 text-center">
        <Icon name={data.kind === "error" ? "alert" : "info"} className={`h-10 w-10 ${data.kind === "error" ? "text-red-500" : "text-brand"}`} />
        {data.kind === "error" ? (
          <>
            <h2 className="text-base font-semibold">{data.title}</h2>
            <p role="alert" className="text-sm text-slate-700">
              {data.message}
            </p>
            {data.showCode ? <p className="text-xs text-slate-500">{fillTemplate(msg.wechat.errorCode, { code: data.code })}</p> : null}
          </>
        ) : (
          <p role="status" className="text-sm text-slate-700">
            {data.message}
          </p>
        )}
        <div className="mt-2 flex w-full max-w-xs flex-col gap-2">
          {data.kind === "error" ? (
            // A full page load: the authorization leaves our site.
            <a href={data.retryHref} className="btn-primary">
              {msg.wechat.retry}
            </a>
          ) : null}
          <a href={data.continueHref} className={data.kind === "error" ? "btn-ghost" : "btn-primary"}>
            {data.kind === "error" ? msg.wechat.backToMarket : msg.wechat.continue}
          </a>
        </div>
      </section>
    </Page>
  );
}
