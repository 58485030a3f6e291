// POST /market/assist — the express tab's assist dialog (/market?invite=…): the code is checked
// ('请输入邀请码', '邀请人不存在', '不能助力自己哦！', already assisted, old user) and kept as the
// user's pending invite; the assist itself happens in the invite-register dialog of the promo
// page (or at the student login), in one transaction with the new-user grant. Always answers
// with a redirect, so the dialog works the same with and without JavaScript.
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect, redirectDocument, type ActionFunctionArgs } from "@remix-run/node";
import { AssistStartSchema } from "~/lib/schemas/coupons";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { getUser } from "~/server/auth/session.server";
import { startAssist } from "~/server/coupons/campaign.server";
import { PROMO_PATH } from "./market._shell/coupon-parts.server";

function back(invite: string, inviter: string | undefined, error: string) {
  const params = new URLSearchParams({ invite });
  if (inviter) params.set("inviter", inviter);
  params.set("assistError", error);
  return `/market?${params.toString()}`;
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: AssistStartSchema });
  // The link's opaque id goes back into URLs: only a token-shaped value (never a long or odd string).
  const raw = formData.get("inviter");
  const inviter = typeof raw === "string" && /^[\w-]{1,64}$/.test(raw) ? raw : undefined;
  if (submission.status !== "success") {
    // Empty: '请输入邀请码'; anything else that is not a code (too long): no such inviter.
    const typed = String(formData.get("invite") ?? "").trim();
    return redirect(back("", inviter, typed ? "inviter_missing" : "code_required"));
  }
  const { invite } = submission.value;
  const user = await getUser(request);
  if (!user?.openid) {
    const params = new URLSearchParams({ invite });
    if (inviter) params.set("inviter", inviter);
    return redirectDocument(messengerAuthPath(`/market?${params.toString()}`));
  }
  const check = await startAssist(user, invite, inviter ?? null);
  if (!check.ok) return redirect(back(invite, inviter, check.reason));
  const params = new URLSearchParams({ invite: check.inviter.code });
  if (inviter) params.set("inviter", inviter);
  params.set("dialog", "register");
  return redirect(`${PROMO_PATH}?${params.toString()}`);
}

export const loader = () => redirect("/market");
