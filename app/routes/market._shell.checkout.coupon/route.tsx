import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CouponPanel } from "~/components/market/CouponPanel";
import { checkoutQuote, couponPanel, CHECKOUT_PATH } from "~/server/coupons/market-parts.server";
import { requireCheckout } from "../market._shell/guards.server";

// /market/checkout/coupon — the coupon detail dialog over the order-confirm sheet (a rare dialog:
// its own route, so its code loads only when it opens). The choice posts to /market/coupon-choice.

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, config, checkout } = await requireCheckout(request);
  const quote = await checkoutQuote(user, config.packageTypes, checkout.counts);
  if (!quote) throw redirect(CHECKOUT_PATH);
  return { panel: couponPanel(quote) };
}

export default function CouponDialog() {
  const { panel } = useLoaderData<typeof loader>();
  return <CouponPanel panel={panel} />;
}
