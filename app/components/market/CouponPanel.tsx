import { Form } from "@remix-run/react";
import type { CouponPanelView } from "~/lib/market-views";
import { Panel } from "./Panel";

const TONES = { plain: "text-slate-700", discount: "text-red-600", final: "text-base font-semibold text-slate-900" } as const;

/** The coupon detail dialog over the order-confirm sheet: totals, where the coupon goes, and the choice of coupon. */
export function CouponPanel({ panel }: { panel: CouponPanelView }) {
  return (
    <Panel title={panel.title} closeTo={panel.closeTo} labelId="coupon-dialog-title" variant="dialog">
      <div className="space-y-4 text-sm">
        <dl className="space-y-1.5 rounded-2xl bg-slate-50 px-4 py-3" data-testid="coupon-totals">
          {panel.totals.map((row) => (
            <div key={row.term} className="flex items-center justify-between">
              <dt className="text-slate-500">{row.term}</dt>
              <dd className={`tabular-nums ${TONES[row.tone]}`}>{row.value}</dd>
            </div>
          ))}
        </dl>

        {panel.usage ? (
          <section>
            <h3 className="mb-1.5 flex items-baseline justify-between font-semibold text-slate-800">
              {panel.usage.title}
              {panel.usage.best ? <span className="text-xs font-normal text-slate-500">{panel.usage.best}</span> : null}
            </h3>
            <p className="flex items-center justify-between rounded-xl bg-orange-50 px-3 py-2 text-orange-800">
              <span>{panel.usage.text}</span>
              <span className="font-semibold">{panel.usage.amount}</span>
            </p>
          </section>
        ) : null}

        <section>
          <h3 className="mb-1.5 font-semibold text-slate-800">{panel.parcelsTitle}</h3>
          <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-100" data-testid="coupon-parcels">
            {panel.parcels.map((item, index) => (
              <li key={index} className="flex items-center justify-between px-3 py-2">
                <span className="text-slate-700">
                  {item.name}
                  {item.couponName ? <span className="ml-1.5 rounded bg-orange-100 px-1 text-[11px] text-orange-700">{item.couponName}</span> : null}
                </span>
                <span className="tabular-nums">
                  {item.original ? <span className="mr-1.5 text-xs text-slate-500 line-through">{item.original}</span> : null}
                  {item.final}
                </span>
              </li>
            ))}
          </ul>
        </section>

        <section>
          <h3 className="mb-1.5 font-semibold text-slate-800">{panel.chooseTitle}</h3>
          {panel.options.length === 0 ? (
            <p className="rounded-xl bg-slate-50 px-3 py-4 text-center text-slate-500">{panel.empty}</p>
          ) : (
            <ul className="space-y-2">
              {panel.options.map((option) => (
                <li key={option.id} className={`flex items-center gap-3 rounded-xl px-3 py-2 ring-1 ${option.current ? "bg-orange-50 ring-orange-200" : "ring-slate-100"}`}>
                  <span className="min-w-0 flex-1">
                    <span className="block font-medium text-slate-800">{option.name}</span>
                    <span className="block text-xs text-slate-500">{option.detail}</span>
                    <span className="block text-xs text-slate-500" data-testid="coupon-expiry">
                      {option.expiry}
                      {option.soon ? <span className="ml-1.5 rounded bg-red-50 px-1 text-[11px] text-red-600">{option.soon}</span> : null}
                    </span>
                  </span>
                  {option.current ? (
                    <span className="text-xs font-medium text-orange-700">{panel.labels.inUse}</span>
                  ) : option.usable ? (
                    <ChoiceForm action={panel.choiceAction} choice={String(option.id)} label={panel.labels.use} />
                  ) : null}
                </li>
              ))}
              {panel.reset ? (
                <li className="flex justify-end">
                  <ChoiceForm action={panel.choiceAction} choice={panel.reset.choice} label={panel.reset.label} ghost />
                </li>
              ) : null}
            </ul>
          )}
          <p className="mt-2 text-xs text-slate-500">{panel.rule}</p>
        </section>
      </div>
    </Panel>
  );
}

function ChoiceForm({ action, choice, label, ghost = false }: { action: string; choice: string; label: string; ghost?: boolean }) {
  return (
    <Form method="post" action={action} preventScrollReset replace>
      <input type="hidden" name="choice" value={choice} />
      <button type="submit" className={ghost ? "text-xs text-slate-500 underline" : "rounded-full bg-orange-700 px-3 py-1 text-xs font-medium text-white"}>
        {label}
      </button>
    </Form>
  );
}
