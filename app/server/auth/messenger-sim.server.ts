// The simulated messenger of development (no app id configured, not production): the state the
// simulated authorize page (/api/wechat/simulate) and the simulated API (/api/wechat/sim-api/…)
// share. It answers like the real API, so the real client in messenger.server.ts runs unchanged.
// Held in process memory: development runs one process, and a restart only voids pending codes.
import crypto from "node:crypto";
import { SIMULATED_APP_ID, SIMULATED_APP_SECRET } from "./messenger.server";

export type SimulatedProfile = {
  openid: string;
  nickname: string;
  sex: number;
  province: string;
  city: string;
  country: string;
  headimgurl: string;
};

type Grant = { profile: SimulatedProfile; expiresAt: number; used: boolean };

const CODE_LIFETIME_MS = 5 * 60 * 1000;
const TOKEN_LIFETIME_MS = 7200 * 1000;

type Store = { codes: Map<string, Grant>; tokens: Map<string, Grant> };
const globalStore = globalThis as typeof globalThis & { __campusMessengerSim?: Store };

function store(): Store {
  globalStore.__campusMessengerSim ??= { codes: new Map(), tokens: new Map() };
  return globalStore.__campusMessengerSim;
}

function prune(map: Map<string, Grant>, at: number) {
  for (const [key, grant] of map) if (grant.expiresAt + CODE_LIFETIME_MS < at) map.delete(key);
}

/** A stable simulated openid per browser (from its device id): returning there finds the same user. */
export function simulatedOpenid(deviceId: string) {
  return `o${crypto.createHash("sha256").update(`simulated-messenger:${deviceId}`).digest("base64url").slice(0, 27)}`;
}

export function simulatedProfile(openid: string, nickname: string): SimulatedProfile {
  return { openid, nickname, sex: 0, province: "江西", city: "南昌", country: "中国", headimgurl: "" };
}

/** The one-use code the simulated authorize page hands to our callback. */
export function issueSimulatedCode(profile: SimulatedProfile, at = Date.now()) {
  prune(store().codes, at);
  const code = crypto.randomBytes(16).toString("hex");
  store().codes.set(code, { profile, expiresAt: at + CODE_LIFETIME_MS, used: false });
  return code;
}

type ApiAnswer = Record<string, unknown>;

const error = (errcode: number, errmsg: string): ApiAnswer => ({ errcode, errmsg });

/** GET /sns/oauth2/access_token, as the real API answers it. */
export function simulatedAccessToken(params: URLSearchParams, at = Date.now()): ApiAnswer {
  if (params.get("appid") !== SIMULATED_APP_ID) return error(40013, "invalid appid");
  if (params.get("secret") !== SIMULATED_APP_SECRET) return error(40125, "invalid appsecret");
  if (params.get("grant_type") !== "authorization_code") return error(40002, "invalid grant_type");
  const code = params.get("code");
  if (!code) return error(41008, "missing code");
  const grant = store().codes.get(code);
  if (!grant || grant.expiresAt < at) return error(40029, "invalid code");
  if (grant.used) return error(40163, "code been used");
  grant.used = true;
  prune(store().tokens, at);
  const accessToken = crypto.randomBytes(24).toString("base64url");
  store().tokens.set(accessToken, { profile: grant.profile, expiresAt: at + TOKEN_LIFETIME_MS, used: false });
  return {
    access_token: accessToken,
    expires_in: 7200,
    refresh_token: crypto.randomBytes(24).toString("base64url"),
    openid: grant.profile.openid,
    scope: "snsapi_userinfo",
  };
}

/** GET /sns/userinfo, as the real API answers it. */
export function simulatedUserInfo(params: URLSearchParams, at = Date.now()): ApiAnswer {
  const grant = store().tokens.get(params.get("access_token") ?? "");
  if (!grant || grant.expiresAt < at) return error(40001, "invalid credential, access_token is invalid or not latest");
  if (params.get("openid") !== grant.profile.openid) return error(40003, "invalid openid");
  return { ...grant.profile, privilege: [] };
}
