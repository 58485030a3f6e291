// The numbers and patterns of orders the pages' scripts need (nothing else: this module imports
// nothing, so a page that reads a limit does not pull the order rules and their texts into its
// JavaScript — esbuild keeps a bare import of every module a shared module imports).

/** 'E' + yyyyMMdd + 6 digits. */
export const ORDER_NUMBER_PATTERN = /^E\d{8}\d{6}$/;

/** How long an unpaid order waits for its payment (then the closer cancels it). */
export const UNPAID_ORDER_TTL_MS = 24 * 60 * 60 * 1000;

/** Without JavaScript a simulated payment is confirmed by reloading the page (?paying=1…10), 2 s apart. */
export const PAY_RELOADS = 10;

export const REASON_MAX = 200;
export const REVIEW_COMMENT_MAX = 500;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const DEFAULT_RATING = 5;
