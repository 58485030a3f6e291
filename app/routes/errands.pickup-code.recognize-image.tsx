// POST /errands/pickup-code/recognize-image — { base64_data } (a data URL or bare base64), and
// optionally the page's { upload_id } for GET /errands/pickup-code/recognize-queue → the
// user's turn in the recognition queue → offline OCR in the worker → the pickup parser →
// { success, data: [entries], text }. A full queue answers 503 with Retry-After.
import type { ActionFunctionArgs } from "@remix-run/node";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { UPLOAD_ID_PATTERN } from "~/lib/screenshot-recognition";
import { readBody } from "~/server/market/json-body.server";
import { decodeBase64Image } from "~/server/market/ocr.server";
import { recognitionRefusal } from "~/server/http/market-refusals";
import { recognizeImage } from "~/server/market/recognition.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooManyAnswer } from "~/server/http/too-many";
import { bodyRule } from "~/lib/request-limits";
import { marketMessages } from "~/lib/messages/market-answers";
import { requireMessengerUser } from "~/server/http/guards.server";

const msg = { market: marketMessages, wechat: wechatMessages };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const user = await requireMessengerUser(request);
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > bodyRule(new URL(request.url).pathname).maxBytes) {
    return Response.json({ success: false, message: marketMessages.recognize.imageTooLarge, data: [] }, { status: 413 });
  }
  const body = await readBody(request);
  const raw = body?.base64_data;
  const bytes = typeof raw === "string" ? decodeBase64Image(raw) : null;
  if (!bytes) return Response.json({ success: false, message: marketMessages.recognize.notImage, data: [] }, { status: 400 });
  const verdict = await consumeRateLimit("recognize-image", { userId: user.id, ip: context.clientIp });
  if (!verdict.ok) return tooManyAnswer(verdict, { data: [] });
  const uploadId = typeof body?.upload_id === "string" && UPLOAD_ID_PATTERN.test(body.upload_id) ? body.upload_id : null;
  const outcome = await recognizeImage(bytes, { owner: String(user.id), uploadId, signal: request.signal });
  if (!outcome.ok) {
    const refused = recognitionRefusal(outcome);
    return Response.json({ success: false, message: refused.message, data: [] }, { status: refused.status, headers: refused.headers });
  }
  return Response.json({
    success: true,
    message: outcome.entries.length > 0 ? marketMessages.recognize.found.replace("{count}", String(outcome.entries.length)) : marketMessages.recognize.noCode,
    data: outcome.entries,
    text: outcome.text,
  });
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
