import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { AssistDialog } from "~/components/market/deferred";
import { FeatureTab } from "~/components/market/FeatureTab";
import { Toast } from "~/components/Toast";
import type { MarketActionData } from "~/lib/market-views";
import { useMarketData } from "../market._shell/route";
import { pageAction } from "./page-actions.server";

// /market itself: the layout (market._shell) renders the page and the express tab; this route adds
// what only /market itself shows (the other tabs, the assist dialog of ?invite=…). The page's own
// intents are posted here (/market?index): recognize (the SMS text), add-entries (parcels read from
// screenshots by the page's script), the no-JS screenshot upload (multipart), delete-entry, and
// the other tabs' feature-request and supermarket-submit.
export async function action({ request, context }: ActionFunctionArgs) {
  return pageAction(request, context.clientIp);
}

export default function MarketIndex() {
  const data = useMarketData();
  // A plain form post (no JavaScript) lands here: its answer is the page's toast.
  const actionData = useActionData<typeof action>() as MarketActionData | undefined;
  return (
    <>
      {data.feature ? <FeatureTab feature={data.feature} /> : null}
      {!data.panel && data.assist ? <AssistDialog dialog={data.assist} constraint={data.constraints.assist} /> : null}
      {actionData?.error || actionData?.notice ? <Toast text={(actionData.error || actionData.notice)!} tone={actionData.error ? "error" : "info"} stamp={actionData} /> : null}
    </>
  );
}
