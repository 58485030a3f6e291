// The coupon parts of /market as plain data (no HTML strings): the express tab's promo
// card, the assist dialog (?invite=…), the order-confirm sheet's coupon row and the coupon detail
// dialog (/market/checkout/coupon) with the choice of coupon. Texts are filled in here from
// the grant rules; app/components/market/ draws them. Beside the market layout, whose pages and
// dialogs share it: the coupons domain answers quotes and inviters, the routes word them.
import type { CouponRowData } from "~/components/coupons/CouponRow";
import { formatYuan } from "~/lib/money";
import { campaignCopy } from "~/lib/coupon-rules";
import { isExpiringSoon, lastValidDay, type Quote } from "~/lib/coupons";
import type { AssistDialogView, CouponPanelView, PromoCardView } from "~/lib/market-views";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { PackageCounts, PricedType } from "~/lib/package-counts";
import { fillTemplate } from "~/lib/template";
import type { User } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { recordPendingInvite, resolveInviter } from "~/server/coupons/campaign.server";
import { couponSummary, isNewUser, loadRules, quoteFor } from "~/server/coupons/wallet.server";

const m = couponMessages;

export const COUPON_SHEET = "coupon";
export const CHECKOUT_PATH = "/market/checkout";
/** The coupon detail dialog over the order-confirm sheet (its own route). */
export const COUPON_DIALOG_PATH = "/market/checkout/coupon";
export const ASSIST_PATH = "/market/assist";
export const COUPON_CHOICE_PATH = "/market/coupon-choice";
export const INVITE_DIALOG_PATH = "/market/invite";
export const PROMO_PATH = "/market/promo-activity";

const money = (fen: number) => fillTemplate(m.yuan, { amount: formatYuan(fen, { style: "amount" }) });

/** The quote of the user's checkout (null: no messenger identity, no checkout, or it failed — silently, as the product rules say). */
export async function checkoutQuote(user: User | null, types: PricedType[] | null, counts: PackageCounts | null): Promise<Quote | null> {
  if (!user?.openid || !types || !counts) return null;
  try {
    return await quoteFor(user.id, counts, types);
  } catch (error) {
    log("warn", "coupon-quote", { error: String(error) });
    return null;
  }
}

/** The order-confirm sheet's coupon row (the coupon used and its discount, or why none). */
export function couponRow(quote: Quote | null): CouponRowData | null {
  if (!quote) return null;
  const href = COUPON_DIALOG_PATH;
  if (quote.coupon) return { href, text: `${quote.coupon.name} ${fillTemplate(m.row.discount, { amount: formatYuan(quote.discountFen, { style: "amount" }) })}`, discounted: true };
  const usable = quote.options.filter((option) => option.usable).length;
  if (usable > 0) return { href, text: m.row.notUsed, discounted: false };
  return { href, text: m.row.none, discounted: false };
}

/** The express tab's promo card. */
export async function promoCard(input: { user: User | null; types: PricedType[] | null; authHref: string }): Promise<PromoCardView | null> {
  try {
    const copy = campaignCopy(await loadRules(), input.types ?? []);
    const messenger = Boolean(input.user?.openid);
    const available = input.user?.openid ? (await couponSummary(input.user.id)).stats.available : 0;
    return {
      title: m.card.title,
      priceFrom: copy.priceFrom,
      threshold: copy.newUserThreshold,
      validity: copy.validity,
      tickets: copy.newUserTickets.map((ticket) => ({ label: ticket.label, ...(ticket.count ? { count: ticket.count } : {}) })),
      line: messenger && available > 0 ? fillTemplate(m.card.owned, { count: available }) : fillTemplate(m.card.inviteLine, { reward: copy.assistReward }),
      messenger,
      authHref: input.authHref,
      links: { promo: PROMO_PATH, invite: INVITE_DIALOG_PATH },
      actions: { more: m.card.loggedInAction, invite: m.card.invite, authorize: m.card.loggedOutAction },
    };
  } catch (error) {
    log("warn", "coupon-market-parts", { error: String(error) });
    return null;
  }
}

