// /market/checkout/coupon's data: the coupon detail dialog of the user's checkout (back to the
// sheet when there is no quote).
import { redirect } from "@remix-run/node";
import { checkoutQuote, couponPanel, CHECKOUT_PATH } from "../market._shell/coupon-parts.server";
import { requireCheckout } from "../market._shell/guards.server";

export async function couponDialogLoader(request: Request) {
  const { user, config, checkout } = await requireCheckout(request);
  const quote = await checkoutQuote(user, config.packageTypes, checkout.counts);
  if (!quote) throw redirect(CHECKOUT_PATH);
  return { panel: couponPanel(quote) };
}
