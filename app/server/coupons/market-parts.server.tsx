// The coupon parts of /market, rendered on the server (the page shows them through its
// ServerHtml island, so they add no JavaScript): the express tab's promo card, the assist dialog
// (?invite=…), the order-confirm sheet's coupon row and the coupon detail dialog
// (/market/checkout?sheet=coupon) with the choice of coupon. The market loader calls
// marketCouponParts once and places what it answers.
import { renderToStaticMarkup } from "react-dom/server";
import type { CouponRowData } from "~/components/coupons/CouponRow";
import { formatYuan } from "~/lib/catalog";
import { campaignCopy } from "~/lib/coupon-rules";
import { isExpiringSoon, lastValidDay, type Quote } from "~/lib/coupons";
import { app as appMessages } from "~/lib/messages/app";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { PackageCounts, PricedType } from "~/lib/package-counts";
import { fillTemplate } from "~/lib/template";
import type { User } from "../auth/session.server";
import { log } from "../log.server";
import { REFUSAL_MESSAGES, recordPendingInvite, resolveInviter, type AssistRefusal, type Inviter } from "./campaign.server";
import { couponSummary, isNewUser, loadRules, quoteFor } from "./wallet.server";
import { ServerPanelFrame } from "../errands/static-panels.server";

const m = couponMessages;


export type MarketCouponParts = {
  quote: Quote | null;
  row: CouponRowData | null;
  /** A dialog over the page (the coupon detail or the assist dialog), in the market's panel shape. */
  panel: { title: string; closeTo: string; html: string } | null;
  promoHtml: string;
};

export const COUPON_SHEET = "coupon";
export const CHECKOUT_PATH = "/market/checkout";
export const ASSIST_PATH = "/market/assist";
export const COUPON_CHOICE_PATH = "/market/coupon-choice";
export const INVITE_DIALOG_PATH = "/market/invite";
export const PROMO_PATH = "/market/promo-activity";

const money = (fen: number) => fillTemplate(m.yuan, { amount: (fen / 100).toFixed(2) });

export async function marketCouponParts(input: {
  url: URL;
  user: User | null;
  types: PricedType[] | null;
  counts: PackageCounts | null;
  authHref: string;
  express: boolean;
}): Promise<MarketCouponParts> {
  const { url, user } = input;
  const messenger = Boolean(user?.openid);
  const sheetHref = `${CHECKOUT_PATH}?sheet=${COUPON_SHEET}`;

  let quote: Quote | null = null;
  if (user?.openid && input.types && input.counts) {
    try {
      quote = await quoteFor(user.id, input.counts, input.types);
    } catch (error) {
      // The spec: a calculation failure shows no discount, silently.
      log("warn", "coupon-quote", { error: String(error) });
    }
  }

  let promoHtml = "";
  let panel: MarketCouponParts["panel"] = null;
  try {
    const rules = await loadRules();
    const copy = campaignCopy(rules, input.types ?? []);
    if (input.express) {
      const available = user?.openid ? (await couponSummary(user.id)).stats.available : 0;
      promoHtml = renderPromoCard({ messenger, authHref: input.authHref, copy, available });
    }
    const invite = url.searchParams.get("invite");
    if (url.searchParams.get("sheet") === COUPON_SHEET && quote && url.pathname === CHECKOUT_PATH) {
      panel = couponPanel(quote, url.pathname);
    } else if (invite !== null && !url.searchParams.get("sheet")) {
      const token = url.searchParams.get("inviter");
      const inviter = await resolveInviter(invite, token);
      // Opening the link is a pending invite for a new user (never for oneself).
      if (inviter && user?.openid && inviter.id !== user.id && (await isNewUser(user.id))) await recordPendingInvite(inviter.id, user.id);
      const error = url.searchParams.get("assistError");
      panel = assistPanel({ code: invite, token, inviter, reward: copy.newUserReward, error: error && error in REFUSAL_MESSAGES ? REFUSAL_MESSAGES[error as AssistRefusal] : null });
    }
  } catch (error) {
    log("warn", "coupon-market-parts", { error: String(error) });
  }

  return { quote, row: quote ? couponRow(quote, sheetHref) : null, panel, promoHtml };
}

function couponRow(quote: Quote, href: string): CouponRowData {
  if (quote.coupon) return { href, text: `${quote.coupon.name} ${fillTemplate(m.row.discount, { amount: (quote.discountFen / 100).toFixed(2) })}`, discounted: true };
  const usable = quote.options.filter((option) => option.usable).length;
  if (usable > 0) return { href, text: m.row.notUsed, discounted: false };
  return { href, text: m.row.none, discounted: false };
}

// ---------------------------------------------------------------------------------------------
// Markup


function Ticket({ label, count }: { label: string; count?: number }) {
  return (
    <span className="relative inline-flex min-w-[3.5rem] flex-col items-center rounded-xl bg-white px-2 py-1.5 text-orange-700 shadow-sm">
      <span className="text-lg font-bold leading-5">{label}</span>
      {count ? <span className="text-[11px] text-orange-700">×{count}</span> : null}
    </span>
  );
}

