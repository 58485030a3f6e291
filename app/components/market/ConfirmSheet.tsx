import { Form, Link, useFetcher, useFetchers, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { FieldError } from "~/components/FieldError";
import type { PackageTypeKey } from "~/lib/catalog";
import { formatYuan } from "~/lib/money";
import { CHECKOUT_ACTION } from "~/lib/market-links";
import { marketHref } from "~/lib/market-url";
import { fillTemplate } from "~/lib/template";
import { checkoutSheet } from "~/lib/messages/market-sheet-checkout";
import type { PackageCounts } from "~/lib/package-counts";
import { CouponRow, type CouponRowData } from "../coupons/CouponRow";
import { Icon } from "../icons";
import type { MarketActionData } from "~/lib/market-views";
import { formReply, type Constraints, type FormReply } from "./form-reply";
import { Glyph } from "./sheet-glyphs";
import { Panel } from "./Panel";
import { useFetcherToast } from "./toast-context";

const msg = { market: { checkout: checkoutSheet } };

const m = msg.market;

export type ConfirmProps = {
  checkout: { id: number; version: number; counts: PackageCounts; remark: string; entries: unknown[] };
  packageTypes: { type: PackageTypeKey; name: string; desc: string; priceFen: number }[];
  address: { name: string; phone: string; text: string } | null;
  summary: { parcels: number; originalFen: number; paidFen: number; priceVersion: string };
  /** The coupon row as the server quoted it (the coupon issue); null: no quote. */
  coupon?: CouponRowData | null;
  estimate: { time: string; dayOffset: number };
  /** The remark field's constraints, computed from the action's zod schema in the loader. */
  remarkConstraint?: Constraints;
  /** The remark form's reply when it was posted without JavaScript. */
  remarkResult?: FormReply;
};

/** The order-confirm sheet, up to the pay button (orders and payment are the next issue). */
export function ConfirmSheet({ checkout, packageTypes, address, summary, estimate, subscribe, coupon = null, remarkConstraint, remarkResult }: ConfirmProps & { subscribe?: ReactNode }) {
  const navigation = useNavigation();
  const countFetchers = useFetcherCount();
  const loading = navigation.state !== "idle" || countFetchers;
  return (
    <Panel
      title={m.checkout.title}
      closeTo={marketHref({})}
      labelId="confirm-title"
      footer={
        <Form method="post" action={CHECKOUT_ACTION} preventScrollReset className="flex items-center gap-3">
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="checkoutId" value={checkout.id} />
          <input type="hidden" name="version" value={checkout.version} />
          <input type="hidden" name="priceVersion" value={summary.priceVersion} />
          <div className="flex-1">
            <p className="text-sm text-slate-600">
              {m.checkout.paid}{" "}
              <Yuan fen={summary.paidFen} className="text-xl font-bold text-red-600" testId="paid-total" />
            </p>
            <p className="text-xs text-slate-500">
              {fillTemplate(m.checkout.parcels, { count: summary.parcels })} · {m.checkout.original}{" "}
              <Yuan fen={summary.originalFen} className={summary.originalFen !== summary.paidFen ? "line-through" : ""} testId="original-total" />
            </p>
          </div>
          <button type="submit" className="btn-primary h-11 min-w-[7.5rem] text-[15px]" disabled={summary.parcels === 0 || loading}>
            {navigation.state === "submitting" && navigation.formData?.get("intent") === "pay" ? m.checkout.paying : m.checkout.pay}
          </button>
        </Form>
      }
    >
      <div className="space-y-3">
        <Link
          to={marketHref({ sheet: "address" })}
          preventScrollReset
          className="flex items-center gap-3 rounded-2xl bg-slate-50 px-3 py-3 ring-1 ring-slate-100"
          data-testid="address-row"
        >
          <Icon name="map" className="h-6 w-6 shrink-0 text-brand" />
          {address ? (
            <span className="min-w-0 flex-1">
              <span className="block text-sm font-medium text-slate-900">
                {address.name} <span className="ml-1 font-normal text-slate-500">{address.phone}</span>
              </span>
              <span className="block truncate text-sm text-slate-600">{address.text}</span>
            </span>
          ) : (
            <span className="flex-1 text-sm text-slate-500">{m.checkout.addressChoose}</span>
          )}
          <Icon name="chevron" className="h-4 w-4 shrink-0 text-slate-300" />
        </Link>

        <p className="flex items-center gap-1.5 text-xs text-slate-500">
          <Icon name="clock" className="h-3.5 w-3.5" />
          {m.checkout.estimate} {estimate.dayOffset === 0 ? m.checkout.today : m.checkout.tomorrow} {estimate.time}
        </p>

        <section aria-labelledby="packages-title" className="rounded-2xl ring-1 ring-slate-100">
          <h3 id="packages-title" className="flex items-center justify-between px-3 pt-3 text-sm font-semibold">
            {m.checkout.packages}
            <Link to={marketHref({ sheet: "size", base: "/market/checkout" })} preventScrollReset className="text-xs font-normal text-brand">
              {m.checkout.sizeGuide}
            </Link>
          </h3>
          <ul className="divide-y divide-slate-100">
            {packageTypes.map((type) => (
              <StepperRow key={type.type} type={type} count={checkout.counts[type.type]} />
            ))}
          </ul>
        </section>

        <CouponRow coupon={coupon} label={m.checkout.coupon} fallback={m.checkout.couponNone} icon={<Glyph name="ticket" className="h-5 w-5 text-orange-500" />} />

        <details className="group rounded-2xl ring-1 ring-slate-100" open={checkout.remark ? true : undefined}>
          <summary className="flex cursor-pointer list-none items-center justify-between px-3 py-3 text-sm">
            <span className="flex items-center gap-2">
              <Glyph name="note" className="h-5 w-5 text-slate-500" />
              {checkout.remark ? m.checkout.remark : m.checkout.remarkAdd}
            </span>
            <span className="max-w-[55%] truncate text-slate-500 group-open:hidden">{checkout.remark}</span>
          </summary>
          <RemarkForm remark={checkout.remark} constraint={remarkConstraint} lastResult={remarkResult} />
        </details>
        {subscribe}
      </div>
    </Panel>
  );
}

// Any count fetcher in flight: the pay button waits for the price to settle.
function useFetcherCount() {
  return useFetchers().some((fetcher) => fetcher.state !== "idle" && fetcher.formData?.get("intent") === "count");
}

function StepperRow({ type, count }: { type: { type: PackageTypeKey; name: string; desc: string; priceFen: number }; count: number }) {
  const fetcher = useFetcher();
  useFetcherToast(fetcher);
  // Optimistic: while a tap is in flight, show the count it asked for.
  const pending = fetcher.formData;
  const shown = pending ? Math.max(0, count + (pending.get("direction") === "increase" ? 1 : -1)) : count;
  return (
    <li className="flex items-center gap-3 px-3 py-2.5" data-testid={`stepper-${type.type}`}>
      <Link to={marketHref({ sheet: "size", type: type.type, base: "/market/checkout" })} preventScrollReset className="min-w-0 flex-1">
        <span className="block text-sm font-medium text-slate-900">
          {type.name}
          <span className="ml-2 text-xs font-normal text-red-600">¥{formatYuan(type.priceFen)}</span>
        </span>
        <span className="block truncate text-xs text-slate-500">
          {type.desc} · {m.checkout.sizeGuide}
        </span>
      </Link>
      <fetcher.Form method="post" action={CHECKOUT_ACTION} className="flex items-center">
        <input type="hidden" name="intent" value="count" />
        <input type="hidden" name="type" value={type.type} />
        <CountButton direction="decrease" name={type.name} />
        <output className="w-9 text-center text-base font-semibold tabular-nums" aria-label={type.name}>
          {shown}
        </output>
        <CountButton direction="increase" name={type.name} />
      </fetcher.Form>
    </li>
  );
}

/** − or + beside a size's count: posts the direction; the label names the size. */
function CountButton({ direction, name }: { direction: "decrease" | "increase"; name: string }) {
  const up = direction === "increase";
  return (
    <button
      type="submit"
      name="direction"
      value={direction}
      className={`flex h-8 w-8 items-center justify-center rounded-full ${up ? "bg-brand text-white active:bg-brand-dark" : "border border-slate-200 text-slate-600 active:bg-slate-100"}`}
      aria-label={fillTemplate(m.checkout[direction], { name })}
    >
      <Glyph name={up ? "plus" : "minus"} className="h-4 w-4" />
    </button>
  );
}

function RemarkForm({ remark, constraint, lastResult }: { remark: string; constraint: ConfirmProps["remarkConstraint"]; lastResult?: FormReply }) {
  const fetcher = useFetcher<MarketActionData>();
  useFetcherToast(fetcher);
  const field = formReply("remark", (fetcher.data?.result as FormReply) ?? lastResult, constraint, { remark }).field("remark");
  return (
    <fetcher.Form method="post" action={CHECKOUT_ACTION} id="remark" noValidate className="space-y-2 px-3 pb-3">
      <input type="hidden" name="intent" value="remark" />
      <textarea {...field.props} key={field.value} defaultValue={field.value} rows={2} placeholder={m.checkout.remarkPlaceholder} aria-label={m.checkout.remark} className="field-input text-sm" />
      <FieldError field={field} />
      <button type="submit" className="btn-ghost px-3 py-1.5 text-xs" disabled={fetcher.state !== "idle"}>
        {m.checkout.remarkSave}
      </button>
    </fetcher.Form>
  );
}

export function Yuan({ fen, className = "", testId }: { fen: number; className?: string; testId?: string }) {
  return (
    <span className={className} data-testid={testId}>
      {formatYuan(fen, { style: "amount", symbol: true })}
    </span>
  );
}
