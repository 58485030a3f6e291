// Rate limits: the costly actions a person or a script could repeat to
// hurt the others. Each is limited per user and per client address within a window; both must
// allow it. The numbers are configuration (RATE_LIMIT_<ACTION>, "per-user,per-address/seconds")
// with these defaults, set well above what a student does by hand and what a campus NAT sends
// (thousands of students can share one address), so that only a script reaches them.

export const RATE_LIMITED_ACTIONS = [
  "post",
  "comment",
  "like",
  "upload",
  "recognize-text",
  "recognize-image",
  "order",
  "invite-register",
  "feature-request",
  "draft",
  "search",
  "handover",
  "timetable-import",
] as const;

export type RateLimitedAction = (typeof RATE_LIMITED_ACTIONS)[number];

export type RateLimitSetting = { perUser: number; perAddress: number; windowSeconds: number };

export const DEFAULT_RATE_LIMITS: Record<RateLimitedAction, RateLimitSetting> = {
  // Posting: a student writes a few posts a day.
  post: { perUser: 10, perAddress: 300, windowSeconds: 600 },
  comment: { perUser: 60, perAddress: 1200, windowSeconds: 60 },
  // Likes are toggles: a fast thumb on a long list.
  like: { perUser: 300, perAddress: 3000, windowSeconds: 60 },
  // Images: nine per post, and retries.
  upload: { perUser: 60, perAddress: 600, windowSeconds: 600 },
  // Pickup SMS recognition runs 1.5 s after typing stops.
  "recognize-text": { perUser: 300, perAddress: 3000, windowSeconds: 60 },
  // Screenshot OCR is the costliest request of all (one worker, a queue of 12).
  "recognize-image": { perUser: 30, perAddress: 300, windowSeconds: 600 },
  order: { perUser: 120, perAddress: 2400, windowSeconds: 600 },
  "invite-register": { perUser: 10, perAddress: 100, windowSeconds: 3600 },
  "feature-request": { perUser: 30, perAddress: 600, windowSeconds: 600 },
  // Drafts kept for a browser whose session ended (anonymous: only the client network counts).
  draft: { perUser: 10, perAddress: 300, windowSeconds: 600 },
  // The circle's search: a few queries a minute by hand; each reads two indexes.
  search: { perUser: 30, perAddress: 600, windowSeconds: 60 },
  // A rider's handover codes (userId is the rider's operator id): a slot's deliveries with a few
  // mistyped codes pass; guessing one order's code is stopped by its own count first.
  handover: { perUser: 120, perAddress: 1200, windowSeconds: 600 },
  // Reading an uploaded timetable file (unzip and parse): a student tries a file or two.
  "timetable-import": { perUser: 20, perAddress: 300, windowSeconds: 600 },
};

/** The environment variable of an action's limit: RATE_LIMIT_RECOGNIZE_IMAGE. */
export function rateLimitVariable(action: RateLimitedAction) {
  return `RATE_LIMIT_${action.toUpperCase().replace(/-/g, "_")}` as const;
}

/** Retry-After in whole seconds (at least 1) from the milliseconds until the window frees a point. */
export function retryAfterSeconds(msBeforeNext: number) {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}