export function renderPromoCard(input: { messenger: boolean; authHref: string; copy: ReturnType<typeof campaignCopy>; available: number }) {
  const { copy } = input;
  return renderToStaticMarkup(
    <section className="card mt-3 overflow-hidden p-0" aria-labelledby="promo-card-title" data-testid="promo-card">
      <a href={PROMO_PATH} className="block bg-gradient-to-r from-orange-500 to-rose-500 px-4 py-3 text-white">
        <div className="flex items-center gap-3">
          <div className="min-w-0 flex-1">
            <h2 id="promo-card-title" className="text-xs font-medium text-white/90">
              {m.card.title}
            </h2>
            <p className="mt-0.5 text-lg font-bold">{copy.priceFrom}</p>
            <p className="mt-0.5 text-xs text-white/85">
              {copy.newUserThreshold} · {copy.validity}
            </p>
          </div>
          <div className="flex shrink-0 gap-1.5">
            {copy.newUserTickets.map((ticket) => (
              <Ticket key={ticket.label} label={ticket.label} count={ticket.count} />
            ))}
          </div>
        </div>
      </a>
      <div className="flex items-center gap-2 px-4 py-2.5">
        <p className="min-w-0 flex-1 text-xs leading-5 text-slate-600">
          {input.messenger && input.available > 0 ? fillTemplate(m.card.owned, { count: input.available }) : fillTemplate(m.card.inviteLine, { reward: copy.assistReward })}
        </p>
        {input.messenger ? (
          <>
            <a href={PROMO_PATH} className="shrink-0 text-xs text-orange-700">
              {m.card.loggedInAction}
            </a>
            <a href={INVITE_DIALOG_PATH} className="shrink-0 rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white">
              {m.card.invite}
            </a>
          </>
        ) : (
          // A document link: the authorization leaves the app.
          <a href={input.authHref} data-document="" className="shrink-0 rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white">
            {m.card.loggedOutAction}
          </a>
        )}
      </div>
    </section>,
  );
}

function assistPanel(input: { code: string; token: string | null; inviter: Inviter | null; reward: string; error: string | null }) {
  const title = m.assist.title;
  return {
    title,
    closeTo: "/market",
    html: renderToStaticMarkup(
      <ServerPanelFrame title={title} closeTo="/market" labelId="assist-dialog-title">
        <div className="space-y-3">
          {input.inviter ? (
            <div className="flex items-center gap-3 rounded-2xl bg-orange-50 px-3 py-3">
              <Avatar src={input.inviter.avatar} name={input.inviter.nickname} />
              <p className="text-sm font-medium text-slate-800">{fillTemplate(m.assist.invitedBy, { nickname: input.inviter.nickname })}</p>
            </div>
          ) : null}
          <p className="text-sm text-slate-600">{fillTemplate(m.assist.body, { reward: input.reward })}</p>
          <form method="post" action={ASSIST_PATH} className="space-y-3">
            {input.token ? <input type="hidden" name="inviter" value={input.token} /> : null}
            <label className="block text-sm">
              <span className="text-slate-600">{m.assist.codeLabel}</span>
              <input
                name="invite"
                defaultValue={input.code}
                placeholder={m.assist.codePlaceholder}
                autoComplete="off"
                maxLength={32}
                aria-invalid={input.error ? true : undefined}
                aria-describedby={input.error ? "assist-error" : undefined}
                className="field-input mt-1 font-mono uppercase tracking-widest"
              />
            </label>
            {input.error ? (
              <p id="assist-error" role="alert" className="field-error">
                {input.error}
              </p>
            ) : null}
            <div className="grid grid-cols-2 gap-2">
              <a href="/market" data-replace="" className="btn-ghost h-10 text-sm">
                {m.assist.later}
              </a>
              <button type="submit" className="btn-primary h-10 text-sm">
                {m.assist.submit}
              </button>
            </div>
          </form>
        </div>
      </ServerPanelFrame>,
    ),
  };
}

function Avatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img src={src} alt="" className="h-10 w-10 shrink-0 rounded-full object-cover" referrerPolicy="no-referrer" />
  ) : (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-orange-200 text-base font-semibold text-orange-700" aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  );
}

