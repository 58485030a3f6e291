// GET /api/coupon/assist/records/openid/{openid} (spec section 7): the invite records, answered
// only when {openid} is the signed-in user's own — records are only ever shown to their inviter.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { assistRecordsLoader } from "~/server/coupons/api.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => assistRecordsLoader(request, params.openid);
