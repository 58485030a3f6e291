// POST /api/express/init_info { campus_code } — the campus's express service config: package
// types (name, desc, price in yuan, standards with examples), dorm_list and value (the name).
import type { ActionFunctionArgs } from "@remix-run/node";
import { campus as campusMessages } from "~/lib/messages/campus";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { EXPRESS_CONFIG_FALLBACK, EXPRESS_CONFIG_REFUSALS } from "~/server/http/market-refusals";
import { readBody } from "~/server/market/json-body.server";
import { initInfoData, loadExpressConfig } from "~/server/market/market-config.server";

const msg = { campus: campusMessages, wechat: wechatMessages };

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const body = await readBody(request);
  const code = typeof body?.campus_code === "string" ? body.campus_code.trim() : "";
  if (!code) return Response.json({ success: false, message: msg.campus.required }, { status: 400 });
  const result = await loadExpressConfig(code);
  if (!result.ok) return Response.json({ success: false, message: EXPRESS_CONFIG_REFUSALS[result.reason], reset: true }, { status: 200 });
  const warning = result.fallback ? EXPRESS_CONFIG_FALLBACK : null;
  return Response.json({ success: true, message: warning ?? "ok", warning, data: initInfoData(result.config) });
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
