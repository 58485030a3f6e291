// The invite a signed-in user shares: code, full link (the configured public origin, else the
// request's), and the texts of the share card, all rendered from the grant rules. The promo
// page and the market's invite dialog (/market/invite) both show it.
import { campaignCopy } from "~/lib/coupon-rules";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { PricedType } from "~/lib/package-counts";
import { fillTemplate } from "~/lib/template";
import type { User } from "~/server/auth/session.server";
import { inviteLinkOf } from "~/server/coupons/campaign.server";
import { loadRules } from "~/server/coupons/wallet.server";
import { publicOrigin } from "~/server/http/public-origin";

const m = couponMessages;

export async function inviteShareOf(request: Request, user: User, types: PricedType[] = []) {
  const link = await inviteLinkOf(user);
  if (!link) return null;
  const copy = campaignCopy(await loadRules(), types);
  return {
    labels: m.share,
    code: link.code,
    link: `${publicOrigin(request)}${link.path}`,
    reward: fillTemplate(m.share.reward, { reward: copy.assistReward }),
    shareTitle: m.share.shareTitle,
    shareDesc: fillTemplate(m.share.shareDesc, { reward: copy.newUserReward, priceFrom: copy.priceFrom }),
  };
}
