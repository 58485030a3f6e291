// The screenshot upload's work, loaded on first use (a dynamic import from ExpressTab): check the
// files, shrink each one in the browser (at most UPLOAD_MAX_WIDTH px wide, WebP where the canvas
// can write it, else JPEG; the original when the browser cannot draw it), send it to the product rules'
// JSON endpoint with upload progress, and tell the page every step of the way. A busy server
// (503/429 with Retry-After) is said as such and tried again after the delay it asked for.
import { marketUpload as t } from "~/lib/messages/market-upload";
import { MAX_IMAGE_BYTES, MAX_IMAGES, UPLOAD_MAX_WIDTH, UPLOAD_QUALITY, type QueuedImage } from "~/lib/screenshot-recognition";

const IMAGE_ENDPOINT = "/errands/pickup-code/recognize-image";
export const QUEUE_ENDPOINT = "/errands/pickup-code/recognize-queue";
const MAX_BUSY_RETRIES = 2;
const MAX_AUTO_RETRY_SECONDS = 30;

export type UploadStatus = "done" | "error";
/** Where one image is: shown under it while it goes. */
export type UploadStep =
  | { kind: "shrinking" }
  | { kind: "uploading"; percent: number }
  | { kind: "queued" } // sent; its place comes from the queue endpoint
  | { kind: "retrying"; seconds: number; message: string }
  | { kind: "found"; count: number }
  | { kind: "failed"; message: string };

/** Why these files cannot go, or null: at most 3 in all, images only, 8 MB each. */
export function refuseFiles(files: File[], alreadyShown: number): string | null {
  if (files.length + alreadyShown > MAX_IMAGES) return t.tooManyImages;
  if (files.some((file) => !file.type.startsWith("image/"))) return t.notImage;
  if (files.some((file) => file.size > MAX_IMAGE_BYTES)) return t.imageTooLarge;
  return null;
}

/** The words for a step (the queue's own answer names the place while an image waits). */
export function stepText(step: UploadStep, place?: QueuedImage): string {
  switch (step.kind) {
    case "shrinking":
      return t.stepShrinking;
    case "uploading":
      return t.stepUploading.replace("{percent}", String(step.percent));
    case "queued":
      if (place?.state === "waiting" && place.ahead > 0) {
        const words = place.waitSeconds ? t.stepWaitingFor.replace("{seconds}", String(place.waitSeconds)) : t.stepWaiting;
        return words.replace("{n}", String(place.ahead));
      }
      return t.stepReading;
    case "retrying":
      return `${step.message}（${t.stepRetry.replace("{seconds}", String(step.seconds))}）`;
    case "found":
      return step.count > 0 ? t.stepFound.replace("{count}", String(step.count)) : t.stepNone;
    case "failed":
      return step.message;
  }
}

function readAsDataUrl(blob: Blob) {
  return new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

function loadImage(file: File) {
  return new Promise<HTMLImageElement>((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error("image did not load"));
    };
    image.src = url;
  });
}

/**
 * The image as a data URL at most UPLOAD_MAX_WIDTH wide: WebP when this browser's canvas writes
 * it, JPEG otherwise. The original file when anything of that is missing (old browsers).
 */
export async function shrinkImage(file: File): Promise<string> {
  try {
    const image = await loadImage(file);
    const width = image.naturalWidth;
    const height = image.naturalHeight;
    if (!width || !height) throw new Error("no size");
    const scale = Math.min(1, UPLOAD_MAX_WIDTH / width);
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(width * scale));
    canvas.height = Math.max(1, Math.round(height * scale));
    const context = canvas.getContext("2d");
    if (!context) throw new Error("no canvas");
    // Screenshots may be transparent PNGs: the server reads dark text on white.
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    const webp = canvas.toDataURL("image/webp", UPLOAD_QUALITY);
    const shrunk = webp.startsWith("data:image/webp") ? webp : canvas.toDataURL("image/jpeg", UPLOAD_QUALITY);
    if (!shrunk.startsWith("data:image/")) throw new Error("canvas cannot encode");
    // Keep the original when it is already smaller (a small, simple PNG).
    return shrunk.length * 0.75 < file.size || scale < 1 ? shrunk : await readAsDataUrl(file);
  } catch {
    return readAsDataUrl(file);
  }
}

type Answer = { status: number; retryAfter: number | null; body: { success?: boolean; message?: string; data?: unknown } | null };

function post(body: string, onUploaded: (percent: number) => void): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", IMAGE_ENDPOINT);
    xhr.setRequestHeader("Content-Type", "application/json");
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onUploaded(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.upload.onload = () => onUploaded(100);
    xhr.onload = () => {
      let parsed: Answer["body"] = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = null;
      }
      const retry = Number(xhr.getResponseHeader("Retry-After"));
      resolve({ status: xhr.status, retryAfter: Number.isFinite(retry) && retry > 0 ? retry : null, body: parsed });
    };
    xhr.onerror = () => reject(new Error("network"));
    xhr.send(body);
  });
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One image: shrink, send (its id lets the page ask for its place in the queue), read the answer.
 * Its parcels go into `found`; `onStep` hears every step, the last one "found" or "failed".
 */
export async function recognizeOne(file: File, uploadId: string, found: unknown[], onStep: (step: UploadStep) => void): Promise<UploadStatus> {
  onStep({ kind: "shrinking" });
  const dataUrl = await shrinkImage(file);
  const body = JSON.stringify({ base64_data: dataUrl, upload_id: uploadId });
  for (let attempt = 0; ; attempt += 1) {
    onStep({ kind: "uploading", percent: 0 });
    let answer: Answer;
    try {
      answer = await post(body, (percent) => onStep(percent >= 100 ? { kind: "queued" } : { kind: "uploading", percent }));
    } catch {
      onStep({ kind: "failed", message: t.network });
      return "error";
    }
    const { status, body: reply, retryAfter } = answer;
    if ((status === 503 || status === 429) && retryAfter !== null) {
      const message = reply?.message ?? t.busy;
      if (attempt >= MAX_BUSY_RETRIES || retryAfter > MAX_AUTO_RETRY_SECONDS) {
        onStep({ kind: "failed", message });
        return "error";
      }
      for (let left = retryAfter; left > 0; left -= 1) {
        onStep({ kind: "retrying", seconds: left, message });
        await wait(1000);
      }
      continue;
    }
    if (!reply) {
      onStep({ kind: "failed", message: status >= 200 && status < 300 ? t.badFormat : t.busy });
      return "error";
    }
    if (status < 200 || status >= 300 || !reply.success) {
      onStep({ kind: "failed", message: reply.message ?? t.badFormat });
      return "error";
    }
    if (!Array.isArray(reply.data)) {
      onStep({ kind: "failed", message: t.badFormat });
      return "error";
    }
    found.push(...reply.data);
    onStep({ kind: "found", count: reply.data.length });
    return "done";
  }
}

/** This user's images in the recognition queue, or null when the answer is not readable. */
export async function queuePlaces(): Promise<QueuedImage[] | null> {
  try {
    const response = await fetch(QUEUE_ENDPOINT, { headers: { Accept: "application/json" } });
    const body = (await response.json()) as { success?: boolean; data?: QueuedImage[] };
    return body.success && Array.isArray(body.data) ? body.data : null;
  } catch {
    return null;
  }
}

export const noCodeMessage = t.noCode;
