import { clearAccountThrottle, recordFailure, throttleKeys, throttleWait } from "../auth/rate-limit.server";
import { sameSecret, unseal } from "../crypto.server";

/** A refusal: the wrong password, or too many tries (with the wait before the next, in ms). */
export type DeletionCheck = { ok: true } | { ok: false; reason: "wrong_password" } | { ok: false; reason: "too_many"; waitMs: number };

/**
 * The password asked again before an account is deleted, throttled like a login (decision 015):
 * failures count for this account from this client and for the address, with a doubling wait.
 */
export async function checkDeletionPassword(
  request: Request,
  user: { id: number; password_enc: string | null },
  password: string,
  clientIp: string,
): Promise<DeletionCheck> {
  const keys = await throttleKeys(request, "delete", String(user.id), clientIp);
  const wait = await throttleWait(keys);
  if (wait > 0) return { ok: false, reason: "too_many", waitMs: wait };
  if (user.password_enc && sameSecret(unseal(user.password_enc), password)) {
    await clearAccountThrottle(keys);
    return { ok: true };
  }
  const nextWait = await recordFailure(keys);
  if (nextWait > 0) return { ok: false, reason: "too_many", waitMs: nextWait };
  return { ok: false, reason: "wrong_password" };
}
