// The order state machine (transitions.server) on both dialects, without a pay provider: every
// transition is one conditional UPDATE guarded by the status table, so of two racing callers —
// a pay notification after a cancel, the same notification twice, a customer and an operator,
// two operators — exactly one changes the order and records its event and messages.
import { describe, expect, it } from "vitest";
import type { PickupEntry } from "~/lib/pickup-entries";
import { db, now } from "~/server/db/db.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import { createMessengerUser, type TestUser } from "../../../tests/setup/helpers";
import { createOrderFromCheckout, findOrder, type OrderRow } from "./orders.server";
import {
  applyClosed,
  applyLatePayment,
  applyPaid,
  applyRefundApproved,
  applyRefundRejected,
  applyRefundRequested,
  applyRefundStarted,
  applyRefunded,
  applyReviewed,
  applyStatus,
} from "./transitions.server";

let counter = 0;

async function place(): Promise<{ user: TestUser; order: OrderRow }> {
  counter += 1;
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  const config = await loadExpressConfig("jinpenling");
  if (!config.ok) throw new Error("no config");
  const entry: PickupEntry = { id: "e1", company: "中通快递", pickupCode: `8-8-${process.pid % 1000}${counter}`, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
  await updateCheckout(user.id, config.config.packageTypes, () => ({ set: { entries: [entry] }, result: null }));
  const checkout = await loadCheckout(user.id, config.config.packageTypes);
  const created = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!created.ok) throw new Error(created.reason);
  return { user, order: (await findOrder(created.orderNumber))! };
}

const tx = <T>(work: (trx: Parameters<Parameters<ReturnType<ReturnType<typeof db>["transaction"]>["execute"]>[0]>[0]) => Promise<T>) =>
  db().transaction().execute(work);

async function paid() {
  const made = await place();
  expect(await tx((trx) => applyPaid(trx, made.order.id, { actor: "provider", transactionId: "4200000001", at: now() }))).not.toBeNull();
  return { ...made, order: (await findOrder(made.order.order_number))! };
}

async function events(order: OrderRow) {
  return (await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).orderBy("id").execute()).map((row) => row.type);
}

async function inbox(user: TestUser) {
  return (await db().selectFrom("inbox_items").select("dedupe_key").where("user_id", "=", user.id).orderBy("id").execute()).map((row) => row.dedupe_key);
}

async function refunds(order: OrderRow) {
  return db().selectFrom("refunds").select(["out_refund_no", "kind", "state"]).where("order_id", "=", order.id).orderBy("id").execute();
}

const ok = <T>(results: (T | null | false)[]) => results.filter((result) => result !== null && result !== false);

describe("the pay notification", () => {
  it("delivered five times at once marks the order paid once, with one event and one message", async () => {
    const { user, order } = await place();
    const results = await Promise.all(Array.from({ length: 5 }, () => tx((trx) => applyPaid(trx, order.id, { actor: "provider", at: now() }))));
    expect(ok(results)).toHaveLength(1);
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "paid", payment_status: "paid" });
    expect((await events(order)).filter((type) => type === "paid")).toHaveLength(1);
    expect(await inbox(user)).toEqual([`order:${order.order_number}:paid`]);
  });

  it("after a cancel it does not pay the cancelled order; the late payment is recorded and refunded once", async () => {
    const { user, order } = await place();
    expect(await tx((trx) => applyClosed(trx, order.id, { type: "cancelled", actor: "customer", at: now() }))).not.toBeNull();
    expect(await tx((trx) => applyPaid(trx, order.id, { actor: "provider", at: now() }))).toBeNull();
    const cancelled = (await findOrder(order.order_number))!;
    expect(cancelled).toMatchObject({ status: "cancelled", payment_status: "closed" });
    const late = await Promise.all(
      [1, 2].map(() => tx((trx) => applyLatePayment(trx, cancelled, { transactionId: "4200000002", payerOpenid: null, at: now() }))),
    );
    expect(ok(late)).toHaveLength(1);
    expect(await refunds(order)).toEqual([{ out_refund_no: `${order.order_number}R1`, kind: "auto", state: "processing" }]);
    const refundId = ok(late)[0] as number;
    expect(await tx((trx) => applyRefunded(trx, refundId, { actor: "provider", at: now() }))).not.toBeNull();
    expect(await tx((trx) => applyRefunded(trx, refundId, { actor: "provider", at: now() }))).toBeNull();
    expect((await findOrder(order.order_number))!).toMatchObject({ status: "refunded", payment_status: "refunded" });
    expect(await inbox(user)).toEqual([`order:${order.order_number}:cancelled`, `order:${order.order_number}:refunded`]);
  });

  it("a cancel after the payment cannot close the paid order", async () => {
    const { order } = await paid();
    expect(await tx((trx) => applyClosed(trx, order.id, { type: "cancelled", actor: "customer", at: now() }))).toBeNull();
    expect(await tx((trx) => applyClosed(trx, order.id, { type: "closed", actor: "system", at: now() }))).toBeNull();
    expect((await findOrder(order.order_number))!.status).toBe("paid");
  });
});

