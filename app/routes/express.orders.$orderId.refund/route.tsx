// /express/orders/:orderId/refund — the refund request dialog (reason required: '请输入退款原因');
// it also offers contacting service. An operator approves the refund.
import type { ActionFunctionArgs } from "@remix-run/node";
import { RefundDialog } from "~/components/orders/RefundDialog";
import { useDialogError, useOrderData } from "~/components/orders/order-data";
import { refundAction } from "../express.orders.$orderId/order-action.server";

export async function action({ request, params }: ActionFunctionArgs) {
  return refundAction(request, params.orderId);
}

export default function RefundRoute() {
  const data = useOrderData();
  const refused = useDialogError("refund");
  if (!data || !data.order.view.actions.includes("refund")) return null;
  return (
    <RefundDialog
      path={data.path}
      error={refused && refused.field !== "reason" ? refused.error : null}
      fieldError={refused?.field === "reason" ? refused.error : null}
    />
  );
}
