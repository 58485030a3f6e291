// POST /api/coupon/calculate-discount { openid, package_counts[, coupon_id] } (docs/product-rules.md, "Call paths"):
// the order's discount as order creation will compute it. '请先完成微信登录' without an openid.
import type { ActionFunctionArgs } from "@remix-run/node";
import { CalculateDiscountSchema } from "~/lib/schemas/coupons";
import { calculationResult, normalizeCounts } from "~/lib/coupons";
import { getUser } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { pricedTypesFor, quoteFor } from "~/server/coupons/wallet.server";
import { readBody } from "~/server/market/json-body.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { apiAnswer as answer, methodNotAllowed } from "~/server/http/api-answer";

const m = couponMessages;

/** POST /api/coupon/calculate-discount { openid, package_counts[, coupon_id] } → the product rules' calculation result. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(wechatMessages.methodNotAllowed);
  const parsed = CalculateDiscountSchema.safeParse((await readBody(request)) ?? {});
  if (!parsed.success) return answer({ success: false, message: m.errors.badRequest }, 400);
  const user = await getUser(request);
  if (!user?.openid) return answer({ success: false, message: m.errors.needMessenger }, 401);
  if (parsed.data.openid && parsed.data.openid !== user.openid) return answer({ success: false, message: m.errors.forbidden }, 403);
  try {
    const raw = parsed.data.coupon_id;
    const choice = raw === undefined ? "stored" : raw === null || raw === "none" ? null : raw === "best" ? undefined : Number(raw);
    const quote = await quoteFor(user.id, normalizeCounts(parsed.data.package_counts), await pricedTypesFor(user), { choice });
    const usable = quote.options.some((option) => option.usable);
    return answer({ success: true, message: usable ? "" : m.row.none, data: calculationResult(quote) });
  } catch (error) {
    log("error", "coupon-calculate", { error: String(error) });
    return answer({ success: false, message: m.errors.failed }, 500);
  }
}

export const loader = () => methodNotAllowed(wechatMessages.methodNotAllowed);
