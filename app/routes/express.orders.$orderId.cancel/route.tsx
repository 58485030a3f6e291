// /express/orders/:orderId/cancel — the cancel dialog over the order (optional reason). Unpaid:
// the order is cancelled; paid or assigned: a refund starts at once.
import type { ActionFunctionArgs } from "@remix-run/node";
import { CancelDialog } from "~/components/orders/CancelDialog";
import { useDialogError, useOrderData } from "~/components/orders/order-data";
import { cancelAction } from "../express.orders.$orderId/order-action.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return cancelAction(request, params.orderId);
}

export default function CancelRoute() {
  const data = useOrderData();
  const refused = useDialogError("cancel");
  if (!data || !data.order.view.actions.includes("cancel")) return null;
  return <CancelDialog path={data.path} error={refused?.error} paid={data.order.payment_status === "paid"} />;
}
