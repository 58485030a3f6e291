import * as msg from "~/lib/messages";
import { clearAccountThrottle, recordFailure, throttleKeys, throttleWait, tooManyMessage } from "../auth/rate-limit.server";
import { sameSecret, unseal } from "../crypto.server";

export type DeletionCheck = { ok: true } | { ok: false; message: string; status: 400 | 429 };

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
  if (wait > 0) return { ok: false, status: 429, message: tooManyMessage(msg.login.tooManyAttempts, wait) };
  if (user.password_enc && sameSecret(unseal(user.password_enc), password)) {
    await clearAccountThrottle(keys);
    return { ok: true };
  }
  const nextWait = await recordFailure(keys);
  if (nextWait > 0) return { ok: false, status: 429, message: tooManyMessage(msg.login.tooManyAttempts, nextWait) };
  return { ok: false, status: 400, message: msg.settings.deletePasswordWrong };
}
