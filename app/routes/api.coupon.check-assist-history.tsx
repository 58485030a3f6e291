// POST /api/coupon/check-assist-history { user_openid } → data.has_assisted, for the signed-in user only.
import type { ActionFunctionArgs } from "@remix-run/node";
import { hasAssisted } from "~/server/coupons/campaign.server";
import { readBody } from "~/server/market/json-body.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { apiAnswer as answer, methodNotAllowed, requireOwnOpenid } from "~/server/http/api-answer";

const m = couponMessages;

/** POST /api/coupon/check-assist-history { user_openid } → data.has_assisted. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(wechatMessages.methodNotAllowed);
  const body = (await readBody(request)) ?? {};
  const openid = typeof body.user_openid === "string" ? body.user_openid : typeof body.openid === "string" ? body.openid : undefined;
  const user = await requireOwnOpenid(request, openid, m.errors.forbidden);
  return answer({ success: true, data: { has_assisted: await hasAssisted(user.id) } });
}

export const loader = () => methodNotAllowed(wechatMessages.methodNotAllowed);
