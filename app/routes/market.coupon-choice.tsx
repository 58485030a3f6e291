// POST /market/coupon-choice — the coupon detail dialog's choice (a coupon, none, or back to the
// best), kept with the user so the sheet, the calculation and order creation all use it.
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, redirectDocument, type ActionFunctionArgs } from "@remix-run/node";
import { CouponChoiceSchema } from "~/lib/schemas/coupons";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { getUser } from "~/server/auth/session.server";
import { setCouponChoice } from "~/server/coupons/wallet.server";

const SHEET = "/market/checkout";

export async function action({ request }: ActionFunctionArgs) {
  const user = await getUser(request);
  if (!user?.openid) return redirectDocument(messengerAuthPath(SHEET));
  const submission = parseWithZod(await request.formData(), { schema: CouponChoiceSchema });
  if (submission.status !== "success") return redirect(SHEET);
  const { choice } = submission.value;
  await setCouponChoice(user.id, choice === "best" ? undefined : choice === "none" ? null : Number(choice));
  return redirect(SHEET);
}

export const loader = () => redirect(SHEET);
