// The screenshot recognition's limits, shared by the upload code in the browser and the server
// (decision 021). Pure: no I/O, safe in the browser bundle.

/** Spec: at most 3 screenshots per upload, each at most 8 MB. */
export const MAX_IMAGES = 3;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;

/** The browser shrinks a screenshot to at most this width before sending it (JPEG or WebP). */
export const UPLOAD_MAX_WIDTH = 1080;
export const UPLOAD_QUALITY = 0.85;

/** One user's images in the queue at once (one upload's worth); they are read one at a time. */
export const RECOGNITION_PER_USER_LIMIT = MAX_IMAGES;

/** How often the page asks for its images' queue position while they wait. */
export const QUEUE_POLL_MS = 1000;

/** An upload's id as the page names it (so it can ask for that image's place in the queue). */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

/** Seconds a client should wait before trying again, from the work ahead of it. */
export function retryAfterSeconds(jobsAhead: number, averageJobMs: number): number {
  const seconds = Math.ceil((Math.max(1, jobsAhead) * Math.max(250, averageJobMs)) / 1000);
  return Math.min(60, Math.max(2, seconds));
}

/** A waiting image also carries its estimated wait in seconds (the images ahead × the average read). */
export type QueuedImage = { uploadId: string | null; state: "waiting" | "reading"; ahead: number; waitSeconds?: number };
