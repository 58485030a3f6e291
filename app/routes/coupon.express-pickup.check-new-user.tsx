// POST /coupon/express-pickup/check-new-user { openid } → data.is_new_user (docs/product-rules.md, "Call paths"): whether
// the signed-in user has not yet received the new-user grant.
import type { ActionFunctionArgs } from "@remix-run/node";
import { OpenidBodySchema } from "~/lib/schemas/coupons";
import { isNewUser } from "~/server/coupons/wallet.server";
import { readBody } from "~/server/market/json-body.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { apiAnswer as answer, methodNotAllowed, requireOwnOpenid } from "~/server/http/api-answer";

const m = couponMessages;

/** POST /coupon/express-pickup/check-new-user { openid } → data.is_new_user. */
export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST") return methodNotAllowed(wechatMessages.methodNotAllowed);
  const body = OpenidBodySchema.safeParse((await readBody(request)) ?? {});
  const user = await requireOwnOpenid(request, body.success ? body.data.openid : undefined, m.errors.forbidden);
  return answer({ success: true, data: { is_new_user: await isNewUser(user.id) } });
}

export const loader = () => methodNotAllowed(wechatMessages.methodNotAllowed);
