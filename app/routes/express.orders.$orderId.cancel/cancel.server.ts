// /express/orders/:orderId/cancel: the cancel intent (optional reason). Unpaid: the order is
// cancelled; paid or assigned: a refund starts at once (cancel.server, through the transitions).
import { redirect } from "@remix-run/node";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { CancelIntentSchema } from "~/lib/schemas/orders";
import { orderStepRefusal } from "~/server/http/order-refusals";
import { cancelOrder } from "~/server/orders/cancel.server";
import { failure, orderPath, readIntentForm, unexpected } from "../express.orders.$orderId/order-action.server";

const msg = { orders: ordersMessages };

export async function cancelAction(request: Request, orderId: string | undefined) {
  const form = await readIntentForm(request, orderId, "cancel", CancelIntentSchema);
  if (form instanceof Response) return form;
  const { user, order, value } = form;
  try {
    const result = await cancelOrder(user.id, order.order_number, value.reason);
    if (!result.ok) {
      const refused = orderStepRefusal(msg.orders.failures.cancel, result.reason);
      return failure("cancel", refused.message, refused.status);
    }
    return redirect(`${orderPath(order)}?notice=${result.done}`);
  } catch (error) {
    return unexpected("cancel", error, msg.orders.failures.cancel);
  }
}
