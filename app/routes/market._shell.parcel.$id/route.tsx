import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EntryDialog } from "~/components/market/EntryDialog";
import type { MarketActionData } from "~/lib/market-views";
import { useMarketData } from "../market._shell/route";
import { parcelLoader, saveEntryAction } from "./save-entry.server";

// /market/parcel/new and /market/parcel/:id — add a parcel by hand or edit one (pickup place of
// the campus, credential, company). It holds the save-entry intent.
export async function loader({ request, params }: LoaderFunctionArgs) {
  return parcelLoader(request, params.id === "new" ? undefined : params.id);
}

export async function action({ request }: ActionFunctionArgs) {
  return saveEntryAction(request);
}

export default function ParcelSheet() {
  const { entry, askConsent, constraint } = useLoaderData<typeof loader>();
  const market = useMarketData();
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  return <EntryDialog key={entry?.id ?? "new"} entry={entry} places={market.config?.pickupPlaces ?? []} askConsent={askConsent} lastResult={actionData?.result} constraint={constraint} />;
}
