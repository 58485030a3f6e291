// POST /api/wechat/jsapi-config {url} — the JS-SDK config for the page at `url` (docs/product-rules.md, "Call paths"):
// {success, message, data: {appId, timestamp, nonceStr, signature, jsApiList}} for
// wx.config(...). Only pages of this site are signed. JSON or form bodies.
import type { ActionFunctionArgs } from "@remix-run/node";
import * as z from "zod";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { JsapiConfigSchema } from "~/lib/schemas/notify";
import { config } from "~/server/config.server";
import { log } from "~/server/log.server";
import { jsapiConfig } from "~/server/notify/jssdk.server";

const msg = { notify: notifyMessages, wechat: wechatMessages };
const NO_STORE = { "Cache-Control": "no-store" };

async function readUrl(request: Request): Promise<unknown> {
  try {
    if ((request.headers.get("Content-Type") ?? "").includes("application/json")) {
      const body = (await request.json()) as unknown;
      return body && typeof body === "object" ? (body as Record<string, unknown>).url : undefined;
    }
    return (await request.formData()).get("url");
  } catch {
    return undefined;
  }
}

/**
 * Only pages of the app's own origin are signed: PUBLIC_URL's when it is set. The Host header is
 * the client's to choose, so the request's origin counts only outside production without
 * PUBLIC_URL (local trials); a production without PUBLIC_URL signs nothing.
 */
function isOurs(request: Request, url: string) {
  try {
    const origin = new URL(url).origin;
    const { publicUrl, isProduction } = config();
    if (publicUrl) return origin === new URL(publicUrl).origin;
    return !isProduction && origin === new URL(request.url).origin;
  } catch {
    return false;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const parsed = z.safeParse(JsapiConfigSchema, { url: await readUrl(request) });
  if (!parsed.success || !isOurs(request, parsed.data.url)) {
    return Response.json({ success: false, message: msg.notify.jsapi.badUrl }, { status: 400, headers: NO_STORE });
  }
  try {
    const data = await jsapiConfig(parsed.data.url);
    if (!data) return Response.json({ success: false, message: msg.notify.jsapi.unavailable }, { status: 503, headers: NO_STORE });
    return Response.json({ success: true, message: msg.notify.jsapi.ok, data }, { headers: NO_STORE });
  } catch (error) {
    log("warn", "jsapi-config-failed", { error: String(error) });
    return Response.json({ success: false, message: msg.notify.jsapi.failed }, { status: 502, headers: NO_STORE });
  }
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
