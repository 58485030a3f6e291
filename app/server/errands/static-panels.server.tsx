import { renderToStaticMarkup } from "react-dom/server";
import { FEATURE_INTROS, MARKET_TIPS } from "~/lib/content/market";
import { formatYuan } from "~/lib/catalog";
import type { StaticSheet } from "~/lib/market-url";
import { Icon } from "~/components/icons";
import { app } from "~/lib/messages/app";
import { customerService } from "~/lib/messages/customerService";
import { marketMessages as m } from "~/lib/messages/market-answers";
import {
  CUSTOMER_SERVICE_HOURS,
  PARCEL_SENDING_HOURS,
  PHONE_LINE_HOURS,
  PICKUP_HOURS,
  REPLY_WITHIN_MINUTES,
  SERVICE_PHONE,
  SERVICE_PHONE_HREF,
  fillTemplate,
  formatWindow,
} from "~/lib/service-hours";
import type { PackageTypeConfig } from "./market-config.server";

// The market's read-only panels (size guide, service notice, contact, order tips, the pay
// placeholder) are rendered here to static HTML and shown in the page's panel frame: they need
// no JavaScript, so their markup and texts stay out of the page's bundle.

export type StaticPanel = { title: string; closeTo: string; html: string };

/**
 * The frame of the market's server-rendered panels (as components/market/Panel.tsx draws a
 * dialog), links instead of scripts. The coupon panels use it too.
 */
export function ServerPanelFrame({
  title,
  closeTo,
  labelId = "static-panel-title",
  children,
}: {
  title: string;
  closeTo: string;
  labelId?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="fixed inset-0 z-40 !m-0 flex items-center justify-center bg-black/45 p-5">
      <a href={closeTo} className="absolute inset-0" aria-hidden="true" tabIndex={-1} data-replace="" />
      <section role="dialog" aria-modal="true" aria-labelledby={labelId} className="relative flex max-h-[85vh] w-full max-w-screen-sm flex-col rounded-3xl bg-white shadow-xl">
        <header className="flex items-center gap-2 px-5 pb-2 pt-3">
          <h2 id={labelId} className="flex-1 text-base font-semibold text-slate-900">
            {title}
          </h2>
          <a href={closeTo} aria-label={app.close} data-replace="" className="-mr-2 rounded-full p-2 text-slate-500 hover:bg-slate-100">
            <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={1.8} strokeLinecap="round" className="h-5 w-5" aria-hidden="true">
              <path d="M18 6L6 18M6 6l12 12" />
            </svg>
          </a>
        </header>
        <div className="flex-1 overflow-y-auto px-5 pb-5">{children}</div>
      </section>
    </div>
  );
}

export function renderStaticPanel(
  sheet: StaticSheet,
  options: { packageTypes: PackageTypeConfig[] | null; focus: string | null; base: string },
): StaticPanel | null {
  const closeTo = options.base;
  const panel = (title: string, body: React.ReactElement): StaticPanel => ({
    title,
    closeTo,
    html: renderToStaticMarkup(
      <ServerPanelFrame title={title} closeTo={closeTo}>
        {body}
      </ServerPanelFrame>,
    ),
  });
  switch (sheet) {
    case "size":
      if (!options.packageTypes) return null;
      return panel(m.sizeGuide.title, <SizeGuide types={options.packageTypes} focus={options.focus} />);
    case "notice":
      return panel(m.notice.title, <Notice />);
    case "contact":
      return panel(m.express.contactService, <Contact />);
    case "tip":
      return panel(m.panels.tipTitle, <Tips />);
    case "ordering":
      return panel(m.panels.placeholderTitle, <Ordering />);
    default:
      return null;
  }
}

function SizeGuide({ types, focus }: { types: PackageTypeConfig[]; focus: string | null }) {
  return (
    <ul className="space-y-3">
      {types.map((type) => (
        <li key={type.type} id={`size-${type.type}`} className={`rounded-2xl p-3 ring-1 ${focus === type.type ? "bg-brand-soft/40 ring-brand" : "ring-slate-200"}`}>
          <p className="flex items-baseline justify-between">
            <span className="font-semibold text-slate-900">{type.name}</span>
            <span className="text-sm text-red-600">{fillTemplate(m.sizeGuide.price, { price: formatYuan(type.priceFen) })}</span>
          </p>
          <p className="text-sm text-slate-500">{type.desc}</p>
          {type.standards.map((standard) => (
            <div key={standard.title} className="mt-2 rounded-xl bg-white/70 p-2 text-sm">
              <p className="font-medium text-slate-700">{standard.title}</p>
              <p className="text-xs text-slate-500">{standard.desc}</p>
              {standard.examples.length > 0 ? (
                <p className="mt-1 flex flex-wrap gap-1">
                  <span className="text-xs text-slate-500">{m.sizeGuide.examples}</span>
                  {standard.examples.map((example) => (
                    <span key={example} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">
                      {example}
                    </span>
                  ))}
                </p>
              ) : null}
            </div>
          ))}
        </li>
      ))}
    </ul>
  );
}

