// POST /coupon/express-pickup/check-new-user { openid } → data.is_new_user (docs/product-rules.md, "Call paths"): whether
// the signed-in user has not yet received the new-user grant.
import type { ActionFunctionArgs } from "@remix-run/node";
import { checkNewUserAction, methodNotAllowed } from "~/server/coupons/api.server";

export const action = ({ request }: ActionFunctionArgs) => checkNewUserAction(request);
export const loader = () => methodNotAllowed();
