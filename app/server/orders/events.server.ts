// The order's audit trail and its notifications. Every status change writes an order_events row
// and, for the statuses customers hear about, calls the notifications issue's one entry point in
// the same transaction (so the change and its messages commit together, and a repeated change —
// a repeated pay notification — queues nothing twice).
import { orderAddress } from "~/lib/address";
import type { Selectable } from "kysely";
import { deliveryText } from "~/lib/orders";
import type { OrderEventStatus } from "~/lib/notify";
import type { OrderEventsTable, OrdersTable } from "../db/schema";
import { notify } from "../notify/notify.server";
import type { Executor } from "../db/db.server";

export type OrderRow = Selectable<OrdersTable>;

export type EventType =
  | "created"
  | "payment_created"
  | "paid"
  | "payment_amount_mismatch"
  | "assigned"
  | "picking"
  | "delivering"
  | "completed"
  | "delivery_failed"
  | "cancelled"
  | "closed"
  | "refund_requested"
  | "refund_approved"
  | "refund_rejected"
  | "refund_started"
  | "refund_failed"
  | "refunded"
  | "reviewed"
  | "supplement_offered"
  | "supplement_paid"
  | "supplement_declined";

export type Actor = OrderEventsTable["actor"];

export async function recordEvent(
  executor: Executor,
  order: Pick<OrderRow, "id">,
  event: { type: EventType; from?: string | null; to?: string | null; actor: Actor; operatorId?: number | null; note?: string | null; at: string },
) {
  await executor
    .insertInto("order_events")
    .values({
      order_id: order.id,
      type: event.type,
      from_status: event.from ?? null,
      to_status: event.to ?? null,
      actor: event.actor,
      operator_id: event.operatorId ?? null,
      note: event.note ?? null,
      created_at: event.at,
    })
    .execute();
}

/** The customer's inbox item and messages for a status they hear about. */
export async function notifyOrder(
  executor: Executor,
  order: OrderRow,
  status: OrderEventStatus,
  at: string,
  extra: { courierLabel?: string; supplement?: { amountFen: number; declared: string; real: string } } = {},
) {
  if (order.user_id === null) return;
  await notify(
    {
      kind: "order_status",
      recipientUserId: order.user_id,
      data: {
        status,
        orderNumber: order.order_number,
        amountFen: order.amount_fen,
        parcelCount: order.parcel_count,
        campusName: order.campus_name,
        dorm: order.recipient_dorm ?? "",
        room: order.recipient_room ?? "",
        address: orderAddress(order),
        at,
        estimatedDelivery: deliveryText(order.estimated_delivery_at, new Date(at)),
        ...(extra.courierLabel ? { courierLabel: extra.courierLabel } : {}),
        ...(extra.supplement ? { supplement: extra.supplement } : {}),
      },
    },
    { executor, now: new Date(at) },
  );
}
