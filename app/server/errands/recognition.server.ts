import { parsePickupSms } from "~/lib/pickup-parser";
import { withDefaults } from "~/lib/pickup-entries";
import { log } from "../log.server";
import { MAX_IMAGE_BYTES, OcrError, recognizeImageText, sniffImageType } from "./ocr.server";
import { marketMessages } from "~/lib/messages/market-answers";

export const MAX_TEXT_LENGTH = 20_000;

/** Pasted SMS → the spec's entries (defaults filled in). */
export function recognizeText(text: string) {
  return parsePickupSms(text.slice(0, MAX_TEXT_LENGTH)).map(withDefaults);
}

export type ImageOutcome =
  | { ok: true; entries: ReturnType<typeof recognizeText>; text: string }
  | { ok: false; status: number; message: string };

/** One screenshot → OCR in the worker → the same parser. */
export async function recognizeImage(bytes: Uint8Array): Promise<ImageOutcome> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) return { ok: false, status: 413, message: marketMessages.recognize.imageTooLarge };
  if (!sniffImageType(bytes)) return { ok: false, status: 415, message: marketMessages.recognize.notImage };
  try {
    const text = await recognizeImageText(bytes);
    return { ok: true, text, entries: recognizeText(text) };
  } catch (error) {
    log("error", "recognize-image", { error: error instanceof Error ? error.message : String(error), code: error instanceof OcrError ? error.code : undefined });
    return { ok: false, status: error instanceof OcrError && error.code === "busy" ? 503 : 500, message: marketMessages.recognize.uploadFailed };
  }
}
