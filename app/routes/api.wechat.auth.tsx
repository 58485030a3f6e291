// GET /api/wechat/auth?redirect_url=… — the start of the messenger authorization: the messenger
// strategy answers with a 302 to the provider's authorize page (or the simulated one in
// development). A second start within 10 s from the same browser is refused with a clear message
// instead of looping. With purpose=operator, an operator links their openid (/admin/settings).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { loginPath } from "~/lib/redirect";
import { messengerErrorPath } from "~/lib/wechat-auth";
import { authenticateStudent } from "~/server/http/authenticator.server";
import { MessengerAuthError } from "~/server/auth/messenger.server";

export async function loader({ request }: LoaderFunctionArgs) {
  try {
    // A start always ends in a thrown redirect: to the provider, or to the operator login.
    await authenticateStudent("messenger", request);
    throw new Error("the messenger strategy signed someone in at its start");
  } catch (error) {
    if (error instanceof Response) return error;
    if (!(error instanceof MessengerAuthError)) throw error;
    // A silent sign-in again that cannot start: the password login, back to the same page.
    if (error.purpose === "resume") return redirect(loginPath(error.returnPath, "expired"), { headers: { "Cache-Control": "no-store" } });
    return redirect(messengerErrorPath(error.code, error.returnPath), { headers: { "Cache-Control": "no-store" } });
  }
}