function couponPanel(quote: Quote, base: string, now = new Date()) {
  const title = m.detail.title;
  const current = quote.coupon?.id ?? null;
  const reasonText = (option: Quote["options"][number]) =>
    option.reason === "min" ? fillTemplate(m.detail.unusableMin, { amount: formatYuan(option.coupon.minAmountFen) }) : m.detail.unusableZero;
  return {
    title,
    closeTo: base,
    html: renderToStaticMarkup(
      <ServerPanelFrame title={title} closeTo={base} labelId="coupon-dialog-title">
        <div className="space-y-4 text-sm">
          <dl className="space-y-1.5 rounded-2xl bg-slate-50 px-4 py-3" data-testid="coupon-totals">
            <Row term={m.detail.original} value={money(quote.originalFen)} />
            <Row term={m.detail.discount} value={`-${money(quote.discountFen)}`} tone="text-red-600" />
            <Row term={m.detail.final} value={money(quote.finalFen)} tone="text-base font-semibold text-slate-900" />
          </dl>

          {quote.coupon && quote.appliedTo ? (
            <section>
              <h3 className="mb-1.5 flex items-baseline justify-between font-semibold text-slate-800">
                {m.detail.usage}
                {quote.automatic ? <span className="text-xs font-normal text-slate-500">{m.detail.best}</span> : null}
              </h3>
              <p className="flex items-center justify-between rounded-xl bg-orange-50 px-3 py-2 text-orange-800">
                <span>
                  {quote.coupon.name} · {fillTemplate(m.detail.appliedTo, { type: quote.appliedTo.name })}
                </span>
                <span className="font-semibold">-{money(quote.discountFen)}</span>
              </p>
            </section>
          ) : null}

          <section>
            <h3 className="mb-1.5 font-semibold text-slate-800">{m.detail.parcels}</h3>
            <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-100" data-testid="coupon-parcels">
              {quote.items.map((item, index) => (
                <li key={index} className="flex items-center justify-between px-3 py-2">
                  <span className="text-slate-700">
                    {item.name}
                    {item.couponName ? <span className="ml-1.5 rounded bg-orange-100 px-1 text-[11px] text-orange-700">{item.couponName}</span> : null}
                  </span>
                  <span className="tabular-nums">
                    {item.discountFen > 0 ? <span className="mr-1.5 text-xs text-slate-500 line-through">{money(item.originalFen)}</span> : null}
                    {money(item.finalFen)}
                  </span>
                </li>
              ))}
            </ul>
          </section>

          <section>
            <h3 className="mb-1.5 font-semibold text-slate-800">{m.detail.choose}</h3>
            {quote.options.length === 0 ? (
              <p className="rounded-xl bg-slate-50 px-3 py-4 text-center text-slate-500">{m.detail.empty}</p>
            ) : (
              <ul className="space-y-2">
                {quote.options.map((option) => (
                  <li key={option.coupon.id} className={`flex items-center gap-3 rounded-xl px-3 py-2 ring-1 ${option.coupon.id === current ? "bg-orange-50 ring-orange-200" : "ring-slate-100"}`}>
                    <span className="min-w-0 flex-1">
                      <span className="block font-medium text-slate-800">{option.coupon.name}</span>
                      <span className="block text-xs text-slate-500">
                        {option.usable ? `-${money(option.discountFen)}` : reasonText(option)}
                      </span>
                      {/* The spec: coupons expiring within 3 days are flagged. */}
                      <span className="block text-xs text-slate-500" data-testid="coupon-expiry">
                        {fillTemplate(m.expiresOn, { date: lastValidDay(option.coupon.expiresAt).slice(5) })}
                        {isExpiringSoon(option.coupon, now) ? (
                          <span className="ml-1.5 rounded bg-red-50 px-1 text-[11px] text-red-600">{m.promo.expiringSoon}</span>
                        ) : null}
                      </span>
                    </span>
                    {option.coupon.id === current ? (
                      <span className="text-xs font-medium text-orange-700">{m.detail.inUse}</span>
                    ) : option.usable ? (
                      <ChoiceForm choice={String(option.coupon.id)} label={m.detail.use} returnTo={base} />
                    ) : null}
                  </li>
                ))}
                {current !== null ? (
                  <li className="flex justify-end">
                    <ChoiceForm choice="none" label={m.detail.none} returnTo={base} ghost />
                  </li>
                ) : quote.options.some((option) => option.usable) ? (
                  <li className="flex justify-end">
                    <ChoiceForm choice="best" label={m.detail.useBest} returnTo={base} ghost />
                  </li>
                ) : null}
              </ul>
            )}
            <p className="mt-2 text-xs text-slate-500">{m.detail.rule}</p>
          </section>
        </div>
      </ServerPanelFrame>,
    ),
  };
}

function Row({ term, value, tone = "text-slate-700" }: { term: string; value: string; tone?: string }) {
  return (
    <div className="flex items-center justify-between">
      <dt className="text-slate-500">{term}</dt>
      <dd className={`tabular-nums ${tone}`}>{value}</dd>
    </div>
  );
}

function ChoiceForm({ choice, label, returnTo, ghost = false }: { choice: string; label: string; returnTo: string; ghost?: boolean }) {
  return (
    <form method="post" action={COUPON_CHOICE_PATH}>
      <input type="hidden" name="choice" value={choice} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button type="submit" className={ghost ? "text-xs text-slate-500 underline" : "rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white"}>
        {label}
      </button>
    </form>
  );
}
