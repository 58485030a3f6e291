// GET /api/wechat/auth?redirect_url=… — the start of the messenger authorization: a 302 to the
// provider's authorize page (or the simulated one in development). A second start within 10 s
// from the same browser is refused with a clear message instead of looping.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { messengerErrorPath } from "~/lib/wechat-auth";
import { authLockActive } from "~/server/auth/messenger-cookies.server";
import { MessengerAuthError, returnPathFrom, startAuthorization, withLinkStatus } from "~/server/auth/messenger.server";
import { adminLoginPath, operatorForLink } from "~/server/auth/operator.server";
import { log } from "~/server/log.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  const returnPath = returnPathFrom(request, params.get("redirect_url"));
  if (params.get("purpose") === "operator") return operatorLink(request, returnPath);
  if (await authLockActive(request)) {
    log("info", "wechat-auth-locked");
    return redirect(messengerErrorPath("REDIRECT_LOCKED", returnPath), { headers: { "Cache-Control": "no-store" } });
  }
  try {
    const start = await startAuthorization(request, { returnPath });
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of start.setCookies) headers.append("Set-Cookie", cookie);
    return redirect(start.location, { headers });
  } catch (error) {
    if (!(error instanceof MessengerAuthError)) throw error;
    return redirect(messengerErrorPath(error.code, returnPath), { headers: { "Cache-Control": "no-store" } });
  }
}

/**
 * An operator linking their messenger account (a deliberate form post on /admin/settings, so no
 * redirect lock): the link cookie names the operator; without it, the operator login.
 */
async function operatorLink(request: Request, returnPath: string) {
  const operator = await operatorForLink(request);
  if (!operator) return redirect(adminLoginPath("/admin/settings"), { headers: { "Cache-Control": "no-store" } });
  try {
    const start = await startAuthorization(request, { returnPath, purpose: "operator", operatorId: operator.id });
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const cookie of start.setCookies) headers.append("Set-Cookie", cookie);
    return redirect(start.location, { headers });
  } catch (error) {
    if (!(error instanceof MessengerAuthError)) throw error;
    return redirect(withLinkStatus(returnPath, "failed"), { headers: { "Cache-Control": "no-store" } });
  }
}
