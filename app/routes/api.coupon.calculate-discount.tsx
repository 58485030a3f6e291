// POST /api/coupon/calculate-discount { openid, package_counts[, coupon_id] } (docs/product-rules.md, "Call paths"):
// the order's discount as order creation will compute it. '请先完成微信登录' without an openid.
import type { ActionFunctionArgs } from "@remix-run/node";
import { calculateDiscountAction, methodNotAllowed } from "~/server/coupons/api.server";

export const action = ({ request }: ActionFunctionArgs) => calculateDiscountAction(request);
export const loader = () => methodNotAllowed();
