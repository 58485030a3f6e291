import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AddressPicker } from "~/components/market/AddressPanels";
import { Toast } from "~/components/market/toast-context";
import { marketAction, requireCheckout, type MarketActionData } from "~/server/errands/market-page.server";
import { useMarketData } from "./market._shell";

// /market/address — the address picker (choose, set default, delete; add and edit lead on).
export async function loader({ request }: LoaderFunctionArgs) {
  await requireCheckout(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  return marketAction(request, context.clientIp);
}

export default function AddressSheet() {
  const data = useMarketData();
  const actionData = useActionData<MarketActionData>();
  return (
    <>
      <AddressPicker addresses={data.addresses} selectedId={data.selectedAddressId} />
      <Toast message={actionData?.error ?? actionData?.notice} tone={actionData?.error ? "error" : "info"} stamp={actionData} />
    </>
  );
}
