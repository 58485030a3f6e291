// The invite campaign's pure rules: the invite code, the invite link, an invite's status and the
// progress toward the next milestone (docs/product-rules.md, "States", "Limits").

/** A pending invite (the invitee opened the link, has not registered) expires after 7 days. */
export const INVITE_PENDING_DAYS = 7;
export const INVITE_PENDING_MS = INVITE_PENDING_DAYS * 24 * 60 * 60 * 1000;
/** The invite-record card shows this many before 'view all'. */
export const RECORDS_SHOWN = 3;

/** The invite code: the last 8 characters of the openid, uppercased. */
export function inviteCode(openid: string) {
  return openid.slice(-8).toUpperCase();
}

/** A typed or linked code as it is compared: trimmed and uppercased. */
export function normalizeInviteCode(value: string | null | undefined) {
  return (value ?? "").trim().toUpperCase();
}

/** /market/promo-activity?invite=<code>&inviter=<opaque id> on the given origin ("" for a path). */
export function invitePath(code: string, inviterToken: string) {
  const params = new URLSearchParams({ invite: code, inviter: inviterToken });
  return `/market/promo-activity?${params.toString()}`;
}

export type InviteStatus = "pending" | "completed" | "expired";

export function inviteStatus(invite: { status: "pending" | "completed"; createdAt: string }, now: Date | string): InviteStatus {
  if (invite.status === "completed") return "completed";
  const at = typeof now === "string" ? new Date(now) : now;
  return at.getTime() - new Date(invite.createdAt).getTime() > INVITE_PENDING_MS ? "expired" : "pending";
}

export type MilestoneProgress = {
  completed: number;
  /** The next milestone not reached yet (null when all are reached). */
  next: number | null;
  remaining: number;
  /** completed / next as 0–100 (the bar reads "6/10"), 100 when all are reached. */
  percent: number;
  reached: number[];
};

/** Progress toward the next milestone (5 and 10 by default). */
export function milestoneProgress(completed: number, thresholds: number[]): MilestoneProgress {
  const sorted = [...new Set(thresholds)].filter((value) => value > 0).sort((a, b) => a - b);
  const done = Math.max(0, Math.floor(completed));
  const reached = sorted.filter((value) => value <= done);
  const next = sorted.find((value) => value > done) ?? null;
  if (next === null) return { completed: done, next: null, remaining: 0, percent: 100, reached };
  const percent = Math.floor((done / next) * 100);
  return { completed: done, next, remaining: next - done, percent, reached };
}
