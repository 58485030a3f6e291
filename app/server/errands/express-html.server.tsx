import { renderToStaticMarkup } from "react-dom/server";
import { Icon } from "~/components/icons";
import { formatYuan } from "~/lib/catalog";
import { fill, marketHref } from "~/lib/market-url";
import { marketPage } from "~/lib/messages/market-page";
import type { PickupEntry } from "~/lib/pickup-entries";

// The express tab's parts that need no script of their own (the hero, the authorization prompt,
// the parcel list with its edit links, delete and confirm forms, the notice links), rendered here
// to HTML. The page shows them through ServerHtml, which sends their links and forms through the
// router with JavaScript; without JavaScript they are plain links and forms. The list updates
// with the loader after every action.

const m = marketPage;

const GLYPHS = {
  truck: "M1 3h15v13H1zM16 8h4l3 3v5h-7zM5.5 21a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM18.5 21a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z",
  box: "M21 16V8a2 2 0 0 0-1-1.7l-7-4a2 2 0 0 0-2 0l-7 4A2 2 0 0 0 3 8v8a2 2 0 0 0 1 1.7l7 4a2 2 0 0 0 2 0l7-4a2 2 0 0 0 1-1.7zM3.3 7L12 12l8.7-5M12 22V12",
  trash: "M3 6h18M8 6V4a1 1 0 0 1 1-1h6a1 1 0 0 1 1 1v2M19 6l-1 14a2 2 0 0 1-2 2H8a2 2 0 0 1-2-2L5 6M10 11v6M14 11v6",
};

function Glyph({ name, className }: { name: keyof typeof GLYPHS; className: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d={GLYPHS[name]} />
    </svg>
  );
}

export function renderExpressTop(options: { priceFromFen: number | null; estimate: { time: string; dayOffset: number }; messenger: boolean; authHref: string }) {
  const { priceFromFen, estimate } = options;
  return renderToStaticMarkup(
    <>
      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand to-brand-dark p-4 text-white shadow-sm">
        <div className="flex items-center gap-2">
          <Glyph name="truck" className="h-6 w-6" />
          <h2 className="text-lg font-semibold">{m.express.heroTitle}</h2>
          {priceFromFen ? (
            <span className="ml-auto rounded-full bg-white/20 px-2.5 py-0.5 text-xs">{fill(m.express.priceFrom, { price: formatYuan(priceFromFen) })}</span>
          ) : null}
        </div>
        <p className="mt-1 text-sm text-white/85">{m.express.heroHint}</p>
        <p className="mt-3 inline-flex items-center gap-1 rounded-xl bg-white/15 px-2.5 py-1 text-xs">
          <Icon name="clock" className="h-3.5 w-3.5" />
          {m.express.estimate} {estimate.dayOffset === 0 ? m.express.today : m.express.tomorrow} {estimate.time}
        </p>
        <Glyph name="box" className="pointer-events-none absolute -bottom-4 -right-3 h-24 w-24 text-white/10" />
      </section>
      {!options.messenger ? (
        <section className="card mt-3 flex items-center gap-3 border border-amber-100 bg-amber-50/70">
          <Icon name="shield" className="h-6 w-6 shrink-0 text-amber-600" />
          <p className="flex-1 text-sm text-amber-900">{m.authNeeded}</p>
          {/* A document link: the authorization leaves the app. */}
          <a href={options.authHref} data-document="" className="btn-primary shrink-0 px-3 py-1.5 text-xs">
            {m.authAction}
          </a>
        </section>
      ) : null}
    </>,
  );
}

export function renderExpressList(entries: PickupEntry[]) {
  return renderToStaticMarkup(
    <>
      <section className="card space-y-3" aria-labelledby="entries-title">
        <div className="flex items-center justify-between">
          <h2 id="entries-title" className="text-base font-semibold">
            {m.express.listTitle}
            {entries.length > 0 ? <span className="ml-1 text-sm font-normal text-slate-500">({entries.length})</span> : null}
          </h2>
          <a href={marketHref({ sheet: "tip" })} className="inline-flex items-center gap-1 text-xs text-slate-500 hover:text-brand">
            <Icon name="info" className="h-3.5 w-3.5" />
            {m.express.tipButton}
          </a>
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
          {entries.length > 0 ? fill(m.express.statusTip, { count: entries.length }) : m.express.statusTipEmpty}
        </p>
        <form method="post">
          <input type="hidden" name="intent" value="open-checkout" />
          <button type="submit" className="btn-primary h-11 w-full text-[15px]">
            {m.express.confirm}
            {entries.length > 0 ? ` (${entries.length})` : ""}
          </button>
        </form>
      </section>
      <nav className="mt-3 flex items-center justify-center gap-6 pb-2 text-sm text-slate-600">
        <a href={marketHref({ sheet: "notice" })} className="inline-flex items-center gap-1 hover:text-brand">
          <Icon name="info" className="h-4 w-4" />
          {m.express.serviceNotice}
        </a>
        <a href={marketHref({ sheet: "contact" })} className="inline-flex items-center gap-1 hover:text-brand">
          <Icon name="service" className="h-4 w-4" />
          {m.express.contactService}
        </a>
      </nav>
    </>,
  );
}

function EntryRow({ entry }: { entry: PickupEntry }) {
  const credential = entry.pickupCode ?? entry.trackingNumber ?? "";
  return (
    <li className="flex items-stretch gap-2 rounded-xl border border-slate-100 bg-slate-50/60" data-testid="pickup-entry">
      <a
        href={marketHref({ sheet: "edit", entry: entry.id })}
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
          {entry.pickupCode && entry.trackingNumber ? (
            <span className="mt-0.5 block break-all font-mono text-[11px] text-slate-400">{entry.trackingNumber}</span>
          ) : null}
        </span>
        <Icon name="edit" className="h-4 w-4 shrink-0 text-slate-300" />
      </a>
      <form method="post" className="flex">
        <input type="hidden" name="intent" value="delete-entry" />
        <input type="hidden" name="entryId" value={entry.id} />
        <button type="submit" className="px-3 text-slate-500 hover:text-red-500" aria-label={`${m.express.delete} ${credential}`}>
          <Glyph name="trash" className="h-5 w-5" />
        </button>
      </form>
    </li>
  );
}

