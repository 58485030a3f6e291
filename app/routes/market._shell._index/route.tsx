import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { Toast } from "~/components/market/toast-context";
import type { MarketActionData } from "~/lib/market-views";
import { pageAction } from "./page-actions.server";

// /market itself: the layout (market._shell) renders the page; no panel is open. The page's own
// intents are posted here (/market?index): recognize (the SMS text), add-entries (parcels read from
// screenshots by the page's script), the no-JS screenshot upload (multipart), delete-entry, and
// the other tabs' feature-request and supermarket-submit.
export async function action({ request, context }: ActionFunctionArgs) {
  return pageAction(request, context.clientIp);
}

export default function MarketIndex() {
  // A plain form post (no JavaScript) lands here: its answer is the page's toast.
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  return <Toast message={actionData?.error ?? actionData?.notice} tone={actionData?.error ? "error" : "info"} stamp={actionData} />;
}