function Notice() {
  const rows = [
    [customerService.noticePickup, formatWindow(PICKUP_HOURS)],
    [customerService.noticeSending, formatWindow(PARCEL_SENDING_HOURS)],
    [customerService.noticeService, formatWindow(CUSTOMER_SERVICE_HOURS)],
    [customerService.noticePhone, formatWindow(PHONE_LINE_HOURS)],
    [customerService.noticeReply, fillTemplate(customerService.replyWithin, { minutes: REPLY_WITHIN_MINUTES })],
  ];
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="flex justify-between gap-3 py-2.5">
          <dt className="text-slate-500">{label}</dt>
          <dd className="text-right text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Contact() {
  return (
    <div className="space-y-3 text-sm">
      <a href={SERVICE_PHONE_HREF} className="flex items-center gap-3 rounded-2xl bg-slate-50 p-3">
        <span className="flex-1">
          <span className="block font-medium">{customerService.phone}</span>
          <span className="block text-slate-500">
            {SERVICE_PHONE.display} · {formatWindow(PHONE_LINE_HOURS)}
          </span>
        </span>
        <span className="text-brand">{customerService.call}</span>
      </a>
      <a href="/CustomerService" className="flex items-center gap-3 rounded-2xl bg-slate-50 p-3">
        <span className="flex-1">
          <span className="block font-medium">{customerService.qrTitle}</span>
          <span className="block text-slate-500">{formatWindow(CUSTOMER_SERVICE_HOURS)}</span>
        </span>
        <span className="text-slate-300">›</span>
      </a>
    </div>
  );
}

function Tips() {
  return (
    <ol className="list-decimal space-y-2 pl-5 text-sm leading-6 text-slate-700">
      {MARKET_TIPS.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ol>
  );
}

function Ordering() {
  return (
    <div className="space-y-4 py-2 text-center">
      <Icon name="clock" className="mx-auto h-12 w-12 text-brand" />
      <p className="text-sm leading-6 text-slate-600">{m.panels.placeholderBody}</p>
    </div>
  );
}

/**
 * The supermarket and errand tabs: an intro card and "I need this feature" (with JavaScript the
 * page sends it to the spec's JSON endpoint named in data-json; without, the form posts the page),
 * and the supermarket's order form, which is not open yet.
 */
export function renderFeatureTab(kind: "online" | "errand") {
  const copy = FEATURE_INTROS[kind];
  const f = m.feature;
  return renderToStaticMarkup(
    <div className="space-y-3">
      <section className="card space-y-3">
        <div className="flex items-center gap-3">
          <span className="flex h-12 w-12 items-center justify-center rounded-2xl bg-brand-soft text-brand" aria-hidden="true">
            <Icon name={kind === "online" ? "bag" : "sparkle"} className="h-6 w-6" />
          </span>
          <div>
            <h2 className="text-lg font-semibold">{copy.title}</h2>
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs text-amber-700">{f.comingSoon}</span>
          </div>
        </div>
        <p className="text-sm leading-6 text-slate-600">{copy.intro}</p>
        <ul className="space-y-1.5 text-sm text-slate-700">
          {copy.points.map((point) => (
            <li key={point} className="flex items-center gap-2">
              <Icon name="check" className="h-4 w-4 text-green-600" />
              {point}
            </li>
          ))}
        </ul>
        <form method="post" data-json="/api/feature-request">
          <input type="hidden" name="intent" value="feature-request" />
          <input type="hidden" name="featureType" value={kind} />
          <button type="submit" className="btn-primary h-11 w-full">
            {f.want}
          </button>
        </form>
      </section>
      {kind === "online" ? (
        <form method="post" className="card space-y-2">
          <input type="hidden" name="intent" value="supermarket-submit" />
          <h3 className="text-sm font-semibold">{f.submitOrder}</h3>
          <input name="address" type="text" placeholder={f.address} aria-label={f.address} autoComplete="street-address" className="field-input text-sm" />
          <input name="phone" type="tel" placeholder={f.phone} aria-label={f.phone} className="field-input text-sm" />
          <button type="submit" className="btn-ghost h-10 w-full">
            {f.submitOrder}
          </button>
        </form>
      ) : null}
    </div>,
  );
}
