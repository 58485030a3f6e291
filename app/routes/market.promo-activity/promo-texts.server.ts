// What both promo pages (/market/promo-activity and its invite list) send with their data: the
// catalogue texts their components show (the pages' JavaScript carries no catalogue) and an
// invite record as a row. Beside the route so the invite list's chunk does not carry the promo page.
import type { InviteRecord } from "~/server/coupons/campaign.server";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { commentTime } from "~/lib/relative-time";

const m = couponMessages;

/** The catalogue texts the promo pages' components show, sent with the data (the page's JavaScript carries no catalogue). */
export function promoTexts() {
  const { rules: _rules, ...promo } = m.promo;
  return { promo, share: m.share, register: m.register, loginPrompt: m.loginPrompt, assistPrompt: m.assistPrompt, expiresOn: m.expiresOn };
}

export type PromoTexts = ReturnType<typeof promoTexts>;

export function recordView(record: InviteRecord, now: Date) {
  return {
    id: record.id,
    status: record.status,
    statusLabel: m.promo.status[record.status],
    nickname: record.nickname,
    avatar: record.avatar,
    time: commentTime(record.at, now),
    rewards: record.rewards,
  };
}

export type RecordView = ReturnType<typeof recordView>;
