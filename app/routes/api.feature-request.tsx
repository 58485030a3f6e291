// POST /api/feature-request { userId, timestamp, featureType, userAgent, platform, altcha } — "I need
// this feature" on the supermarket and errand tabs. Stored against the signed-in user (the
// userId in the body is not trusted); anonymous visitors are counted too.
import type { ActionFunctionArgs } from "@remix-run/node";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { proofVerdict } from "~/server/auth/proof-of-work.server";
import { getUser } from "~/server/auth/session.server";
import { FEATURE_TYPES } from "~/server/market/feature-requests.server";
import { recordFeatureRequest } from "~/server/market/feature-requests.server";
import { readBody } from "~/server/market/json-body.server";
import { log } from "~/server/log.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooManyAnswer } from "~/server/http/too-many";
import { marketMessages } from "~/lib/messages/market-answers";

const msg = { market: marketMessages, wechat: wechatMessages };

export async function action({ request, context }: ActionFunctionArgs) {
  if (request.method !== "POST") return Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
  const body = await readBody(request);
  const featureType = typeof body?.featureType === "string" ? body.featureType : "";
  if (!(FEATURE_TYPES as readonly string[]).includes(featureType)) {
    return Response.json({ success: false, message: marketMessages.feature.failed }, { status: 400 });
  }
  // Only the page's script calls this, and it always sends a solved proof of work (decision 042);
  // the form without JavaScript posts the market page instead.
  if ((await proofVerdict(body?.[PROOF_OF_WORK.field])) !== "valid") {
    return Response.json({ success: false, message: refusalMessages.proofInvalid }, { status: 403 });
  }
  const user = await getUser(request);
  const verdict = await consumeRateLimit("feature-request", { userId: user?.id, ip: context.clientIp });
  if (!verdict.ok) return tooManyAnswer(verdict);
  try {
    await recordFeatureRequest({
      userId: user?.id ?? null,
      featureType,
      userAgent: typeof body?.userAgent === "string" ? body.userAgent : request.headers.get("User-Agent"),
      platform: typeof body?.platform === "string" ? body.platform : null,
    });
    return Response.json({ success: true, message: marketMessages.feature.thanks });
  } catch (error) {
    log("error", "feature-request", { error: String(error) });
    return Response.json({ success: false, message: marketMessages.feature.failed }, { status: 500 });
  }
}

export const loader = () => Response.json({ success: false, message: msg.wechat.methodNotAllowed }, { status: 405 });
