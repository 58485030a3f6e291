import { parsePickupSms } from "~/lib/pickup-parser";
import { normalizeCredential, shortForItsShape, withDefaults, type EntryCheck } from "~/lib/pickup-entries";
import { log } from "../log.server";
import { MAX_IMAGE_BYTES, OcrError, readImage, sniffImageType, type OcrTicket } from "./ocr.server";
import { marketMessages } from "~/lib/messages/market-answers";

export const MAX_TEXT_LENGTH = 20_000;

/** Pasted SMS → the product rules' entries (defaults filled in). */
export function recognizeText(text: string) {
  return parsePickupSms(text.slice(0, MAX_TEXT_LENGTH)).map(withDefaults);
}

type ImageEntry = ReturnType<typeof recognizeText>[number] & { check: EntryCheck | null };

/**
 * Screenshot reads the student should check: the code's line was read with a low score, or the
 * code is shorter than its shape (a read that lost characters), or the text itself put a
 * waybill-long number where the code stands. Such a parcel is listed with a note to check it,
 * never taken silently.
 */
export function flagUnsure(entries: ReturnType<typeof recognizeText>, unsureLines: string[]): ImageEntry[] {
  const unsure = unsureLines.map((line) => normalizeCredential(line, "tracking"));
  return entries.map((entry) => {
    const code = normalizeCredential(entry.pickupCode ?? entry.trackingNumber, "tracking");
    const lowScore = code !== "" && unsure.some((line) => line.includes(code));
    return { ...entry, check: lowScore ? "low-confidence" : shortForItsShape(entry.pickupCode) ? "short-code" : entry.check };
  });
}

export type ImageOutcome =
  | { ok: true; entries: ImageEntry[]; text: string }
  | { ok: false; status: number; message: string; retryAfterSeconds?: number };

const m = marketMessages.recognize;

/** What the user is told when their image was not read: honest about why, never "upload failed". */
function failure(error: unknown): Extract<ImageOutcome, { ok: false }> {
  if (error instanceof OcrError) {
    const retry = error.retryAfterSeconds;
    switch (error.code) {
      case "busy":
        return { ok: false, status: 503, message: m.busy.replace("{seconds}", String(retry ?? 5)), retryAfterSeconds: retry ?? 5 };
      case "user-busy":
        return { ok: false, status: 429, message: m.userBusy, retryAfterSeconds: retry ?? 5 };
      case "timeout":
        return { ok: false, status: 503, message: m.readTimeout, retryAfterSeconds: 5 };
      case "unavailable":
        return { ok: false, status: 503, message: m.ocrUnavailable, retryAfterSeconds: 60 };
      case "cancelled":
        return { ok: false, status: 499, message: m.readFailed };
      default:
        return { ok: false, status: 500, message: m.readFailed };
    }
  }
  return { ok: false, status: 500, message: m.readFailed };
}

/** One screenshot → its turn in the recognition queue → OCR in the worker → the same parser. */
export async function recognizeImage(bytes: Uint8Array, ticket: OcrTicket): Promise<ImageOutcome> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { ok: false, status: 413, message: m.imageTooLarge };
  if (!sniffImageType(bytes)) return { ok: false, status: 415, message: m.notImage };
  try {
    const { text, unsure } = await readImage(bytes, ticket);
    return { ok: true, text, entries: flagUnsure(recognizeText(text), unsure) };
  } catch (error) {
    const code = error instanceof OcrError ? error.code : undefined;
    log(code === "busy" || code === "user-busy" || code === "cancelled" ? "warn" : "error", "recognize-image", {
      error: error instanceof Error ? error.message : String(error),
      code,
    });
    return failure(error);
  }
}

/** The JSON answer's headers for a refused image: Retry-After when waiting helps. */
export function outcomeHeaders(outcome: ImageOutcome): HeadersInit | undefined {
  return !outcome.ok && outcome.retryAfterSeconds ? { "Retry-After": String(outcome.retryAfterSeconds) } : undefined;
}
