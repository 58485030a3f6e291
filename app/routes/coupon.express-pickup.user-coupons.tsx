// POST /coupon/express-pickup/user-coupons { openid } (docs/product-rules.md, "Call paths"): the user's coupons, the
// summary per template and the totals.
import type { ActionFunctionArgs } from "@remix-run/node";
import { methodNotAllowed, userCouponsAction } from "~/server/coupons/api.server";

export const action = ({ request }: ActionFunctionArgs) => userCouponsAction(request);
export const loader = () => methodNotAllowed();
