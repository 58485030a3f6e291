import { IMAGE_MAX_BYTES, POST_MAX_IMAGES } from "./forum";
import { PAY_NOTIFY_PATH } from "./pay-params";
import { pagePath } from "./request-kind";
import { IMPORT_FILE_MAX_BYTES } from "./timetable-import";

// Bounded requests: every request body is limited before anything parses
// it, by route class. server.mjs applies these rules in front of Remix: a declared Content-Length
// over the limit is refused without reading a byte, a streamed (chunked) body is counted as it
// arrives and refused at the first byte over. The URL, multipart part counts and JSON nesting are
// bounded too. The numbers are configuration (app/server/config.server.ts) with these defaults.

/** The market's screenshot recognition: one image's bytes and how many go in one form (one home: screenshot-recognition.ts). */
export { MAX_IMAGE_BYTES as RECOGNIZE_IMAGE_MAX_BYTES, MAX_IMAGES as RECOGNIZE_MAX_IMAGES } from "./screenshot-recognition";
import { MAX_IMAGE_BYTES as RECOGNIZE_IMAGE_MAX_BYTES, MAX_IMAGES as RECOGNIZE_MAX_IMAGES } from "./screenshot-recognition";

export type RequestLimits = {
  /** Forms and JSON: every route not named below. */
  formBytes: number;
  /** The pay notification endpoint (its real bodies are about 1 KB). */
  payNotifyBytes: number;
  /** Path and query together. */
  urlBytes: number;
  /** Parts of one multipart body (files and fields together). */
  multipartParts: number;
  /** Nesting of arrays and objects in a JSON body. */
  jsonDepth: number;
};

export const DEFAULT_REQUEST_LIMITS: RequestLimits = {
  formBytes: 64 * 1024,
  payNotifyBytes: 8 * 1024,
  urlBytes: 8 * 1024,
  multipartParts: 40,
  jsonDepth: 16,
};

/** What the text fields of an image form may add to its images. */
const FORM_FIELDS_BYTES = 64 * 1024;

/** How the refusal reaches the caller: JSON for the machine endpoints, the page's error screen otherwise. */
export type RefusalKind = "json" | "pay" | "page";

export type BodyRule = {
  /** "form", "pay-notify" or the image route's name (for logs and tests). */
  name: string;
  maxBytes: number;
  answer: RefusalKind;
};

/**
 * The image routes: per-file limit × file count, plus the form's own fields. `multipart`: only a
 * multipart body gets the image limit (the same path also takes small forms); `below`: the
 * path's sub-paths too (the market's screenshot form posts to whichever market sheet is open).
 */
const IMAGE_ROUTES: { path: string; name: string; maxBytes: number; multipart?: boolean; below?: boolean }[] = [
  { path: "/api/upload/image", name: "upload-image", maxBytes: IMAGE_MAX_BYTES + FORM_FIELDS_BYTES },
  { path: "/publish-post", name: "publish-post", maxBytes: POST_MAX_IMAGES * IMAGE_MAX_BYTES + FORM_FIELDS_BYTES, multipart: true },
  // JSON { base64_data }: base64 is 4/3 of the bytes.
  { path: "/errands/pickup-code/recognize-image", name: "recognize-image", maxBytes: Math.ceil((RECOGNIZE_IMAGE_MAX_BYTES * 4) / 3) + 4096 },
  // The profile's avatar (one picture); the same page's nickname form is a small form.
  { path: "/backpack/profile", name: "avatar", maxBytes: IMAGE_MAX_BYTES + FORM_FIELDS_BYTES, multipart: true },
  // The rider's 拍照送达 on the run page (one photo; the run's other forms are small forms).
  { path: "/admin/run", name: "delivery-photo", maxBytes: IMAGE_MAX_BYTES + FORM_FIELDS_BYTES, multipart: true },
  // The market's screenshot form without JavaScript.
  { path: "/market", name: "market-screenshots", maxBytes: RECOGNIZE_MAX_IMAGES * RECOGNIZE_IMAGE_MAX_BYTES + FORM_FIELDS_BYTES, multipart: true, below: true },
  // A timetable file (.xlsx) to import: not an image, but bounded the same way.
  { path: "/schedule/import", name: "timetable-import", maxBytes: IMPORT_FILE_MAX_BYTES + FORM_FIELDS_BYTES, multipart: true },
];

/** The machine endpoints answer JSON (the same prefixes as the access table's machine rows). */
const JSON_PREFIXES = ["/api/", "/errands/", "/coupon/", "/info/"];

