// Orders for db tests, through the same domain functions the pages use: a student's order from
// the checkout, paid the way the simulated provider pays it (the pay intent's payments row, the
// provider's trade, then the paid transition), and a signed-in admin.
import type { Insertable } from "kysely";
import type { PickupEntry } from "~/lib/pickup-entries";
import type { OperatorRole } from "~/lib/operator-roles";
import { captchaToken } from "~/server/auth/captcha.server";
import { createOperator, loginOperator } from "~/server/auth/operator.server";
import { db, now } from "~/server/db/db.server";
import type { OrdersTable } from "~/server/db/schema";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import { createOrderFromCheckout, findOrder, type OrderRow } from "~/server/orders/orders.server";
import { applyPaid } from "~/server/orders/transitions.server";
import { sharedSimulatedStore } from "~/server/pay/simulated.server";
import { cookieValue, createMessengerUser, request, type TestUser } from "./helpers";

let counter = 0;

function entry(): PickupEntry {
  counter += 1;
  const code = `7-7-${String(counter).padStart(4, "0")}${process.pid % 97}`;
  return { id: `e-${code}`, company: "中通快递", pickupCode: code, trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", source: "manual" };
}

/** A student of jinpenling with an address and `parcels` parcels ordered (unpaid). */
export async function placeTestOrder(parcels = 1): Promise<{ user: TestUser; order: OrderRow }> {
  const config = await loadExpressConfig("jinpenling");
  if (!config.ok) throw new Error("no config");
  const types = config.config.packageTypes;
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  await saveAddress(user.id, { name: "王五", phone: "13800138111", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  await updateCheckout(user.id, types, () => ({ set: { entries: Array.from({ length: parcels }, entry) }, result: null }));
  const checkout = await loadCheckout(user.id, types);
  const created = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!created.ok) throw new Error(created.reason);
  return { user, order: (await findOrder(created.orderNumber))! };
}

/** Paid as the simulated provider pays: the pay intent's row, the provider's trade, the paid transition. */
export async function payTestOrder(user: TestUser, order: OrderRow, at = now()): Promise<OrderRow> {
  await db()
    .insertInto("payments")
    .values({ order_id: order.id, provider: "simulated", out_trade_no: order.order_number, amount_fen: order.amount_fen, prepay_id: null, prepay_at: null, state: "created", transaction_id: null, payer_openid: null, success_time: null, created_at: at, updated_at: at })
    .execute();
  providerHoldsTrade(order, user.openid!, at.replace(/\.\d{3}Z$/, "+00:00"));
  await db().transaction().execute((trx) => applyPaid(trx, order.id, { actor: "provider", transactionId: `SIM${order.order_number}`, successTime: at, at }));
  return (await findOrder(order.order_number))!;
}

/** The simulated provider holds the order's paid trade (what its 1.5 s would do); the order has not learnt it yet. */
export function providerHoldsTrade(order: { order_number: string; amount_fen: number }, openid: string, successTime: string) {
  sharedSimulatedStore().trades.set(order.order_number, {
    outTradeNo: order.order_number,
    prepayId: `wx_sim_${order.order_number}`,
    amountFen: order.amount_fen,
    openid,
    description: "校园帮-快递代拿",
    payParamsAt: 0,
    closed: false,
    transactionId: `SIM${order.order_number}`,
    successTime,
    refundedFen: 0,
  });
}

export async function paidTestOrder(parcels = 1): Promise<OrderRow> {
  const { user, order } = await placeTestOrder(parcels);
  return payTestOrder(user, order);
}

/** A signed-in operator (the admin role unless named): its session cookie, id, name and role. */
export async function signedInOperator(role: OperatorRole = "admin", displayName = "管理员小周") {
  counter += 1;
  const username = `ops-${process.pid % 10000}-${counter}`;
  await createOperator({ username, password: "right-password-1", displayName, role });
  const login = await loginOperator(username, "right-password-1", "10.9.3.1", { request: request("/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
  if (!login.ok) throw new Error(`operator login refused: ${login.reason}`);
  return { cookie: cookieValue(login.setCookie), id: login.operator.id, displayName, role };
}

/** A signed-in operator of the admin role: its session cookie and id. */
export async function testAdmin(): Promise<{ cookie: string; id: number }> {
  return signedInOperator("admin");
}

export type TestParcel = { station: string; code: string; phoneTail?: string; deadline?: string };

const parcelCodes = (parcels: TestParcel[]) =>
  JSON.stringify(parcels.map((p) => ({ company: "中通快递", pickupCode: p.code, trackingNumber: null, stationName: p.station, pickupType: "code", deadline: p.deadline ?? null, phoneTail: p.phoneTail ?? null })));

/**
 * An order row written straight into the table, `input` over a paid ¥2 small parcel on jinpenling
 * with no user, due tomorrow 05:30 UTC, made an hour ago. Every helper here numbers from one
 * counter, so orders made by several of them in one file never share a number.
 */
export async function insertTestOrder(input: Partial<Insertable<OrdersTable>> = {}) {
  counter += 1;
  const at = new Date(Date.now() - 3_600_000 + counter).toISOString();
  return db()
    .insertInto("orders")
    .values({
      order_number: `E20260302${String(200000 + counter).slice(-6)}`,
      user_id: null,
      campus_code: "jinpenling",
      campus_name: "金盆岭校区",
      recipient_name: "张三",
      recipient_phone: "13800001234",
      recipient_dorm: "西苑3栋",
      recipient_room: "302",
      delivery_address: "金盆岭校区 西苑3栋302",
      pickup_codes: parcelCodes([{ station: "梨园菜鸟驿站", code: "9-9-1001" }]),
      package_counts: JSON.stringify({ pocket: 0, small: 1, medium: 0, large: 0 }),
      parcel_count: 1,
      remark: null,
      original_fen: 200,
      discount_fen: 0,
      amount_fen: 200,
      coupon_id: null,
      status: "paid",
      payment_status: "paid",
      refund_state: null,
      refund_reason: null,
      cancel_reason: null,
      estimated_delivery_at: TOMORROW_SLOT,
      checkout_key: null,
      idempotency_key: null,
      expires_at: at,
      paid_at: at,
      completed_at: null,
      cancelled_at: null,
      refunded_at: null,
      created_at: at,
      updated_at: at,
      ...input,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A paid order written straight into the tables (¥2 a small parcel) with the simulated provider's
 * paid payment: the riders' and the operators' screens start from here without a checkout.
 */
export async function insertPaidTestOrder(parcels: TestParcel[] = [{ station: "梨园菜鸟驿站", code: "9-9-1001" }], input: Partial<Insertable<OrdersTable>> = {}) {
  const row = await insertTestOrder({
    pickup_codes: parcelCodes(parcels),
    package_counts: JSON.stringify({ pocket: 0, small: parcels.length, medium: 0, large: 0 }),
    parcel_count: parcels.length,
    original_fen: 200 * parcels.length,
    amount_fen: 200 * parcels.length,
    ...input,
  });
  const at = row.created_at;
  await db()
    .insertInto("payments")
    .values({ order_id: row.id, provider: "simulated", out_trade_no: row.order_number, amount_fen: row.amount_fen, prepay_id: null, prepay_at: null, state: "paid", transaction_id: `SIM${row.order_number}`, payer_openid: null, success_time: at, created_at: at, updated_at: at })
    .execute();
  return row;
}

/** A delivery slot `days` from today at `hour` (UTC): the lists show slots with open orders from a week ago on. */
export const slotAt = (days: number, hour: string) => `${new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10)}T${hour}:00.000Z`;
export const TOMORROW_SLOT = slotAt(1, "05:30");