describe("customers and operators racing", () => {
  it("the customer's and an operator's cancel of an unpaid order: one cancels it, once", async () => {
    const { user, order } = await place();
    const results = await Promise.all([
      tx((trx) => applyClosed(trx, order.id, { type: "cancelled", actor: "customer", at: now() })),
      tx((trx) => applyClosed(trx, order.id, { type: "cancelled", actor: "operator", operatorId: 1, at: now() })),
      tx((trx) => applyClosed(trx, order.id, { type: "closed", actor: "system", at: now() })),
    ]);
    expect(ok(results)).toHaveLength(1);
    expect((await events(order)).filter((type) => type === "cancelled" || type === "closed")).toHaveLength(1);
    expect(await inbox(user)).toEqual([`order:${order.order_number}:cancelled`]);
  });

  it("the customer's cancel (a refund) and an operator's complete of a paid order: exactly one wins", async () => {
    const { order } = await paid();
    const [refund, completed] = await Promise.all([
      tx((trx) => applyRefundStarted(trx, order, { by: "customer", reason: null, at: now() })),
      tx((trx) => applyStatus(trx, order, "completed", { actor: "operator", operatorId: 1, courierLabel: "值班员", at: now() })),
    ]);
    expect([refund !== null, completed !== null].filter(Boolean)).toHaveLength(1);
    const fresh = (await findOrder(order.order_number))!;
    if (refund !== null) expect(fresh).toMatchObject({ status: "paid", refund_state: "processing" });
    else expect(fresh).toMatchObject({ status: "completed", refund_state: null });
  });

  it("an operator's step after the customer read the order makes the customer's cancel of the old status fail", async () => {
    const { order } = await paid();
    expect(await tx((trx) => applyStatus(trx, order, "picking", { actor: "operator", operatorId: 1, at: now() }))).not.toBeNull();
    // The customer's page showed 'paid' (cancel = a refund at once); the order is picking now.
    expect(await tx((trx) => applyRefundStarted(trx, order, { by: "customer", reason: null, at: now() }))).toBeNull();
    // An operator may still cancel a picking order (the table's admin cancel); the customer may ask for a refund.
    const picking = (await findOrder(order.order_number))!;
    expect(await tx((trx) => applyRefundStarted(trx, picking, { by: "customer", reason: null, at: now() }))).toBeNull();
    const [operator, request] = await Promise.all([
      tx((trx) => applyRefundStarted(trx, picking, { by: "operator", reason: "骑手无法取件", operatorId: 1, at: now() })),
      tx((trx) => applyRefundRequested(trx, picking, { reason: "不要了", at: now() })),
    ]);
    expect([operator !== null, request].filter(Boolean)).toHaveLength(1);
    expect(await refunds(order)).toHaveLength(1);
  });

  it("two operators completing at once: one change, one event, one message with the operator as courier", async () => {
    const { user, order } = await paid();
    const results = await Promise.all(
      ["甲", "乙"].map((name) => tx((trx) => applyStatus(trx, order, "completed", { actor: "operator", operatorId: 1, courierLabel: name, at: now() }))),
    );
    expect(ok(results)).toHaveLength(1);
    expect((await events(order)).filter((type) => type === "completed")).toHaveLength(1);
    expect(await inbox(user)).toEqual([`order:${order.order_number}:paid`, `order:${order.order_number}:completed`]);
    const outbox = await db().selectFrom("outbox_messages").select("data").where("dedupe_key", "like", `%${order.order_number}:completed%`).execute();
    expect(outbox.length).toBeGreaterThan(0);
    expect(outbox.every((row) => /甲|乙/.test(String(row.data)))).toBe(true);
  });

  it("no step while a refund is requested; approve and reject of one request race to one decision", async () => {
    const { order } = await paid();
    const picking = (await tx((trx) => applyStatus(trx, order, "picking", { actor: "operator", at: now() })))!;
    expect(await tx((trx) => applyRefundRequested(trx, picking, { reason: "不要了", at: now() }))).toBe(true);
    expect(await tx((trx) => applyRefundRequested(trx, picking, { reason: "再点一次", at: now() }))).toBe(false);
    const requested = (await findOrder(order.order_number))!;
    expect(await tx((trx) => applyStatus(trx, requested, "delivering", { actor: "operator", at: now() }))).toBeNull();
    const [{ id }] = await db().selectFrom("refunds").select("id").where("order_id", "=", order.id).execute();
    const decisions = await Promise.all([
      tx((trx) => applyRefundApproved(trx, id!, { operatorId: 1, at: now() })),
      tx((trx) => applyRefundRejected(trx, id!, { operatorId: 1, note: "已送达", at: now() })),
    ]);
    expect(decisions.filter((decision) => decision === "ok")).toHaveLength(1);
    expect(decisions.filter((decision) => decision === "not_requested")).toHaveLength(1);
  });

  it("a rejected request may be asked again: its refund row is the order's second (one insert, numbered)", async () => {
    const { order } = await paid();
    const completed = (await tx((trx) => applyStatus(trx, order, "completed", { actor: "operator", at: now() })))!;
    expect(await tx((trx) => applyRefundRequested(trx, completed, { reason: "坏了", at: now() }))).toBe(true);
    const [{ id }] = await db().selectFrom("refunds").select("id").where("order_id", "=", order.id).execute();
    expect(await tx((trx) => applyRefundRejected(trx, id!, { operatorId: 1, note: null, at: now() }))).toBe("ok");
    expect(await tx((trx) => applyRefundRequested(trx, completed, { reason: "还是坏了", at: now() }))).toBe(true);
    expect(await refunds(order)).toEqual([
      { out_refund_no: `${order.order_number}R1`, kind: "request", state: "rejected" },
      { out_refund_no: `${order.order_number}R2`, kind: "request", state: "requested" },
    ]);
  });

  it("a deleted order takes no step; a review needs a completed order and counts once", async () => {
    const { user, order } = await paid();
    expect(await tx((trx) => applyReviewed(trx, order, { userId: user.id, rating: 5, comment: "", at: now() }))).toBe(false);
    const completed = (await tx((trx) => applyStatus(trx, order, "completed", { actor: "operator", at: now() })))!;
    const reviews = await Promise.all([1, 2].map(() => tx((trx) => applyReviewed(trx, completed, { userId: user.id, rating: 4, comment: "好", at: now() }))));
    expect(ok(reviews)).toHaveLength(1);
    const other = await paid();
    await db().updateTable("orders").set({ deleted_at: now(), deleted_by: 1 }).where("id", "=", other.order.id).execute();
    expect(await tx((trx) => applyStatus(trx, other.order, "assigned", { actor: "operator", at: now() }))).toBeNull();
  });
});
