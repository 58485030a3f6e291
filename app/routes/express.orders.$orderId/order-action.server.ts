// What the order page and its dialog routes share when they answer a form: the refusal's shape,
// the 404 for an order that is not the student's, reading the intent's form, and the dialogs'
// three steps (cancel, refund, review), which differ only in their form and their domain call.
// The domain is app/server/orders, whose transitions all go through transitions.server.
import { redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { isInvalidOrderParam } from "~/lib/orders";
import { CancelIntentSchema, RefundIntentSchema, ReviewIntentSchema } from "~/lib/schemas/orders";
import { type User } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { cancelOrder } from "~/server/orders/cancel.server";
import { findOwnOrder, reviewOrder, type ActionResult } from "~/server/orders/orders.server";
import { requestRefund } from "~/server/orders/refunds.server";
import { orderStepRefusal } from "~/server/http/order-refusals";
import type { OrderRow } from "~/server/orders/events.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { orders: ordersMessages };

/** An action's refusal: the intent whose form was refused, its message and the field it is about. */
export type OrderActionData = { intent: string; error?: string; field?: string };

export function failure(intent: string, error: string, status: number, field?: string) {
  return Response.json({ intent, error, field } satisfies OrderActionData, { status });
}

export function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

/** Where every answer of the order's forms lands. */
export function orderPath(order: Pick<OrderRow, "order_number">) {
  return `/express/orders/${order.order_number}`;
}

type IntentForm<S extends z.ZodType> = { user: User; order: OrderRow; value: z.output<S> };

/**
 * The student, their order and the intent's validated form, or the refusal to answer: the first
 * field error (a form posted to a route that does not hold its intent is not allowed).
 */
export async function readIntentForm<S extends z.ZodType>(
  request: Request,
  orderId: string | undefined,
  intent: string,
  schema: S,
): Promise<IntentForm<S> | Response> {
  const user = await requireStudent(request);
  if (isInvalidOrderParam(orderId)) return failure("", msg.orders.failures.invalidId, 400);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    const [field, messages] = Object.entries(submission.error ?? {}).find(([, list]) => list && list.length > 0) ?? ["", null];
    if (field === "intent") return failure(String(formData.get("intent") ?? ""), msg.orders.failures.notAllowed, 400);
    return failure(intent, messages?.[0] ?? msg.orders.failures.notAllowed, 400, field);
  }
  const order = await findOwnOrder(user.id, orderId!);
  if (!order) notFound();
  return { user, order, value: submission.value as z.output<S> };
}

/** An unexpected error of an intent: logged, and the intent's own message. */
export function unexpected(intent: string, error: unknown, message: string) {
  if (error instanceof Response) throw error;
  log("error", "order-action", { intent, error: String(error) });
  return failure(intent, message, 500);
}

/**
 * A dialog's step: its validated form, the domain's answer, then the order page with the step's
 * notice (?notice=cancelled, cancelRefund, refundRequested, reviewed), or the refusal beside the form.
 */
function orderStep<S extends z.ZodType>(
  intent: "cancel" | "refund" | "review",
  schema: S,
  run: (userId: number, orderNumber: string, value: z.output<S>) => Promise<ActionResult>,
) {
  return async (request: Request, orderId: string | undefined) => {
    const form = await readIntentForm(request, orderId, intent, schema);
    if (form instanceof Response) return form;
    const { user, order, value } = form;
    try {
      const result = await run(user.id, order.order_number, value);
      if (!result.ok) {
        const refused = orderStepRefusal(msg.orders.failures[intent], result.reason);
        return failure(intent, refused.message, refused.status);
      }
      return redirect(`${orderPath(order)}?notice=${result.done}`);
    } catch (error) {
      return unexpected(intent, error, msg.orders.failures[intent]);
    }
  };
}

/** Unpaid: cancelled; paid or assigned: a refund starts at once (through the transitions). */
export const cancelAction = orderStep("cancel", CancelIntentSchema, (userId, number, value) => cancelOrder(userId, number, value.reason));
/** A refund request (reason required); an operator approves it on /admin/refunds. */
export const refundAction = orderStep("refund", RefundIntentSchema, (userId, number, value) => requestRefund(userId, number, value.reason));
/** A completed order's review: 1–5 stars (default 5) and an optional comment. */
export const reviewAction = orderStep("review", ReviewIntentSchema, (userId, number, value) =>
  reviewOrder(userId, number, { rating: value.rating, comment: value.comment }),
);
