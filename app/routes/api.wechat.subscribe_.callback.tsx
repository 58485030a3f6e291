// GET /api/wechat/subscribe/callback?returnTo=/path&openid&template_id&action=confirm|cancel&scene&reserved
// — where the messenger's one-time subscribe confirm page sends the browser back. A confirm of
// this user (signed `reserved`, in time, their openid) stores the consent; then back to the page
// with ?subscribe=ok|cancel|FAILED&subscribeKey=KEY for the widget to show.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { getUser } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { completeSubscribe } from "~/server/notify/subscribe.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const user = await getUser(request);
  const result = await completeSubscribe(user, {
    returnTo: params.get("returnTo"),
    openid: params.get("openid"),
    templateId: params.get("template_id"),
    action: params.get("action"),
    scene: params.get("scene"),
    reserved: params.get("reserved"),
  });
  log("info", "subscribe-return", { template: result.templateKey, notice: result.notice });
  return redirect(result.location, { headers: { "Cache-Control": "no-store" } });
}
