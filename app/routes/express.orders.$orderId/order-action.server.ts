// What the order page and its dialog routes share when they answer a form: the refusal's shape,
// the 404 for an order that is not the student's, and reading the intent's form. Each route holds
// its own intent (pay here, cancel/refund/review on the dialogs) and calls the domain in
// app/server/orders, whose transitions all go through transitions.server.
import { parseWithZod } from "@conform-to/zod/v4";
import type * as z from "zod";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { isInvalidOrderParam } from "~/lib/orders";
import { type User } from "~/server/auth/session.server";
import { log } from "~/server/log.server";
import { findOwnOrder } from "~/server/orders/orders.server";
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
