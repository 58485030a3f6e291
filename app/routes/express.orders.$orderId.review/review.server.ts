// /express/orders/:orderId/review: the review intent of a completed order (1–5 stars, default 5,
// an optional comment).
import { redirect } from "@remix-run/node";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { ReviewIntentSchema } from "~/lib/schemas/orders";
import { orderStepRefusal } from "~/server/http/order-refusals";
import { reviewOrder } from "~/server/orders/orders.server";
import { failure, orderPath, readIntentForm, unexpected } from "../express.orders.$orderId/order-action.server";

const msg = { orders: ordersMessages };

export async function reviewAction(request: Request, orderId: string | undefined) {
  const form = await readIntentForm(request, orderId, "review", ReviewIntentSchema);
  if (form instanceof Response) return form;
  const { user, order, value } = form;
  try {
    const result = await reviewOrder(user.id, order.order_number, { rating: value.rating, comment: value.comment });
    if (!result.ok) {
      const refused = orderStepRefusal(msg.orders.failures.review, result.reason);
      return failure("review", refused.message, refused.status);
    }
    return redirect(`${orderPath(order)}?notice=reviewed`);
  } catch (error) {
    return unexpected("review", error, msg.orders.failures.review);
  }
}
