import { Form, Link, useFetcher } from "@remix-run/react";
import { CHECKOUT_ACTION, MARKET_ACTION } from "~/lib/market-links";
import type { PromoCardView } from "~/lib/market-views";
import { marketPage } from "~/lib/messages/market-page";
import type { PickupEntry } from "~/lib/pickup-entries";
import { Icon } from "../icons";
import { Glyph } from "./glyphs";
import { useFetcherToast } from "./toast-context";

// The express tab's parts around the SMS form: the hero, the authorization prompt, the promo card,
// the parcel list with its edit links, delete and confirm forms, and the notice links. Links and
// forms work without JavaScript; with it they go through the router. (Its few links are written
// out rather than built with ~/lib/market-url, which the page's first visit need not carry.)

const m = marketPage;

export function ExpressTop({ priceFrom, estimate, messenger, authHref }: { priceFrom: string | null; estimate: { time: string; dayOffset: number }; messenger: boolean; authHref: string }) {
  return (
    <>
      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand to-brand-dark p-4 text-white shadow-sm">
        <div className="flex items-center gap-2">
          <Glyph name="truck" className="h-6 w-6" />
          <h2 className="text-lg font-semibold">{m.express.heroTitle}</h2>
          {priceFrom ? <span className="ml-auto rounded-full bg-white/20 px-2.5 py-0.5 text-xs">{priceFrom}</span> : null}
        </div>
        <p className="mt-1 text-sm text-white/85">{m.express.heroHint}</p>
        <p className="mt-3 inline-flex items-center gap-1 rounded-xl bg-white/15 px-2.5 py-1 text-xs">
          <Icon name="clock" className="h-3.5 w-3.5" />
          {m.express.estimate} {estimate.dayOffset === 0 ? m.express.today : m.express.tomorrow} {estimate.time}
        </p>
        <Glyph name="box" className="pointer-events-none absolute -bottom-4 -right-3 h-24 w-24 text-white/10" />
      </section>
      {!messenger ? (
        <section className="card flex items-center gap-3 border border-amber-100 bg-amber-50/70">
          <Icon name="shield" className="h-6 w-6 shrink-0 text-amber-600" />
          <p className="flex-1 text-sm text-amber-900">{m.authNeeded}</p>
          {/* A document link: the authorization leaves the app. */}
          <a href={authHref} className="btn-primary shrink-0 px-3 py-1.5 text-xs">
            {m.authAction}
          </a>
        </section>
      ) : null}
    </>
  );
}

function Ticket({ label, count }: { label: string; count?: number }) {
  return (
    <span className="relative inline-flex min-w-[3.5rem] flex-col items-center rounded-xl bg-white px-2 py-1.5 text-orange-700 shadow-sm">
      <span className="text-lg font-bold leading-5">{label}</span>
      {count ? <span className="text-[11px] text-orange-700">×{count}</span> : null}
    </span>
  );
}

/** The coupon campaign's card (its copy comes from the grant rules, filled in by the loader). */
export function PromoCard({ promo }: { promo: PromoCardView }) {
  return (
    <section className="card overflow-hidden p-0" aria-labelledby="promo-card-title" data-testid="promo-card">
      <Link to={promo.links.promo} className="block bg-gradient-to-r from-orange-500 to-rose-500 px-4 py-3 text-white">
        <div className="flex items-center gap-3">
          <div className="min-w-0 flex-1">
            <h2 id="promo-card-title" className="text-xs font-medium text-white/90">
              {promo.title}
            </h2>
            <p className="mt-0.5 text-lg font-bold">{promo.priceFrom}</p>
            <p className="mt-0.5 text-xs text-white/85">
              {promo.threshold} · {promo.validity}
            </p>
          </div>
          <div className="flex shrink-0 gap-1.5">
            {promo.tickets.map((ticket) => (
              <Ticket key={ticket.label} label={ticket.label} count={ticket.count} />
            ))}
          </div>
        </div>
      </Link>
      <div className="flex items-center gap-2 px-4 py-2.5">
        <p className="min-w-0 flex-1 text-xs leading-5 text-slate-600">{promo.line}</p>
        {promo.messenger ? (
          <>
            <Link to={promo.links.promo} className="shrink-0 text-xs text-orange-700">
              {promo.actions.more}
            </Link>
            <Link to={promo.links.invite} preventScrollReset className="shrink-0 rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white">
              {promo.actions.invite}
            </Link>
          </>
        ) : (
          // A document link: the authorization leaves the app.
          <a href={promo.authHref} className="shrink-0 rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white">
            {promo.actions.authorize}
          </a>
        )}
      </div>
    </section>
  );
}