function trimmedPath(pathname: string) {
  // A single-fetch data request (/publish-post.data) has its page's limit.
  const path = pagePath(pathname.replace(/\/{2,}/g, "/"));
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

export function refusalKind(pathname: string): RefusalKind {
  const path = trimmedPath(pathname);
  if (path === PAY_NOTIFY_PATH) return "pay";
  return JSON_PREFIXES.some((prefix) => path.startsWith(prefix)) ? "json" : "page";
}

/** The limit of a request's body at this path (with this Content-Type). */
export function bodyRule(pathname: string, contentType?: string, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): BodyRule {
  const path = trimmedPath(pathname);
  const answer = refusalKind(path);
  if (path === PAY_NOTIFY_PATH) return { name: "pay-notify", maxBytes: limits.payNotifyBytes, answer };
  const multipart = /^multipart\/form-data\b/i.test(contentType ?? "");
  const image = IMAGE_ROUTES.find(
    (route) => (path === route.path || (route.below === true && path.startsWith(`${route.path}/`))) && (!route.multipart || multipart),
  );
  if (image) return { name: image.name, maxBytes: Math.max(image.maxBytes, limits.formBytes), answer };
  return { name: "form", maxBytes: limits.formBytes, answer };
}

/** What a refused request answers (the message comes from the catalogue). */
export type Refusal = { status: 400 | 413 | 414; reason: "too_large" | "too_many_parts" | "too_deep" | "url_too_long" | "bad_url" };

/** A path that cannot be decoded (`/%ff`) or a URL over the limit: refused before any route sees it. */
export function checkUrl(rawUrl: string, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): Refusal | null {
  if (rawUrl.length > limits.urlBytes) return { status: 414, reason: "url_too_long" };
  const path = rawUrl.split("?")[0]!;
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, reason: "bad_url" };
  }
  return null;
}

/** The declared length, when there is one: a value that is not a number counts as too large. */
export function declaredTooLarge(contentLength: string | undefined, rule: BodyRule): boolean {
  if (contentLength === undefined) return false;
  const length = Number(contentLength);
  return !Number.isSafeInteger(length) || length < 0 || length > rule.maxBytes;
}

/**
 * Reads a body as it streams in, without keeping it: counts the bytes, the parts of a multipart
 * body (its boundary lines) and the nesting of a JSON body (brackets outside strings). push()
 * answers the first refusal; after that the caller stops reading.
 */
export class BodyScanner {
  private bytes = 0;
  private parts = 0;
  private readonly boundary: Uint8Array | null;
  /** The end of the previous chunk, so a boundary split across chunks is still seen. */
  private tail = new Uint8Array(0);
  private readonly json: boolean;
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly rule: BodyRule,
    contentType: string | undefined,
    private readonly limits: RequestLimits = DEFAULT_REQUEST_LIMITS,
  ) {
    const type = (contentType ?? "").toLowerCase();
    const boundary = /^multipart\/form-data\b.*;\s*boundary=(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? "");
    this.boundary = boundary ? new TextEncoder().encode(`--${boundary[1] ?? boundary[2]}`) : null;
    this.json = type.includes("json");
  }

  push(chunk: Uint8Array): Refusal | null {
    this.bytes += chunk.byteLength;
    if (this.bytes > this.rule.maxBytes) return { status: 413, reason: "too_large" };
    if (this.boundary && this.countParts(chunk) > this.limits.multipartParts) return { status: 413, reason: "too_many_parts" };
    if (this.json && this.maxDepth(chunk) > this.limits.jsonDepth) return { status: 400, reason: "too_deep" };
    return null;
  }

  get received() {
    return this.bytes;
  }

  /** Boundary lines seen so far, minus the closing one: the number of parts. */
  private countParts(chunk: Uint8Array) {
    const boundary = this.boundary!;
    const data = new Uint8Array(this.tail.byteLength + chunk.byteLength);
    data.set(this.tail, 0);
    data.set(chunk, this.tail.byteLength);
    const first = boundary[0]!;
    // indexOf jumps natively to the next candidate byte: image bodies are megabytes long.
    for (let i = data.indexOf(first); i !== -1 && i + boundary.byteLength <= data.byteLength; i = data.indexOf(first, i + 1)) {
      let match = true;
      for (let j = 1; j < boundary.byteLength; j++) {
        if (data[i + j] !== boundary[j]) {
          match = false;
          break;
        }
      }
      if (match) {
        this.parts++;
        i += boundary.byteLength - 1;
      }
    }
    // Keep less than one boundary: a match is never counted twice.
    this.tail = data.slice(Math.max(0, data.byteLength - (boundary.byteLength - 1)));
    return this.parts - 1;
  }

  private maxDepth(chunk: Uint8Array) {
    let deepest = this.depth;
    for (let i = 0; i < chunk.byteLength; i++) {
      const byte = chunk[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === 0x5c) this.escaped = true;
        else if (byte === 0x22) this.inString = false;
        continue;
      }
      if (byte === 0x22) this.inString = true;
      else if (byte === 0x5b || byte === 0x7b) {
        this.depth++;
        if (this.depth > deepest) deepest = this.depth;
      } else if (byte === 0x5d || byte === 0x7d) this.depth = Math.max(0, this.depth - 1);
    }
    return deepest;
  }
}
