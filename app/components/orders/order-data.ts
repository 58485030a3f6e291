// The order's data for its dialog routes (children of /express/orders/:orderId): the parent's
// loader data, or null when the order page shows an error instead.
import { useActionData, useRouteLoaderData } from "@remix-run/react";
import type { OrderActionData } from "~/routes/express.orders.$orderId/order-action.server";
import type { orderPageLoader } from "~/routes/express.orders.$orderId/order-page.server";

export const ORDER_ROUTE_ID = "routes/express.orders.$orderId";

type Loaded = Exclude<Awaited<ReturnType<typeof orderPageLoader>>, Response>;

export function useOrderData() {
  const data = useRouteLoaderData(ORDER_ROUTE_ID) as Loaded | { kind: "invalid" | "error" } | undefined;
  return data && data.kind === "ok" ? (data as Loaded) : null;
}

/** The dialog action's refusal, when this dialog's form was the one refused. */
export function useDialogError(intent: string) {
  const answer = useActionData() as OrderActionData | undefined;
  return answer?.intent === intent ? answer : undefined;
}
