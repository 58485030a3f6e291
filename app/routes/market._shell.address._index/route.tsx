import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AddressPicker } from "~/components/market/AddressPanels";
import { Toast } from "~/components/Toast";
import type { MarketActionData } from "~/lib/market-views";
import { useMarketData } from "../market._shell/route";
import { addressPickerAction, addressPickerLoader } from "./address-picker.server";

// /market/address — the address picker (choose, set default, delete; add and edit lead on). It
// holds the select-address, default-address and delete-address intents.
export async function loader({ request }: LoaderFunctionArgs) {
  return addressPickerLoader(request);
}

export async function action({ request }: ActionFunctionArgs) {
  return addressPickerAction(request);
}

export default function AddressSheet() {
  const data = useMarketData();
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  return (
    <>
      <AddressPicker addresses={data.addresses} selectedId={data.selectedAddressId} lastResult={actionData?.intent === "select-address" ? actionData.result : undefined} />
      {actionData?.error || actionData?.notice ? <Toast text={(actionData.error || actionData.notice)!} tone={actionData.error ? "error" : "info"} stamp={actionData} /> : null}
    </>
  );
}
