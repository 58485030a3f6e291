// GET /api/coupon/assist/records/openid/{openid} (docs/product-rules.md, "Call paths"): the invite records, answered
// only when {openid} is the signed-in user's own — records are only ever shown to their inviter.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { assistRecordsLoader } from "~/server/coupons/api.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => assistRecordsLoader(request, params.openid);
