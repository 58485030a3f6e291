import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useHydrated } from "~/components/Page";
import { AddressForm } from "~/components/market/AddressForm";
import type { MarketActionData } from "~/lib/market-views";
import { useMarketData } from "../market._shell/route";
import { addressFormLoader, saveAddressAction } from "./save-address.server";

// /market/address/new and /market/address/:id — the address form (docs/product-rules.md, "Validation"). It holds the
// save-address intent.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return addressFormLoader(request, params.id === "new" ? undefined : params.id);
}

export async function action({ request }: ActionFunctionArgs) {
  return saveAddressAction(request);
}

export default function AddressFormSheet() {
  const { address, campuses, constraint } = useLoaderData<typeof loader>();
  const market = useMarketData();
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  const hydrated = useHydrated();
  return (
    <AddressForm
      key={address?.id ?? "new"}
      address={address}
      campuses={campuses}
      lastResult={actionData?.result}
      constraint={constraint}
      hydrated={hydrated}
      defaultCampus={market.config?.campusCode ?? null}
    />
  );
}
