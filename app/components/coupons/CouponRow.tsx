import { Link } from "@remix-run/react";

export type CouponRowData = { href: string; text: string; discounted: boolean };

/**
 * The order-confirm sheet's coupon row: the coupon used and its discount (or why none), as the
 * server quoted it; a tap opens the coupon detail dialog. Texts come from the loader.
 */
export function CouponRow({ coupon, label, fallback, icon }: { coupon: CouponRowData | null; label: string; fallback: string; icon?: React.ReactNode }) {
  const body = (
    <>
      <span className="flex items-center gap-2 text-sm">
        {icon}
        {label}
      </span>
      <span className={`text-sm ${coupon?.discounted ? "font-medium text-red-600" : "text-slate-500"}`} data-testid="coupon-row-text">
        {coupon?.text ?? fallback}
        {coupon ? <span aria-hidden="true"> ›</span> : null}
      </span>
    </>
  );
  if (!coupon) return <div className="flex items-center justify-between rounded-2xl px-3 py-3 ring-1 ring-slate-100">{body}</div>;
  return (
    <Link to={coupon.href} preventScrollReset className="flex items-center justify-between rounded-2xl px-3 py-3 ring-1 ring-slate-100" data-testid="coupon-row">
      {body}
    </Link>
  );
}
