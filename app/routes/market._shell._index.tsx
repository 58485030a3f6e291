import type { ActionFunctionArgs } from "@remix-run/node";
import { marketAction } from "~/server/errands/market-page.server";

// /market itself: the layout (market._shell) renders the page; no panel is open. Posts to
// /market?index land here and are the page's actions like any other.
export async function action({ request, context }: ActionFunctionArgs) {
  return marketAction(request, context.clientIp);
}

export default function MarketIndex() {
  return null;
}
