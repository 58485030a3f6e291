import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { AddressForm } from "~/components/market/AddressPanels";
import { addressFormLoader, marketAction, type MarketActionData } from "~/server/errands/market-page.server";
import { useMarketData } from "./market._shell";

// /market/address/new and /market/address/:id — the address form (spec section 5).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await addressFormLoader(request, params.id === "new" ? undefined : params.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return marketAction(request, context.clientIp);
}

export default function AddressFormSheet() {
  const { address, campuses } = useLoaderData<typeof loader>();
  const market = useMarketData();
  const actionData = useActionData<MarketActionData>();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <AddressForm
      key={address?.id ?? "new"}
      address={address ? { ...address, text: "" } : null}
      campuses={campuses}
      lastResult={actionData?.result}
      hydrated={hydrated}
      defaultCampus={market.config?.campusCode ?? null}
    />
  );
}
