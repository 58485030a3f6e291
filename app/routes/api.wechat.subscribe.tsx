// The subscribe widget's two buttons.
//   GET  /api/wechat/subscribe?template=KEY&returnTo=/path — 'subscribe': a 302 to the messenger's
//        one-time subscribe confirm page (our simulated one in development), or first to the
//        messenger authorization, or back with ?subscribe=NOT_WECHAT_ENV|TEMPLATE_NOT_FOUND.
//        A link, not a form: the confirm page is on another origin (CSP form-action is 'self').
//        With Accept: application/json it answers {success, code?, message, data: {url}} instead.
//   POST /api/wechat/subscribe intent=later template=KEY returnTo=/path — 'later': hidden for an hour.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { withoutSubscribeNotice } from "~/lib/notify";
import { safeRedirect } from "~/lib/redirect";
import { SubscribeLaterSchema } from "~/lib/schemas/notify";
import { getUser } from "~/server/auth/session.server";
import { DEFAULT_RETURN, snoozeWidget, startSubscribe } from "~/server/notify/subscribe.server";

const msg = { notify: notifyMessages, wechat: wechatMessages };
const NO_STORE = { "Cache-Control": "no-store" };

function wantsJson(request: Request) {
  return (request.headers.get("Accept") ?? "").includes("application/json");
}

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const user = await getUser(request);
  const start = startSubscribe(request, user, params.get("template"), params.get("returnTo"));
  if (wantsJson(request)) {
    if (start.ok) return Response.json({ success: true, message: "ok", data: { url: start.location } }, { headers: NO_STORE });
    const code = start.code === "AUTHORIZE" ? null : start.code;
    return Response.json(
      { success: false, code: code ?? "AUTHORIZE", message: code ? msg.notify.subscribe.errors[code] : msg.wechat.authRequired, data: { url: start.location } },
      { status: code === "TEMPLATE_NOT_FOUND" ? 404 : code === null ? 401 : 400, headers: NO_STORE },
    );
  }
  return redirect(start.location, { headers: NO_STORE });
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.formData().catch(() => new FormData());
  const submission = parseWithZod(form, { schema: SubscribeLaterSchema });
  if (submission.status !== "success") {
    return wantsJson(request) ? Response.json({ success: false, code: "TEMPLATE_NOT_FOUND", message: msg.notify.subscribe.errors.TEMPLATE_NOT_FOUND }, { status: 400 }) : redirect(DEFAULT_RETURN);
  }
  const { template, returnTo } = submission.value;
  const user = await getUser(request);
  if (user) await snoozeWidget(user.id, template);
  if (wantsJson(request)) return Response.json({ success: Boolean(user), message: user ? "ok" : msg.wechat.authRequired }, { status: user ? 200 : 401 });
  return redirect(withoutSubscribeNotice(safeRedirect(returnTo, DEFAULT_RETURN)), { headers: NO_STORE });
}
