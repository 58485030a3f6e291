// /express/orders/:orderId/refund: the refund request intent (reason required); an operator
// approves it on /admin/refunds.
import { redirect } from "@remix-run/node";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { RefundIntentSchema } from "~/lib/schemas/orders";
import { orderStepRefusal } from "~/server/http/order-refusals";
import { requestRefund } from "~/server/orders/refunds.server";
import { failure, orderPath, readIntentForm, unexpected } from "../express.orders.$orderId/order-action.server";

const msg = { orders: ordersMessages };

export async function refundAction(request: Request, orderId: string | undefined) {
  const form = await readIntentForm(request, orderId, "refund", RefundIntentSchema);
  if (form instanceof Response) return form;
  const { user, order, value } = form;
  try {
    const result = await requestRefund(user.id, order.order_number, value.reason);
    if (!result.ok) {
      const refused = orderStepRefusal(msg.orders.failures.refund, result.reason);
      return failure("refund", refused.message, refused.status);
    }
    return redirect(`${orderPath(order)}?notice=refundRequested`);
  } catch (error) {
    return unexpected("refund", error, msg.orders.failures.refund);
  }
}
