// The screenshot upload's work, loaded on first use (a dynamic import from ExpressTab): check the
// files, send each one to the spec's JSON endpoint, collect the parcels it found.
import { marketUpload as t } from "~/lib/messages/market-upload";
import { RECOGNIZE_IMAGE_MAX_BYTES as MAX_IMAGE_BYTES, RECOGNIZE_MAX_IMAGES as MAX_IMAGES } from "~/lib/request-limits";

const IMAGE_ENDPOINT = "/errands/pickup-code/recognize-image";

export type UploadStatus = "done" | "error";

/** Why these files cannot go, or null: at most 3 in all, images only, 8 MB each. */
export function refuseFiles(files: File[], alreadyShown: number): string | null {
  if (files.length + alreadyShown > MAX_IMAGES) return t.tooManyImages;
  if (files.some((file) => !file.type.startsWith("image/"))) return t.notImage;
  if (files.some((file) => file.size > MAX_IMAGE_BYTES)) return t.imageTooLarge;
  return null;
}

function readAsDataUrl(file: File) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** One image through POST /errands/pickup-code/recognize-image; its parcels go into `found`. */
export async function recognizeOne(file: File, found: unknown[], fail: (message: string) => void): Promise<UploadStatus> {
  let response: Response;
  try {
    response = await fetch(IMAGE_ENDPOINT, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ base64_data: await readAsDataUrl(file) }),
    });
  } catch {
    fail(t.network);
    return "error";
  }
  let body: { success?: boolean; message?: string; data?: unknown };
  try {
    body = await response.json();
  } catch {
    fail(response.ok ? t.badFormat : t.uploadFailed);
    return "error";
  }
  if (!response.ok || !body.success) {
    fail(body.message ?? t.uploadFailed);
    return "error";
  }
  if (!Array.isArray(body.data)) {
    fail(t.badFormat);
    return "error";
  }
  found.push(...body.data);
  return "done";
}

export const noCodeMessage = t.noCode;
