// The parameters of the messenger's in-browser pay call (WeixinJSBridge 'getBrandWCPayRequest'):
// six strings, all required. The server builds them (app/server/pay); the page checks them before
// invoking the bridge and names any missing one in the product rules' message. Safe in the browser.
import { pay } from "~/lib/messages/pay";

/** Our endpoint for the pay API's notifications (the default notify_url is PUBLIC_URL + this). */
export const PAY_NOTIFY_PATH = "/api/pay/wechat/notify";

/** In the order the product rules list them (and the message names them). */
export const PAY_PARAM_KEYS = ["appId", "timeStamp", "nonceStr", "package", "signType", "paySign"] as const;

export type PayParamKey = (typeof PAY_PARAM_KEYS)[number];

export type PayParams = {
  appId: string;
  /** Seconds since the epoch, as a string. */
  timeStamp: string;
  nonceStr: string;
  /** "prepay_id=…" */
  package: string;
  signType: "RSA";
  paySign: string;
};

/** The keys that are absent, not strings, or blank — in PAY_PARAM_KEYS order. */
export function missingPayParams(params: unknown): PayParamKey[] {
  const record = params && typeof params === "object" ? (params as Record<string, unknown>) : {};
  return PAY_PARAM_KEYS.filter((key) => {
    const value = record[key];
    return typeof value !== "string" || value.trim() === "";
  });
}

/** '支付参数不完整，缺少: appId, paySign' */
export function incompletePayParamsMessage(missing: readonly string[]): string {
  return pay.incompleteParams.replace("{missing}", missing.join(", "));
}

/** The params when all six are there, else the message naming the missing ones. */
export function checkPayParams(params: unknown): { ok: true; params: PayParams } | { ok: false; missing: PayParamKey[]; message: string } {
  const missing = missingPayParams(params);
  if (missing.length > 0) return { ok: false, missing, message: incompletePayParamsMessage(missing) };
  return { ok: true, params: params as PayParams };
}
