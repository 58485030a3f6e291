// POST /api/coupon/check-assist-history { user_openid } → data.has_assisted, for the signed-in user only.
import type { ActionFunctionArgs } from "@remix-run/node";
import { checkAssistHistoryAction, methodNotAllowed } from "~/server/coupons/api.server";

export const action = ({ request }: ActionFunctionArgs) => checkAssistHistoryAction(request);
export const loader = () => methodNotAllowed();
