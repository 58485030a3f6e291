// /express/orders/:orderId/review — the review dialog of a completed order: 1–5 stars (default 5,
// from '非常不满意' to '非常满意') and an optional comment.
import type { ActionFunctionArgs } from "@remix-run/node";
import { ReviewDialog } from "~/components/orders/ReviewDialog";
import { useDialogError, useOrderData } from "~/components/orders/order-data";
import { reviewAction } from "../express.orders.$orderId/order-action.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return reviewAction(request, params.orderId);
}

export default function ReviewRoute() {
  const data = useOrderData();
  const refused = useDialogError("review");
  if (!data || !data.order.view.actions.includes("review")) return null;
  return <ReviewDialog path={data.path} error={refused?.error} />;
}
