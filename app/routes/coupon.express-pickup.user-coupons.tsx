// POST /coupon/express-pickup/user-coupons { openid } (docs/product-rules.md, "Call paths"): the user's coupons, the
// summary per template and the totals.
import type { ActionFunctionArgs } from "@remix-run/node";
import { OpenidBodySchema } from "~/lib/schemas/coupons";
import { couponSummary, walletOf } from "~/server/coupons/wallet.server";
import { fenToYuan } from "~/lib/money";
import { lastValidDay } from "~/lib/coupons";
import { readBody } from "~/server/market/json-body.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { apiAnswer as answer, methodNotAllowed, requireOwnOpenid } from "~/server/http/api-answer";

const m = couponMessages;

/**
 * POST /coupon/express-pickup/user-coupons { openid }: the user's coupons (data.coupons), the
 * summary per template (available count, nearest expiry, expiring within 3 days) and the totals.
 */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(wechatMessages.methodNotAllowed);
  const body = OpenidBodySchema.safeParse((await readBody(request)) ?? {});
  const user = await requireOwnOpenid(request, body.success ? body.data.openid : undefined, m.errors.forbidden);
  const now = new Date();
  const [wallet, summary] = await Promise.all([walletOf(user.id), couponSummary(user.id, now)]);
  const iso = now.toISOString();
  return answer({
    success: true,
    message: summary.stats.available === 0 ? m.row.none : "",
    data: {
      coupons: wallet.map((coupon) => ({
        id: coupon.id,
        name: coupon.name,
        coupon_name: coupon.name,
        template_id: coupon.templateId,
        type: coupon.type,
        discount_value: coupon.type === "percentage" ? (coupon.percentPaid ?? 100) / 100 : null,
        fixedPrice: coupon.type === "fixed" ? fenToYuan(coupon.fixedPriceFen ?? 0) : null,
        min_amount: fenToYuan(coupon.minAmountFen),
        status: coupon.status,
        is_expired: coupon.expiresAt <= iso,
        expired_at: coupon.expiresAt,
        last_valid_day: lastValidDay(coupon.expiresAt),
      })),
      coupon_summary: summary.groups.map((group) => ({
        template_id: group.templateId,
        coupon_name: group.name,
        label: group.label,
        available_count: group.availableCount,
        nearest_expiry: group.nearestExpiry,
        nearest_expiry_day: lastValidDay(group.nearestExpiry),
        expiring_soon: group.expiringSoon,
      })),
      total_stats: {
        available: summary.stats.available,
        reserved: summary.stats.reserved,
        used: summary.stats.used,
        expired: summary.stats.expired,
        expiring_soon: summary.stats.expiringSoon,
      },
    },
  });
}

export const loader = () => methodNotAllowed(wechatMessages.methodNotAllowed);
