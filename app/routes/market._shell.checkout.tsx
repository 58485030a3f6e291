import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ConfirmSheet } from "~/components/market/ConfirmSheet";
import { SubscribeWidget } from "~/components/notify/SubscribeWidget";
import { Toast } from "~/components/market/toast-context";
import { checkoutSheetLoader, marketAction, type MarketActionData } from "~/server/errands/market-page.server";
import { useMarketData } from "./market._shell";

// /market/checkout — the order-confirm sheet, up to the pay button.
export async function loader({ request }: LoaderFunctionArgs) {
  return checkoutSheetLoader(request);
}

export async function action({ request, context }: ActionFunctionArgs) {
  return marketAction(request, context.clientIp);
}

export default function CheckoutSheet() {
  const data = useMarketData();
  const { subscribe } = useLoaderData<typeof loader>();
  const actionData = useActionData<MarketActionData>();
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
        subscribe={subscribe ? <SubscribeWidget state={subscribe} mode="button" /> : null}
      />
      <Toast message={actionData?.error ?? actionData?.notice} tone={actionData?.error ? "error" : "info"} stamp={actionData} />
    </>
  );
}
