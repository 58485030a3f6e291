// What the routes answer when app/server/market refuses: a campus whose express service is off
// or broken (the market pages' selector, /api/express/init_info, both order front doors) and a
// screenshot that was not read (the JSON call and the market page's no-JS form). Several routes
// answer the same refusals, so the tables are here once.
import { marketMessages } from "~/lib/messages/market-answers";
import { fillTemplate } from "~/lib/template";
import type { ExpressConfigRefusal } from "~/server/market/market-config.server";
import type { ImageOutcome, RecognitionRefusal } from "~/server/market/recognition.server";
import type { RefusalAnswer, RefusalTable } from "./refusal-table";

const m = marketMessages;

/** Why the chosen campus cannot be ordered from (the selector reopens with it). */
export const EXPRESS_CONFIG_REFUSALS: Record<ExpressConfigRefusal, string> = {
  not_opened: m.campus.notOpened,
  config_broken: m.campus.configBroken,
};

/** What the student is told when the config is the product rules' defaults (the database was not readable). */
export const EXPRESS_CONFIG_FALLBACK = m.campus.configFallback;

export const RECOGNITION_REFUSALS: RefusalTable<RecognitionRefusal> = {
  too_large: { status: 413, message: m.recognize.imageTooLarge },
  not_image: { status: 415, message: m.recognize.notImage },
  busy: { status: 503, message: m.recognize.busy },
  user_busy: { status: 429, message: m.recognize.userBusy },
  timeout: { status: 503, message: m.recognize.readTimeout },
  unavailable: { status: 503, message: m.recognize.ocrUnavailable },
  cancelled: { status: 499, message: m.recognize.readFailed },
  failed: { status: 500, message: m.recognize.readFailed },
};

/** A refused image: its status, its message (with the wait in it) and Retry-After when waiting helps. */
export function recognitionRefusal(outcome: Extract<ImageOutcome, { ok: false }>): RefusalAnswer & { headers?: HeadersInit } {
  const answer = RECOGNITION_REFUSALS[outcome.reason];
  const seconds = outcome.retryAfterSeconds;
  return {
    status: answer.status,
    message: fillTemplate(answer.message, { seconds: seconds ?? 5 }),
    ...(seconds ? { headers: { "Retry-After": String(seconds) } } : {}),
  };
}
