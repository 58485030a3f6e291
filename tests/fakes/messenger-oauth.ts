// A fake messenger OAuth provider on loopback (node:http), replaying the real protocol of
// docs/protocols/messenger.md (Web OAuth):
//   GET /connect/oauth2/authorize?appid&redirect_uri&response_type=code&scope=snsapi_userinfo&state
//       → 302 redirect_uri?code=CODE&state=STATE (approve), or redirect_uri?state=STATE (refuse);
//       scope=snsapi_base: the code at once, no page (the openid only, userinfo answers 48001)
//   GET /sns/oauth2/access_token?appid&secret&code&grant_type=authorization_code
//       → {access_token, expires_in, refresh_token, openid, scope, unionid?}; codes work once
//         (40163 on reuse), expire after 5 minutes, unknown ones are 40029
//   GET /sns/userinfo?access_token&openid&lang=zh_CN → {openid, nickname, sex, province, city,
//       country, headimgurl, privilege, unionid?}
// Tests point the app at it with WECHAT_OAUTH_AUTHORIZE_URL / WECHAT_API_BASE_URL.
import crypto from "node:crypto";
import http from "node:http";
import type { SimulatedProfile } from "~/server/auth/messenger-sim.server";
import { listenOnLoopback } from "./loopback";

/** The profile the real provider answers (what the simulated one answers too), with a unionid when the app has one. */
export type FakeMessengerUser = SimulatedProfile & { unionid?: string };

/** What the next call of an endpoint answers instead of the real thing. */
export type FakeFailure =
  | { kind: "errcode"; errcode: number; errmsg: string }
  | { kind: "garbage" } // a 200 whose body is not JSON
  | { kind: "json"; body: Record<string, unknown> } // any JSON body
  | { kind: "slow"; ms: number } // answers normally after `ms`
  | { kind: "http"; status: number };

export interface FakeMessengerOptions {
  appId?: string;
  appSecret?: string;
  user?: FakeMessengerUser;
  /** What the authorize page does: approve with the current user, or refuse. */
  mode?: "approve" | "refuse";
}

export interface FakeMessengerState {
  /** The raw query strings the authorize page received, in order (to check parameter order). */
  authorizeQueries: string[];
  codesIssued: number;
  tokenExchanges: number; // every call of /sns/oauth2/access_token
  userInfoCalls: number;
}

export interface FakeMessenger {
  url: string;
  authorizeUrl: string;
  appId: string;
  appSecret: string;
  state: FakeMessengerState;
  setUser(user: FakeMessengerUser): void;
  setMode(mode: "approve" | "refuse"): void;
  /** The next call of the endpoint fails (or is slow) once. */
  failNext(endpoint: "token" | "userinfo", failure: FakeFailure): void;
  /** A code for `user` as the authorize page would issue it (for tests that skip the page). */
  issueCode(user?: FakeMessengerUser, scope?: string): string;
  close(): Promise<void>;
}

let counter = 0;

/** A distinct user per call: an openid of 28 characters as the real ones. */
export function fakeMessengerUser(overrides: Partial<FakeMessengerUser> = {}): FakeMessengerUser {
  counter += 1;
  const openid = `oFake${crypto.randomBytes(12).toString("base64url").replace(/[-_]/g, "x")}`.slice(0, 28);
  return {
    openid,
    nickname: `测试用户${counter}`,
    sex: 1,
    province: "江西",
    city: "南昌",
    country: "中国",
    headimgurl: `https://thirdwx.qlogo.cn/mmopen/fake/${counter}/132`,
    ...overrides,
  };
}

type Grant = { user: FakeMessengerUser; expiresAt: number; used: boolean; scope: string };

