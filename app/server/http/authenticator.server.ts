// remix-auth (v4) carries our three logins (decision 026):
//   - students: the school-account form (/crLogin, /login) and the messenger OAuth
//     (/api/wechat/auth → provider → /api/wechat/callback), one Authenticator;
//   - operators: the username + password form of /admin/login, their own Authenticator (another
//     table, another cookie: an operator is never a student).
// remix-auth v4 keeps no session: a strategy answers who signed in, and the verify functions here
// open our database session (app/server/auth: session.server.ts, operator.server.ts) and answer
// the cookies to set and where to go, or a refusal with its status and the form's reply. This is
// request glue (it reads forms, words refusals), so it lives with the HTTP layer; the routes only
// turn its answer into a response.
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { AsyncLocalStorage } from "node:async_hooks";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Authenticator } from "remix-auth";
import { isMessengerBrowser } from "~/lib/browser";
import { login as loginMessages } from "~/lib/messages/login";
import { safeRedirect } from "~/lib/redirect";
import { AdminLoginSchema } from "~/lib/schemas/admin";
import { LoginSchema } from "~/lib/schemas/login";
import { MESSENGER_CALLBACK_PATH } from "~/lib/wechat-auth";
import { log } from "../log.server";
import { applyMessengerProfile, type AuthorizationOutcome } from "../auth/messenger.server";
import { adminRedirect, loginOperator, type Operator } from "../auth/operator.server";
import { deviceIdOf, getUser } from "../auth/session.server";
import { loginStudent, type SchoolChallenge } from "../auth/student-login.server";
import { FormStrategy } from "./form-strategy.server";
import { MessengerStrategy } from "./messenger-strategy.server";
import { operatorLoginRefusal } from "./operator-login-refusals";
import { studentLoginRefusal, type LoginErrorCode } from "./student-login-refusals";

const msg = { login: loginMessages };

/** A successful sign-in: whom, the cookies to set (session, trusted device, device id) and where to go. */
export type SignedIn = {
  userId: number | null;
  location: string;
  setCookies: string[];
  /** How a messenger authorization ended (created, signed-in, attached, operator-linked, …). */
  outcome: AuthorizationOutcome | "student-login";
};

export type OperatorSignedIn = { operator: Operator; location: string; setCookies: string[] };

/**
 * A login form refused: conform's reply for the page (errors beside the fields, the password and
 * captcha never sent back), the HTTP status, and what the page needs to go on.
 */
export class LoginRefused extends Error {
  constructor(
    readonly status: number,
    readonly reply: SubmissionResult<string[]>,
    readonly detail: { refreshCaptcha: boolean; code: LoginErrorCode | null; schoolChallenge: SchoolChallenge | null } = {
      refreshCaptcha: true,
      code: null,
      schoolChallenge: null,
    },
  ) {
    super(`login refused (${status})`);
    this.name = "LoginRefused";
  }
}

// What a strategy needs beyond the request: the client's address (the load context's, which
// counts in the throttles). Passed with AsyncLocalStorage, as remix-auth's README suggests.
type AuthContext = { clientIp?: string };
const authContext = new AsyncLocalStorage<AuthContext>();

const HIDDEN = ["password", "captcha"];

// ---------------------------------------------------------------------------------------------
// Students

async function verifySchoolAccount({ form, request }: FormStrategy.VerifyOptions): Promise<SignedIn> {
  const submission = parseWithZod(form, { schema: LoginSchema });
  if (submission.status !== "success") throw new LoginRefused(400, submission.reply({ hideFields: HIDDEN }));
  const { deviceId, setCookie: deviceCookie } = await deviceIdOf(request);
  const inMessenger = isMessengerBrowser(request.headers.get("User-Agent"));
  let outcome: Awaited<ReturnType<typeof loginStudent>>;
  try {
    outcome = await loginStudent(submission.value, {
      ip: authContext.getStore()?.clientIp ?? "unknown",
      request,
      deviceId,
      inMessenger,
      current: await getUser(request),
      proof: form.get(PROOF_OF_WORK.field),
    });
  } catch (error) {
    log("error", "login", { error: error instanceof Error ? error.message : String(error) });
    throw new LoginRefused(500, submission.reply({ formErrors: [msg.login.serverError], hideFields: HIDDEN }));
  }
  if (!outcome.ok) {
    const { status, message, field, code } = studentLoginRefusal(outcome);
    const reply = submission.reply({
      hideFields: HIDDEN,
      ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
    });
    throw new LoginRefused(status, reply, {
      refreshCaptcha: outcome.refreshCaptcha,
      code,
      schoolChallenge: outcome.schoolChallenge ?? null,
    });
  }
  const setCookies = [outcome.setCookie, outcome.trustCookie];
  if (deviceCookie) setCookies.push(deviceCookie);
  return { userId: outcome.userId, location: safeRedirect(submission.value.redirectTo, "/schedule"), setCookies, outcome: "student-login" };
}

async function verifyMessenger({ request, state, profile }: MessengerStrategy.VerifyOptions): Promise<SignedIn> {
  const result = await applyMessengerProfile(request, state, profile);
  return { userId: result.userId ?? null, location: result.location, setCookies: result.setCookies, outcome: result.outcome };
}

export const studentAuthenticator = new Authenticator<SignedIn>()
  .use(new FormStrategy("school-account", verifySchoolAccount))
  .use(new MessengerStrategy({ callbackPath: MESSENGER_CALLBACK_PATH }, verifyMessenger));

// ---------------------------------------------------------------------------------------------
// Operators

async function verifyOperator({ form, request }: FormStrategy.VerifyOptions): Promise<OperatorSignedIn> {
  const submission = parseWithZod(form, { schema: AdminLoginSchema });
  if (submission.status !== "success") throw new LoginRefused(400, submission.reply({ hideFields: HIDDEN }));
  const { username, password, redirectTo, captcha, captchaId } = submission.value;
  const result = await loginOperator(username, password, authContext.getStore()?.clientIp ?? "unknown", { request, captcha, captchaId, proofOfWork: form.get(PROOF_OF_WORK.field) });
  if (!result.ok) {
    const { status, field, message } = operatorLoginRefusal(result);
    const reply = submission.reply({ ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }), hideFields: HIDDEN });
    throw new LoginRefused(status, reply);
  }
  return { operator: result.operator, location: adminRedirect(redirectTo), setCookies: [result.setCookie, result.trustCookie] };
}

export const operatorAuthenticator = new Authenticator<OperatorSignedIn>().use(new FormStrategy("operator-password", verifyOperator));

// ---------------------------------------------------------------------------------------------
// For routes

/** Runs a strategy with the request's load context (the client's address). */
export function authenticateStudent(strategy: "school-account" | "messenger", request: Request, context?: AuthContext) {
  return authContext.run({ clientIp: context?.clientIp }, () => studentAuthenticator.authenticate(strategy, request));
}

export function authenticateOperator(request: Request, context?: AuthContext) {
  return authContext.run({ clientIp: context?.clientIp }, () => operatorAuthenticator.authenticate("operator-password", request));
}

/** The Set-Cookie headers of a sign-in (and no caching of the answer). */
export function signInHeaders(setCookies: string[], extra: Record<string, string> = {}) {
  const headers = new Headers(extra);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return headers;
}
