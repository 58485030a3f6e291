// POST /errands/pickup-code/recognize-text — the product rules' text recognition: { text_data } (an older
// client sends { text }) as JSON or a form → { success, data: [entries] }. Needs the messenger identity.
import type { ActionFunctionArgs } from "@remix-run/node";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { readBody } from "~/server/market/json-body.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooManyAnswer } from "~/server/http/too-many";
import { recognizeText } from "~/server/market/recognition.server";
import { marketMessages } from "~/lib/messages/market-answers";
import { requireMessengerUser } from "~/server/http/guards.server";

const msg = { market: marketMessages, wechat: wechatMessages };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const user = await requireMessengerUser(request);
  const body = await readBody(request);
  const raw = body?.text_data ?? body?.text;
  const text = typeof raw === "string" ? raw : "";
  if (!text.trim()) return Response.json({ success: false, message: marketMessages.recognize.emptyText, data: [] }, { status: 400 });
  const verdict = await consumeRateLimit("recognize-text", { userId: user.id, ip: context.clientIp });
  if (!verdict.ok) return tooManyAnswer(verdict, { data: [] });
  // The spec's entry fields only (the market page keeps the station's deadline; this answer does not).
  const data = recognizeText(text).map(({ deadline: _deadline, ...entry }) => entry);
  return Response.json({
    success: true,
    message: data.length > 0 ? marketMessages.recognize.found.replace("{count}", String(data.length)) : marketMessages.recognize.noCode,
    data,
  });
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
