// What the routes answer when app/server/coupons refuses an assist: the promo page (its invite
// prompt and the invite-register dialog) and the express tab's assist dialog (by ?assistError=)
// word the same refusals, so the table is here once.
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { AssistRefusal } from "~/server/coupons/campaign.server";

const m = couponMessages;

/** Each refusal's message; `failed`: the assist could not be checked (an error on the way). */
export const ASSIST_REFUSALS: Record<AssistRefusal | "failed", string> = {
  code_required: m.errors.codeRequired,
  inviter_missing: m.errors.inviterMissing,
  self: m.errors.self,
  already: m.errors.already,
  old_user: m.errors.oldUser,
  failed: m.errors.failed,
};

/** The message of a refusal sent back in a URL (?assistError=); an unknown one says nothing. */
export function assistRefusalText(reason: string | null): string | null {
  return reason !== null && Object.hasOwn(ASSIST_REFUSALS, reason) ? ASSIST_REFUSALS[reason as keyof typeof ASSIST_REFUSALS] : null;
}
