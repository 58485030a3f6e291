// GET /api/coupon/assist/records/openid/{openid} (docs/product-rules.md, "Call paths"): the invite records, answered
// only when {openid} is the signed-in user's own — records are only ever shown to their inviter.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { inviteRecords, recordForApi } from "~/server/coupons/campaign.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { apiAnswer as answer } from "~/server/http/api-answer";
import { requireMessengerUser } from "~/server/http/guards.server";

const m = couponMessages;

/** GET /api/coupon/assist/records/openid/{openid}: the invite records, only for their own inviter. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const openid = params.openid;
  const user = await requireMessengerUser(request);
  if (!openid || openid !== user.openid) return answer({ success: false, message: m.errors.forbidden }, 403);
  const { records, completed, total } = await inviteRecords(user.id);
  return answer({ success: true, data: records.map(recordForApi), completed_count: completed, total });
}