/** The recognised parcels: edit (a link to the parcel dialog), delete, and on to the order-confirm sheet. */
export function ExpressList({ entries }: { entries: PickupEntry[] }) {
  return (
    <>
      <section className="card space-y-3" aria-labelledby="entries-title">
        <div className="flex items-center justify-between">
          <h2 id="entries-title" className="text-base font-semibold">
            {m.express.listTitle}
            {entries.length > 0 ? <span className="ml-1 text-sm font-normal text-slate-500">({entries.length})</span> : null}
          </h2>
          <Link to="/market?sheet=tip" preventScrollReset className="inline-flex items-center gap-1 text-xs text-slate-500 hover:text-brand">
            <Icon name="info" className="h-3.5 w-3.5" />
            {m.express.tipButton}
          </Link>
        </div>
        {entries.length === 0 ? (
          <p className="rounded-xl bg-slate-50 px-3 py-6 text-center text-sm text-slate-500">{m.express.listEmpty}</p>
        ) : (
          <ul className="space-y-2" aria-label={m.express.listTitle}>
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </ul>
        )}
        <p className="text-xs text-slate-500" role="status">
          {entries.length > 0 ? m.express.statusTip.replace("{count}", String(entries.length)) : m.express.statusTipEmpty}
        </p>
        <Form method="post" action={CHECKOUT_ACTION} preventScrollReset>
          <input type="hidden" name="intent" value="open-checkout" />
          <button type="submit" className="btn-primary h-11 w-full text-[15px]">
            {m.express.confirm}
            {entries.length > 0 ? ` (${entries.length})` : ""}
          </button>
        </Form>
      </section>
      <nav className="flex items-center justify-center gap-6 pb-2 text-sm text-slate-600">
        <Link to="/market?sheet=notice" preventScrollReset className="inline-flex items-center gap-1 hover:text-brand">
          <Icon name="info" className="h-4 w-4" />
          {m.express.serviceNotice}
        </Link>
        <Link to="/market?sheet=contact" preventScrollReset className="inline-flex items-center gap-1 hover:text-brand">
          <Icon name="service" className="h-4 w-4" />
          {m.express.contactService}
        </Link>
      </nav>
    </>
  );
}

function EntryRow({ entry }: { entry: PickupEntry }) {
  const remove = useFetcher();
  useFetcherToast(remove);
  const credential = entry.pickupCode ?? entry.trackingNumber ?? "";
  return (
    <li className="flex items-stretch gap-2 rounded-xl border border-slate-100 bg-slate-50/60" data-testid="pickup-entry">
      <Link
        to={`/market/parcel/${encodeURIComponent(entry.id)}`}
        preventScrollReset
        className="flex min-w-0 flex-1 items-center gap-3 px-3 py-2.5"
        aria-label={`${m.express.edit} ${credential}`}
      >
        <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-lg bg-brand-soft text-brand">
          <Glyph name="box" className="h-5 w-5" />
        </span>
        <span className="min-w-0 flex-1">
          {/* The code is what the row exists to show: never truncated, it wraps at any character
              on a narrow screen; the carrier and the station share the line below it. */}
          <span className="flex flex-wrap items-baseline gap-x-2">
            <span className="break-all font-mono text-[17px] font-semibold tracking-wide text-slate-900" data-testid="pickup-credential">
              {credential}
            </span>
            {entry.source !== "text" ? (
              <span className="shrink-0 text-[11px] text-slate-500">{entry.source === "image" ? m.express.sourceImage : m.express.sourceManual}</span>
            ) : null}
          </span>
          <span className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs text-slate-500" data-testid="pickup-carrier-station">
            <span className="shrink-0 rounded bg-white px-1.5 py-0.5 text-[11px] text-slate-600 ring-1 ring-slate-200">{entry.company}</span>
            <span className="min-w-0 break-words">{entry.stationName}</span>
          </span>
          {entry.pickupCode && entry.trackingNumber ? <span className="mt-0.5 block break-all font-mono text-[11px] text-slate-400">{entry.trackingNumber}</span> : null}
          {entry.deadline ? (
            <span className="mt-0.5 block text-[11px] text-amber-700" data-testid="pickup-deadline">
              {m.express.deadline.replace("{deadline}", entry.deadline)}
            </span>
          ) : null}
          {entry.check ? (
            <span className="mt-1 inline-block rounded bg-amber-50 px-1.5 py-0.5 text-[11px] font-medium text-amber-700 ring-1 ring-amber-200" data-testid="pickup-check">
              {entry.check === "low-confidence" ? m.express.checkLowConfidence : entry.check === "long-number" ? m.express.checkLongNumber : m.express.checkShortCode}
            </span>
          ) : null}
        </span>
        <Icon name="edit" className="h-4 w-4 shrink-0 text-slate-300" />
      </Link>
      <remove.Form method="post" action={MARKET_ACTION} className="flex">
        <input type="hidden" name="intent" value="delete-entry" />
        <input type="hidden" name="entryId" value={entry.id} />
        <button type="submit" className="px-3 text-slate-500 hover:text-red-500" aria-label={`${m.express.delete} ${credential}`}>
          <Glyph name="trash" className="h-5 w-5" />
        </button>
      </remove.Form>
    </li>
  );
}
