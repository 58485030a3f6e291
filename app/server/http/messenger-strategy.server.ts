// The messenger's OAuth (scope snsapi_userinfo, the appid / #wechat_redirect flow of
// docs/protocols/messenger.md) as a remix-auth strategy, in the shape of remix-auth-oauth2:
// one `authenticate(request)` for both legs.
//   - any URL but the callback: start. A fresh state is stored, the browser is sent to the
//     provider's authorize URL (a thrown redirect, as OAuth strategies do).
//   - the callback (?code=…&state=…): the state once, code → access_token → userinfo, then the
//     app's verify function puts the identity on our rows and answers where to go.
// A callback whose state was used already (a reload) never exchanges the code again: it throws a
// redirect back (signed in) or to a fresh authorization. Failures throw MessengerAuthError with
// the return path, for the routes to turn into /wx/callback?error=CODE.
import { redirect } from "@remix-run/node";
import { Strategy } from "remix-auth/strategy";
import { log } from "../log.server";
import { authLockActive } from "../auth/messenger-cookies.server";
import {
  MessengerAuthError,
  afterUsedState,
  consumeState,
  exchangeCode,
  failureOfState,
  fetchUserInfo,
  findState,
  messengerProvider,
  returnPathFrom,
  startAuthorization,
  withLinkStatus,
  type MessengerProfile,
  type StateRow,
} from "../auth/messenger.server";
import { adminLoginPath, operatorForLink } from "../auth/operator.server";

const NO_STORE = { "Cache-Control": "no-store" };

function redirectWithCookies(location: string, setCookies: string[]) {
  const headers = new Headers(NO_STORE);
  for (const cookie of setCookies) headers.append("Set-Cookie", cookie);
  return redirect(location, { headers });
}

function openidOnly(token: { openid: string; unionid: string | null }): MessengerProfile {
  return { openid: token.openid, unionid: token.unionid, nickname: null, avatar: null, sex: null, city: null, province: null, country: null };
}

export namespace MessengerStrategy {
  export interface ConstructorOptions {
    /** Our callback path: a request there is the provider's answer, any other is a start. */
    callbackPath: string;
  }
  export interface VerifyOptions {
    request: Request;
    /** The stored state this answer consumed: its purpose (user or operator) and return path. */
    state: StateRow;
    /** The user's profile, fetched with the access token the code was exchanged for. */
    profile: MessengerProfile;
  }
}

export class MessengerStrategy<User> extends Strategy<User, MessengerStrategy.VerifyOptions> {
  name = "messenger";

  constructor(
    protected options: MessengerStrategy.ConstructorOptions,
    verify: Strategy.VerifyFunction<User, MessengerStrategy.VerifyOptions>,
  ) {
    super(verify);
  }

  async authenticate(request: Request): Promise<User> {
    const url = new URL(request.url);
    if (url.pathname !== this.options.callbackPath) return this.start(request, url.searchParams);
    return this.callback(request, url.searchParams);
  }

  /**
   * ?redirect_url=… (the return path) and, from /admin/settings, purpose=operator: an operator
   * linking their openid (a deliberate form post, so no redirect lock; the link cookie names the
   * operator, without it the operator login). A user's second start within 10 s from the same
   * browser is refused (REDIRECT_LOCKED) instead of looping.
   */
  private async start(request: Request, params: URLSearchParams): Promise<never> {
    const returnPath = returnPathFrom(request, params.get("redirect_url"));
    // A silent sign-in again (requireStudent's, for a bound student whose session expired).
    const purpose = params.get("resume") === "1" ? "resume" : "user";
    if (params.get("purpose") === "operator") {
      const operator = await operatorForLink(request);
      if (!operator) throw redirect(adminLoginPath("/admin/settings"), { headers: NO_STORE });
      try {
        const start = await startAuthorization(request, { returnPath, purpose: "operator", operatorId: operator.id });
        throw redirectWithCookies(start.location, start.setCookies);
      } catch (error) {
        if (!(error instanceof MessengerAuthError)) throw error;
        throw redirect(withLinkStatus(returnPath, "failed"), { headers: NO_STORE });
      }
    }
    if (await authLockActive(request)) {
      log("info", "wechat-auth-locked");
      const locked = new MessengerAuthError("REDIRECT_LOCKED");
      locked.returnPath = returnPath;
      locked.purpose = purpose;
      throw locked;
    }
    let start;
    try {
      start = await startAuthorization(request, { returnPath, purpose });
    } catch (error) {
      if (error instanceof MessengerAuthError) error.purpose ??= purpose;
      throw error;
    }
    throw redirectWithCookies(start.location, start.setCookies);
  }

  private async callback(request: Request, params: URLSearchParams): Promise<User> {
    const row = await findState(params.get("state") ?? "");
    if (!row) throw new MessengerAuthError("INVALID_STATE", "unknown state");
    try {
      const provider = messengerProvider();
      if (!provider) throw new MessengerAuthError("NOT_CONFIGURED");
      if (row.used_at || !(await consumeState(request, row))) {
        const again = await afterUsedState(request, row);
        log("info", "wechat-auth-complete", { outcome: again.outcome });
        throw redirectWithCookies(again.location, again.setCookies);
      }
      const code = params.get("code");
      if (!code) throw new MessengerAuthError("AUTH_DENIED");
      const token = await exchangeCode(provider, code);
      // snsapi_base gives the openid only; a silent sign-in again needs nothing more.
      const profile = row.purpose === "resume" ? openidOnly(token) : await fetchUserInfo(provider, token);
      return await this.verify({ request, state: row, profile });
    } catch (error) {
      if (error instanceof MessengerAuthError) throw failureOfState(error, row);
      throw error;
    }
  }
}
