// The market page's intents (POST /market?index). Every answer is the same for a fetcher and a
// plain form: json() to stay on the page (a toast, an error, conform's reply), a redirect to move.
import { parseWithZod } from "@conform-to/zod/v4";
import {
  json,
  MaxPartSizeExceededError,
  redirectDocument,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";
import type { MarketActionData } from "~/lib/market-views";
import { marketMessages } from "~/lib/messages/market-answers";
import { entryFromInput, entryHoldsOneCode } from "~/lib/pickup-entries";
import type { RateLimitedAction } from "~/lib/rate-limits";
import { PageIntentSchema } from "~/lib/schemas/market";
import { fillTemplate } from "~/lib/service-hours";
import { messengerAuthPathFor } from "~/lib/wechat-auth";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { proofVerdict } from "~/server/auth/proof-of-work.server";
import { getUser } from "~/server/auth/session.server";
import { CheckoutConflictError } from "~/server/market/checkout.server";
import { addRecognized, clearSms, deleteEntry, recognizeSms, type MergeAnswer, type Recognized } from "~/server/market/checkout-edits.server";
import { recordFeatureRequest } from "~/server/market/feature-requests.server";
import { keepPendingSms } from "~/server/market/market-state.server";
import { MAX_IMAGE_BYTES, MAX_IMAGES } from "~/server/market/ocr.server";
import { recognitionRefusal } from "~/server/http/market-refusals";
import { recognizeImage } from "~/server/market/recognition.server";
import { log } from "~/server/log.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { requireCheckout, requireMarketUser } from "../market._shell/guards.server";

const m = marketMessages;

const answer = (data: MarketActionData, init?: ResponseInit) => json(data, init);

function recognitionAnswer(intent: string, { found, duplicates }: MergeAnswer) {
  if (found === 0) return answer({ intent, error: m.recognize.noCode, manualHint: true });
  if (duplicates > 0 && duplicates === found) return answer({ intent, error: m.recognize.duplicate });
  return answer({
    intent,
    notice: fillTemplate(m.recognize.found, { count: found }),
    ...(duplicates > 0 ? { error: m.recognize.duplicate } : {}),
  });
}

export async function pageAction(request: Request, clientIp?: string) {
  if ((request.headers.get("Content-Type") ?? "").includes("multipart/form-data")) return recognizeUploads(request, clientIp);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  // Rate limits: the form's own error line, with Retry-After.
  const limited = async (action: RateLimitedAction, userId: number | null, points = 1) => {
    const verdict = await consumeRateLimit(action, { userId, ip: clientIp }, points);
    if (verdict.ok) return null;
    const refused = tooMany(verdict);
    return answer({ intent, error: refused.message }, { status: refused.status, headers: refused.headers });
  };
  const submission = parseWithZod(formData, { schema: PageIntentSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0];
    return answer({ intent, error: first ?? m.recognize.badFormat, result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;

  // Open to anyone: the feature-request taps and the supermarket's closed submit.
  if (value.intent === "feature-request") {
    // Its proof of work (decision 042): a forged or reused one is refused; none (no JavaScript)
    // costs double on the limit, as a login without one does.
    const proof = await proofVerdict(formData.get(PROOF_OF_WORK.field));
    if (proof === "invalid") return answer({ intent, error: refusalMessages.proofInvalid }, { status: 403 });
    const user = await getUser(request);
    const refused = await limited("feature-request", user?.id ?? null, proof === "valid" ? 1 : PROOF_OF_WORK.failuresWithoutProof);
    if (refused) return refused;
    try {
      await recordFeatureRequest({ userId: user?.id ?? null, featureType: value.featureType, userAgent: request.headers.get("User-Agent"), platform: "web" });
      return answer({ intent, notice: m.feature.thanks });
    } catch (error) {
      log("error", "feature-request", { error: String(error) });
      return answer({ intent, error: m.feature.failed }, { status: 500 });
    }
  }
  if (value.intent === "supermarket-submit") return answer({ intent, error: m.feature.supermarketClosed });

  if (value.intent === "recognize" && value.text.trim() && !(await getUser(request))?.openid) {
    // Through the authorization, the pasted text comes along (recognised when the visitor is back).
    throw redirectDocument(messengerAuthPathFor(request.url), { headers: { "Set-Cookie": await keepPendingSms(value.text) } });
  }
  const { user, config } = await requireCheckout(request);
  const types = config.packageTypes;
  try {
    switch (value.intent) {
      case "recognize": {
        if (!value.text.trim()) {
          const kept = await clearSms(user.id, types);
          // Clearing the text keeps what was added by hand: say so rather than leave it silently.
          if (kept > 0) return answer({ intent, notice: fillTemplate(m.recognize.clearedKept, { count: kept }) });
          if (value.auto) return answer({ intent });
          return answer({ intent, error: m.recognize.emptyText, result: submission.reply({ fieldErrors: { text: [m.recognize.emptyText] } }) });
        }
        const refused = await limited("recognize-text", user.id);
        if (refused) return refused;
        return recognitionAnswer(intent, await recognizeSms(user.id, types, value.text, config.pickupPlaces));
      }
      case "add-entries": {
        const found = parseEntries(value.entries);
        if (!found) return answer({ intent, error: m.recognize.badFormat }, { status: 400 });
        if (!found.every(entryHoldsOneCode)) return answer({ intent, error: m.entry.oneCode }, { status: 400 });
        return recognitionAnswer(intent, await addRecognized(user.id, types, found, config.pickupPlaces));
      }
      case "delete-entry": {
        await deleteEntry(user.id, types, value.entryId);
        return answer({ intent, notice: m.express.deleted });
      }
    }
  } catch (error) {
    if (error instanceof CheckoutConflictError) return answer({ intent, error: m.checkout.stale }, { status: 409 });
    throw error;
  }
}

function parseEntries(raw: string): Recognized | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  return parsed.map(entryFromInput).filter((entry): entry is NonNullable<typeof entry> => entry !== null);
}

/** The no-JS screenshot form: up to 3 images in one multipart post, read one after another. */
async function recognizeUploads(request: Request, clientIp?: string) {
  const intent = "recognize-image";
  const user = await requireMarketUser(request);
  const { config } = await requireCheckout(request);
  let formData: FormData;
  try {
    formData = await unstable_parseMultipartFormData(
      request,
      unstable_createMemoryUploadHandler({ maxPartSize: MAX_IMAGE_BYTES, filter: ({ name }) => name === "images" }),
    );
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return answer({ intent, error: m.recognize.imageTooLarge }, { status: 413 });
    return answer({ intent, error: m.recognize.uploadFailed }, { status: 400 });
  }
  const files = formData.getAll("images").filter((file): file is File => typeof file !== "string" && file.size > 0);
  if (files.length === 0) return answer({ intent, error: m.recognize.notImage }, { status: 400 });
  if (files.length > MAX_IMAGES) return answer({ intent, error: m.recognize.tooManyImages }, { status: 400 });
  const verdict = await consumeRateLimit("recognize-image", { userId: user.id, ip: clientIp }, files.length);
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return answer({ intent, error: refused.message }, { status: refused.status, headers: refused.headers });
  }
  const found: Recognized = [];
  for (const file of files) {
    const outcome = await recognizeImage(new Uint8Array(await file.arrayBuffer()), { owner: String(user.id), signal: request.signal });
    if (!outcome.ok) {
      const refused = recognitionRefusal(outcome);
      return answer({ intent, error: refused.message }, { status: refused.status, headers: refused.headers });
    }
    found.push(...outcome.entries);
  }
  try {
    return recognitionAnswer(intent, await addRecognized(user.id, config.packageTypes, found, config.pickupPlaces));
  } catch (error) {
    if (error instanceof CheckoutConflictError) return answer({ intent, error: m.checkout.stale }, { status: 409 });
    throw error;
  }
}