/**
 * The assist dialog of /market?invite=…&inviter=…: opening the link is a pending invite for a new
 * user (never for oneself); `error`: the route's words for the refusal /market/assist sent back.
 */
export async function assistDialog(url: URL, user: User | null, error: string | null): Promise<AssistDialogView | null> {
  const code = url.searchParams.get("invite");
  if (code === null || url.searchParams.get("sheet")) return null;
  try {
    const copy = campaignCopy(await loadRules(), []);
    const token = url.searchParams.get("inviter");
    const inviter = await resolveInviter(code, token);
    if (inviter && user?.openid && inviter.id !== user.id && (await isNewUser(user.id))) await recordPendingInvite(inviter.id, user.id);
    return {
      title: m.assist.title,
      action: ASSIST_PATH,
      code,
      token,
      inviter: inviter && { nickname: inviter.nickname, avatar: inviter.avatar, line: fillTemplate(m.assist.invitedBy, { nickname: inviter.nickname }) },
      body: fillTemplate(m.assist.body, { reward: copy.newUserReward }),
      error,
      labels: { code: m.assist.codeLabel, placeholder: m.assist.codePlaceholder, later: m.assist.later, submit: m.assist.submit },
    };
  } catch (error) {
    log("warn", "coupon-market-parts", { error: String(error) });
    return null;
  }
}

/** The coupon detail dialog over the order-confirm sheet. */
export function couponPanel(quote: Quote, now = new Date()): CouponPanelView {
  const current = quote.coupon?.id ?? null;
  const reasonText = (option: Quote["options"][number]) =>
    option.reason === "min" ? fillTemplate(m.detail.unusableMin, { amount: formatYuan(option.coupon.minAmountFen) }) : m.detail.unusableZero;
  return {
    title: m.detail.title,
    closeTo: CHECKOUT_PATH,
    choiceAction: COUPON_CHOICE_PATH,
    totals: [
      { term: m.detail.original, value: money(quote.originalFen), tone: "plain" },
      { term: m.detail.discount, value: `-${money(quote.discountFen)}`, tone: "discount" },
      { term: m.detail.final, value: money(quote.finalFen), tone: "final" },
    ],
    usage:
      quote.coupon && quote.appliedTo
        ? {
            title: m.detail.usage,
            best: quote.automatic ? m.detail.best : null,
            text: `${quote.coupon.name} · ${fillTemplate(m.detail.appliedTo, { type: quote.appliedTo.name })}`,
            amount: `-${money(quote.discountFen)}`,
          }
        : null,
    parcelsTitle: m.detail.parcels,
    parcels: quote.items.map((item) => ({
      name: item.name,
      couponName: item.couponName ?? null,
      original: item.discountFen > 0 ? money(item.originalFen) : null,
      final: money(item.finalFen),
    })),
    chooseTitle: m.detail.choose,
    empty: m.detail.empty,
    options: quote.options.map((option) => ({
      id: option.coupon.id,
      name: option.coupon.name,
      detail: option.usable ? `-${money(option.discountFen)}` : reasonText(option),
      // Product rules: coupons expiring within 3 days are flagged.
      expiry: fillTemplate(m.expiresOn, { date: lastValidDay(option.coupon.expiresAt).slice(5) }),
      soon: isExpiringSoon(option.coupon, now) ? m.promo.expiringSoon : null,
      current: option.coupon.id === current,
      usable: option.usable,
    })),
    labels: { inUse: m.detail.inUse, use: m.detail.use },
    reset:
      quote.options.length === 0
        ? null
        : current !== null
          ? { choice: "none", label: m.detail.none }
          : quote.options.some((option) => option.usable)
            ? { choice: "best", label: m.detail.useBest }
            : null,
    rule: m.detail.rule,
  };
}
