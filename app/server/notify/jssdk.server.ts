// The JS-SDK config (POST /api/wechat/jsapi-config): wx.config({appId, timestamp, nonceStr,
// signature, jsApiList}) signed with the official algorithm — sha1 of
// "jsapi_ticket=…&noncestr=…&timestamp=…&url=…" (keys in that ASCII order, raw values, the url
// without its #fragment). In development the log provider has no real ticket: a fixed simulated
// one is signed the same way (the real messenger would reject it, which is fine on a desktop).
import crypto from "node:crypto";
import { SIMULATED_APP_ID } from "../auth/messenger.server";
import { config } from "../config.server";
import { apiSettings, jsapiTicket } from "./messenger-api.server";

/** What the share buttons (circle, invite) need. */
export const JS_API_LIST = ["updateAppMessageShareData", "updateTimelineShareData", "onMenuShareAppMessage", "onMenuShareTimeline"] as const;

export const SIMULATED_JSAPI_TICKET = "simulated-jsapi-ticket";

export function jsapiSignature(input: { ticket: string; nonceStr: string; timestamp: number | string; url: string }) {
  const url = input.url.split("#")[0];
  const text = `jsapi_ticket=${input.ticket}&noncestr=${input.nonceStr}&timestamp=${input.timestamp}&url=${url}`;
  return crypto.createHash("sha1").update(text, "utf8").digest("hex");
}

export type JsapiConfig = { appId: string; timestamp: number; nonceStr: string; signature: string; jsApiList: string[] };

const NONCE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function nonce(length = 16) {
  let value = "";
  for (let i = 0; i < length; i += 1) value += NONCE_ALPHABET[crypto.randomInt(NONCE_ALPHABET.length)];
  return value;
}

/** null when the messenger is off (production without an app id). */
export async function jsapiConfig(url: string, now = new Date()): Promise<JsapiConfig | null> {
  const provider = config().notify.provider;
  if (provider === "off") return null;
  const settings = apiSettings();
  const ticket = provider === "real" ? await jsapiTicket({ now }) : SIMULATED_JSAPI_TICKET;
  const timestamp = Math.floor(now.getTime() / 1000);
  const nonceStr = nonce();
  return {
    appId: settings?.appId ?? SIMULATED_APP_ID,
    timestamp,
    nonceStr,
    signature: jsapiSignature({ ticket, nonceStr, timestamp, url }),
    jsApiList: [...JS_API_LIST],
  };
}
