// The routes' request guards: who may ask (a student, a messenger identity, an operator), else the
// HTTP answer (the login page, the messenger authorization, a 401 for a JSON call). app/server/auth
// decides (the session, the identity, whether it must authorize again); only this answers.
import { redirect } from "@remix-run/node";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { loginPath, requestReturnPath } from "~/lib/redirect";
import { RIDER_HOME, isRiderRole } from "~/lib/riders";
import { messengerAuthPathFor } from "~/lib/wechat-auth";
import { OPERATOR_HOME, adminLoginPath, getOperator, type Operator } from "../auth/operator.server";
import { getUser, hasStudentAccount, loginReasonOf, lookupSession, messengerReauthorizationDue, silentResumePath, type User } from "../auth/session.server";

/** The product rules' "logged-in state": a session with a bound student account, else the login page. */
export async function requireStudent(request: Request): Promise<User & { student_id: string; school_code: string }> {
  const lookup = await lookupSession(request);
  if (lookup.state === "active" && hasStudentAccount(lookup.user)) return lookup.user;
  // A messenger-bound student whose session expired is signed in again silently.
  const returnPath = requestReturnPath(request.url);
  const resume = await silentResumePath(request, lookup, returnPath);
  if (resume) throw redirect(resume);
  throw redirect(loginPath(returnPath, loginReasonOf(lookup)));
}

/**
 * A known messenger identity (ordering, addresses, coupons): else the authorization. A page load
 * whose authorization is due again re-authorizes; JSON calls keep working with the known identity
 * meanwhile, and get a 401 when there is none.
 */
export async function requireMessengerUser(request: Request): Promise<User> {
  const user = await getUser(request);
  const wantsPage = (request.headers.get("Accept") ?? "").includes("text/html");
  if (user?.openid && !(wantsPage && (await messengerReauthorizationDue(request, user)))) return user;
  if (!wantsPage) throw Response.json({ success: false, message: wechatMessages.authRequired }, { status: 401 });
  throw redirect(messengerAuthPathFor(request.url));
}

/**
 * Any signed-in operator, riders included (the rider's run page shows the operator's own run),
 * else the operator login, whoever asks (a page, a form post, the page's fetchers; decision 027).
 * A student session says nothing about operators.
 */
export async function requireOperator(request: Request): Promise<Operator> {
  const operator = await getOperator(request);
  if (operator) return operator;
  throw redirect(adminLoginPath(requestReturnPath(request.url, OPERATOR_HOME)));
}

/** Guards every other /admin loader and action: an operator who is not a rider. */
export async function requireAdmin(request: Request): Promise<Operator> {
  const operator = await requireOperator(request);
  // A rider works their own run only (decision 038): every other operator page sends them there.
  if (isRiderRole(operator.role)) throw redirect(RIDER_HOME);
  return operator;
}
