import type { MetaFunction } from "@remix-run/node";
import type { ReactNode } from "react";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { faq, versionNote } from "~/lib/content/customer-service";
import { app as appMessages } from "~/lib/messages/app";
import { customerService as customerServiceMessages } from "~/lib/messages/customerService";
import { titles as titlesMessages } from "~/lib/messages/titles";
import {
  SERVICE_PHONE,
  SERVICE_PHONE_HREF,
  faqHoursNote,
  fillFaq,
  mentionsServiceHours,
  phoneHoursLine,
  serviceNotice,
} from "~/lib/service-hours";
import type { RouteHandle } from "~/root";

const msg = { app: appMessages, customerService: customerServiceMessages, titles: titlesMessages };

// Open to anyone (see app/lib/access.ts): no loader, everything here is static.

/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export const meta: MetaFunction = () => [{ title: `${msg.titles.customerService} · ${msg.app.name}` }];

const cs = msg.customerService;

export default function CustomerService() {
  return (
    <Page title={msg.titles.customerService} back="/backpack">
      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand to-brand-dark p-4 text-white shadow-sm">
        <p className="text-lg font-semibold">{cs.heroTitle}</p>
        <p className="mt-1 text-sm leading-6 text-white/85">{cs.heroHint}</p>
        <Icon name="service" className="pointer-events-none absolute -bottom-3 -right-2 h-20 w-20 text-white/10" />
      </section>

      <div className="grid grid-cols-2 gap-3">
        <QrCard title={cs.qrTitle} hint={cs.qrHint} src="/assets/qr-customer-service.svg" alt={cs.qrAlt} />
        <QrCard title={cs.groupTitle} hint={cs.groupHint} src="/assets/qr-pickup-group.svg" alt={cs.groupAlt} />
      </div>

      <section aria-labelledby="phone-title" className="card flex items-center gap-3">
        <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Icon name="phone" className="h-5 w-5" />
        </span>
        <div className="min-w-0 flex-1">
          <h2 id="phone-title" className="text-xs text-slate-500">
            {cs.phone}
          </h2>
          <p className="text-lg font-semibold tracking-wide text-slate-900">{SERVICE_PHONE.display}</p>
          <p className="text-xs text-slate-500">{phoneHoursLine()}</p>
        </div>
        <a href={SERVICE_PHONE_HREF} className="btn-primary shrink-0" aria-label={`${cs.call} ${SERVICE_PHONE.display}`}>
          {cs.call}
        </a>
      </section>

      <TitledCard id="notice-title" icon="clock" title={cs.notice}>
        <dl className="mt-2 divide-y divide-slate-100">
          {serviceNotice().map((row) => (
            <div key={row.key} className="flex items-center justify-between gap-3 py-2.5 text-sm">
              <dt className="text-slate-500">{row.label}</dt>
              <dd className="text-right font-medium text-slate-800">{row.value}</dd>
            </div>
          ))}
        </dl>
      </TitledCard>

      <TitledCard id="faq-title" icon="info" title={cs.faq}>
        {/* details/summary: opens and closes without JavaScript. */}
        <div className="mt-1 divide-y divide-slate-100">
          {faq.map((item) => (
            <details key={item.q} className="group">
              <summary className="flex cursor-pointer list-none items-center gap-2 py-3 text-[15px] font-medium text-slate-800 [&::-webkit-details-marker]:hidden">
                <span className="flex-1">{item.q}</span>
                <Icon name="chevron" className="h-4 w-4 shrink-0 text-slate-500 transition-transform group-open:rotate-90" />
              </summary>
              <div className="space-y-2 pb-3 text-sm leading-6 text-slate-600">
                <p>{fillFaq(item.a)}</p>
                {mentionsServiceHours(item.a) ? (
                  <p className="rounded-lg bg-amber-50 px-2.5 py-1.5 text-xs leading-5 text-amber-700">{faqHoursNote()}</p>
                ) : null}
              </div>
            </details>
          ))}
        </div>
      </TitledCard>

      <TitledCard
        id="version-title"
        icon="tag"
        title={
          <>
            {cs.version}
            <span className="ml-auto rounded-full bg-slate-100 px-2 py-0.5 text-xs font-normal text-slate-500">{msg.app.version}</span>
          </>
        }
      >
        <p className="mt-2 text-sm leading-6 text-slate-600">{versionNote}</p>
      </TitledCard>
    </Page>
  );
}

function QrCard({ title, hint, src, alt }: { title: string; hint: string; src: string; alt: string }) {
  return (
    <section className="card flex flex-col items-center gap-2 p-3 text-center">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      <img src={src} alt={alt} width={128} height={128} className="h-32 w-32 rounded-lg border border-slate-100" />
      <p className="text-xs leading-5 text-slate-500">{hint}</p>
    </section>
  );
}

/** A card under a heading with its icon; the heading names the section. */
function TitledCard({ id, icon, title, children }: { id: string; icon: "clock" | "info" | "tag"; title: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id} className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <Icon name={icon} className="h-[18px] w-[18px] text-brand" />
        {title}
      </h2>
      {children}
    </section>
  );
}
