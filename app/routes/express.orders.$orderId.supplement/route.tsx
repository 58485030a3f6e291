// /express/orders/:orderId/supplement — the student's answer to a size found wrong at pickup
// (decision 047): 补差价 (accept: the supplement's own trade with the pay provider) or 不补，
// 包裹留在驿站 (decline: the parcel is refunded). Plain form posts from the order page, with or
// without JavaScript; every answer lands back on the order page (a refusal as a key the page words).
// The page's JavaScript asks for JSON when accepting: the supplement's pay parameters for the
// messenger's pay bridge (a real merchant), and where the page goes once the bridge is done.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import * as z from "zod";
import { acceptSupplement, declineSupplement } from "~/server/orders/supplements.server";
import { orderPath, readIntentForm } from "../express.orders.$orderId/order-action.server";

const SupplementSchema = z.object({ intent: z.enum(["supplement-accept", "supplement-decline"]) });

const REFUSALS = {
  not_found: "gone",
  not_allowed: "gone",
  no_provider: "unavailable",
  open_in_messenger: "messenger",
  busy: "busy",
  failed: "failed",
} as const;

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readIntentForm(request, params.orderId, "supplement", SupplementSchema);
  if (form instanceof Response) return form;
  const { user, order, value } = form;
  const back = (key: string) => redirect(`${orderPath(order)}?supplement=${key}`);
  if (value.intent === "supplement-decline") {
    const result = await declineSupplement(user, order.order_number);
    if (!result.ok) return back(result.reason === "paid" ? "paid" : REFUSALS[result.reason]);
    return back("declined");
  }
  const result = await acceptSupplement(user, order.order_number);
  const key = !result.ok ? (result.reason === "paid" ? "paid" : REFUSALS[result.reason]) : result.simulated ? "paying" : "bridge";
  if ((request.headers.get("Accept") ?? "").includes("application/json")) {
    // The bridge pays; the page then reloads as paying and its loader asks the provider.
    const to = `${orderPath(order)}?supplement=${result.ok ? "paying" : key}`;
    return Response.json(result.ok ? { payParams: result.payParams, simulated: result.simulated === true, to } : { to }, { status: result.ok ? 200 : 409 });
  }
  // Without JavaScript only the simulated provider can pay (it pays by itself); the page reloads
  // a few times and its loader asks the provider.
  return back(key);
}
