import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, Outlet, useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmSheet } from "~/components/market/ConfirmSheet";
import { Toast } from "~/components/Toast";
import { SubscribeButton } from "~/components/market/SubscribeButton";
import type { MarketActionData } from "~/lib/market-views";
import { checkoutSheet } from "~/lib/messages/market-sheet-checkout";
import { useMarketData } from "../market._shell/route";
import { checkoutAction, checkoutLoader } from "./checkout.server";

// /market/checkout — the order-confirm sheet, up to the pay button, with the coupon detail dialog
// over it as a child route (/market/checkout/coupon). It holds the sheet's intents: open-checkout,
// count, remark, pay.
export async function loader({ request }: LoaderFunctionArgs) {
  return checkoutLoader(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return checkoutAction(request, context.clientIp);
}

export default function CheckoutSheet() {
  const data = useMarketData();
  const { subscribe, remarkConstraint } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  if (!data.checkout || !data.config) return null;
  const address = data.addresses.find((item) => item.id === data.selectedAddressId) ?? null;
  return (
    <>
      <ConfirmSheet
        checkout={data.checkout}
        packageTypes={data.config.packageTypes}
        address={address}
        summary={data.summary}
        coupon={data.coupon}
        estimate={data.estimate}
        remarkConstraint={remarkConstraint}
        remarkResult={actionData?.intent === "remark" ? actionData.result : undefined}
        subscribe={subscribe ? <SubscribeButton view={subscribe} /> : null}
      />
      {/* The coupon detail dialog (/market/checkout/coupon). */}
      <Outlet />
      {actionData?.liveOrder ? (
        // The parcel is already in a live order: say so where it stays, with the way to that order.
        <p role="alert" data-testid="live-order-error" className="fixed inset-x-4 top-24 z-[60] rounded-2xl bg-red-50 px-4 py-3 text-sm text-red-700 shadow-lg">
          {actionData.error}{" "}
          <Link to={`/express/orders/${actionData.liveOrder}`} className="font-medium underline">
            {checkoutSheet.viewLiveOrder}
          </Link>
        </p>
      ) : actionData?.error || actionData?.notice ? (
        <Toast text={(actionData.error || actionData.notice)!} tone={actionData.error ? "error" : "info"} stamp={actionData} />
      ) : null}
    </>
  );
}
