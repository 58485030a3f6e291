// GET /api/wechat/callback?code=…&state=… — where the provider sends the browser back. The
// messenger strategy exchanges the code once (a reload never reuses it); the user lands on the
// saved return path, or on /wx/callback?error=CODE&message=… when the user refused or something
// failed.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { loginPath } from "~/lib/redirect";
import { messengerErrorPath } from "~/lib/wechat-auth";
import { authenticateStudent, signInHeaders } from "~/server/http/authenticator.server";
import { clearAuthLock } from "~/server/auth/messenger-cookies.server";
import { MessengerAuthError, withLinkStatus } from "~/server/auth/messenger.server";
import { clearOperatorLink } from "~/server/auth/operator.server";
import { log } from "~/server/log.server";

export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const result = await authenticateStudent("messenger", request);
    log("info", "wechat-auth-complete", { outcome: result.outcome });
    return redirect(result.location, { headers: signInHeaders(result.setCookies, { "Cache-Control": "no-store" }) });
  } catch (error) {
    // A reload of a used callback: back, or a fresh authorization (the strategy's redirect).
    if (error instanceof Response) return error;
    const failure = error instanceof MessengerAuthError ? error : null;
    // A refusal is the user's choice, not a fault.
    if (failure) log(failure.code === "AUTH_DENIED" ? "info" : "warn", "wechat-auth-failed", { code: failure.code });
    else log("error", "wechat-auth-crashed", { error: error instanceof Error ? error.stack : String(error) });
    // The round trip is over: a retry from the result page is a deliberate tap, not a loop.
    const headers = new Headers({ "Cache-Control": "no-store" });
    headers.append("Set-Cookie", await clearAuthLock());
    if (failure?.purpose === "operator") {
      // An operator's link attempt goes back to /admin/settings, which says what happened.
      headers.append("Set-Cookie", await clearOperatorLink());
      const status = failure.code === "WECHAT_ALREADY_BOUND" ? "taken" : "failed";
      return redirect(withLinkStatus(failure.returnPath ?? "/admin/settings", status), { headers });
    }
    // A silent sign-in again that failed: the password login, back to the same page.
    if (failure?.purpose === "resume") return redirect(loginPath(failure.returnPath, "expired"), { headers });
    return redirect(messengerErrorPath(failure?.code ?? "AUTH_FAILED", failure?.returnPath), { headers });
  }
}
