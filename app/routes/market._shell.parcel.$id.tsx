import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { EntryDialog } from "~/components/market/EntryDialog";
import { marketAction, parcelSheetLoader, type MarketActionData } from "~/server/errands/market-page.server";
import { useMarketData } from "./market._shell";

// /market/parcel/new and /market/parcel/:id — add a parcel by hand or edit one (pickup place of
// the campus, credential, company).
export async function loader({ request, params }: LoaderFunctionArgs) {
  return json(await parcelSheetLoader(request, params.id === "new" ? undefined : params.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  return marketAction(request, context.clientIp);
}

export default function ParcelSheet() {
  const { entry } = useLoaderData<typeof loader>();
  const market = useMarketData();
  const actionData = useActionData<MarketActionData>();
  return <EntryDialog key={entry?.id ?? "new"} entry={entry} places={market.config?.pickupPlaces ?? []} error={actionData?.entryError} />;
}
