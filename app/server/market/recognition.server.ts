import { parsePickupSms } from "~/lib/pickup-parser";
import { normalizeCredential, shortForItsShape, withDefaults, type EntryCheck } from "~/lib/pickup-entries";
import { log } from "../log.server";
import { MAX_IMAGE_BYTES, OcrError, readImage, sniffImageType, type OcrTicket } from "./ocr.server";

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

/**
 * Why an image was not read: too large or not an image, the queue is full (`busy`) or already holds
 * this user's images (`user_busy`), the read took too long, OCR is not available here, the
 * upload was abandoned (`cancelled`), or the read failed. `retryAfterSeconds`: when waiting helps.
 */
export type RecognitionRefusal = "too_large" | "not_image" | "busy" | "user_busy" | "timeout" | "unavailable" | "cancelled" | "failed";

export type ImageOutcome =
  | { ok: true; entries: ImageEntry[]; text: string }
  | { ok: false; reason: RecognitionRefusal; retryAfterSeconds?: number };

/** Honest about why an image was not read, never "upload failed". */
function failure(error: unknown): Extract<ImageOutcome, { ok: false }> {
  if (error instanceof OcrError) {
    const retry = error.retryAfterSeconds;
    switch (error.code) {
      case "busy":
        return { ok: false, reason: "busy", retryAfterSeconds: retry ?? 5 };
      case "user-busy":
        return { ok: false, reason: "user_busy", retryAfterSeconds: retry ?? 5 };
      case "timeout":
        return { ok: false, reason: "timeout", retryAfterSeconds: 5 };
      case "unavailable":
        return { ok: false, reason: "unavailable", retryAfterSeconds: 60 };
      case "cancelled":
        return { ok: false, reason: "cancelled" };
      default:
        return { ok: false, reason: "failed" };
    }
  }
  return { ok: false, reason: "failed" };
}

/** One screenshot → its turn in the recognition queue → OCR in the worker → the same parser. */
export async function recognizeImage(bytes: Uint8Array, ticket: OcrTicket): Promise<ImageOutcome> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { ok: false, reason: "too_large" };
  if (!sniffImageType(bytes)) return { ok: false, reason: "not_image" };
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