export async function startFakeMessenger(options: FakeMessengerOptions = {}): Promise<FakeMessenger> {
  const appId = options.appId ?? "wxfake0123456789";
  const appSecret = options.appSecret ?? "fake-app-secret-0123456789";
  let user = options.user ?? fakeMessengerUser();
  let mode = options.mode ?? "approve";
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const failures: Record<"token" | "userinfo", FakeFailure[]> = { token: [], userinfo: [] };
  const state: FakeMessengerState = { authorizeQueries: [], codesIssued: 0, tokenExchanges: 0, userInfoCalls: 0 };

  function issueCode(forUser = user, scope = "snsapi_userinfo") {
    const code = crypto.randomBytes(16).toString("hex");
    codes.set(code, { user: forUser, expiresAt: Date.now() + 5 * 60_000, used: false, scope });
    state.codesIssued += 1;
    return code;
  }

  function json(res: http.ServerResponse, body: unknown, status = 200) {
    // The real API answers JSON labelled text/plain at times; the client must not rely on the type.
    res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
    res.end(JSON.stringify(body));
  }

  /** Applies a queued failure; true when it answered already. */
  async function failure(endpoint: "token" | "userinfo", res: http.ServerResponse): Promise<boolean> {
    const next = failures[endpoint].shift();
    if (!next) return false;
    switch (next.kind) {
      case "errcode":
        json(res, { errcode: next.errcode, errmsg: next.errmsg });
        return true;
      case "garbage":
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html>502 Bad Gateway</html>");
        return true;
      case "json":
        json(res, next.body);
        return true;
      case "http":
        res.writeHead(next.status);
        res.end();
        return true;
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, next.ms));
        return res.destroyed;
    }
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const query = url.searchParams;
    try {
      if (url.pathname === "/connect/oauth2/authorize") {
        state.authorizeQueries.push(url.search.slice(1));
        const redirectUri = query.get("redirect_uri");
        if (query.get("appid") !== appId || !redirectUri || query.get("response_type") !== "code") {
          res.writeHead(400, { "Content-Type": "text/plain; charset=utf-8" });
          res.end("参数错误");
          return;
        }
        const target = new URL(redirectUri);
        // snsapi_base never shows a page: the code comes back at once, even when the user
        // would refuse the profile.
        const scope = query.get("scope") === "snsapi_base" ? "snsapi_base" : "snsapi_userinfo";
        if (mode === "approve" || scope === "snsapi_base") target.searchParams.set("code", issueCode(user, scope));
        target.searchParams.set("state", query.get("state") ?? "");
        res.writeHead(302, { Location: target.toString() });
        res.end();
        return;
      }
      if (url.pathname === "/sns/oauth2/access_token") {
        state.tokenExchanges += 1;
        if (await failure("token", res)) return;
        if (query.get("appid") !== appId) return json(res, { errcode: 40013, errmsg: "invalid appid" });
        if (query.get("secret") !== appSecret) return json(res, { errcode: 40125, errmsg: "invalid appsecret" });
        if (query.get("grant_type") !== "authorization_code") return json(res, { errcode: 40002, errmsg: "invalid grant_type" });
        const grant = codes.get(query.get("code") ?? "");
        if (!grant || grant.expiresAt < Date.now()) return json(res, { errcode: 40029, errmsg: "invalid code" });
        if (grant.used) return json(res, { errcode: 40163, errmsg: "code been used" });
        grant.used = true;
        const accessToken = crypto.randomBytes(24).toString("hex");
        tokens.set(accessToken, { user: grant.user, expiresAt: Date.now() + 7200_000, used: false, scope: grant.scope });
        return json(res, {
          access_token: accessToken,
          expires_in: 7200,
          refresh_token: crypto.randomBytes(24).toString("hex"),
          openid: grant.user.openid,
          scope: grant.scope,
          ...(grant.user.unionid ? { unionid: grant.user.unionid } : {}),
        });
      }
      if (url.pathname === "/sns/userinfo") {
        state.userInfoCalls += 1;
        if (await failure("userinfo", res)) return;
        const grant = tokens.get(query.get("access_token") ?? "");
        if (!grant || grant.expiresAt < Date.now()) return json(res, { errcode: 40001, errmsg: "invalid credential" });
        if (query.get("openid") !== grant.user.openid) return json(res, { errcode: 40003, errmsg: "invalid openid" });
        if (grant.scope !== "snsapi_userinfo") return json(res, { errcode: 48001, errmsg: "api unauthorized" });
        const { unionid, ...profile } = grant.user;
        return json(res, { ...profile, privilege: [], ...(unionid ? { unionid } : {}) });
      }
      json(res, { errcode: 40066, errmsg: "invalid url" }, 404);
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });

  const { port, close } = await listenOnLoopback(server);
  const base = `http://127.0.0.1:${port}`;

  return {
    url: base,
    authorizeUrl: `${base}/connect/oauth2/authorize`,
    appId,
    appSecret,
    state,
    setUser(next) {
      user = next;
    },
    setMode(next) {
      mode = next;
    },
    failNext(endpoint, next) {
      failures[endpoint].push(next);
    },
    issueCode,
    close,
  };
}
