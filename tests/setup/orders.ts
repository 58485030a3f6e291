// Orders for db tests, through the same domain functions the pages use: a student's order from
// the checkout, paid the way the simulated provider pays it (the pay intent's payments row, the
// provider's trade, then the paid transition), and a signed-in admin.
import type { PickupEntry } from "~/lib/pickup-entries";
import { captchaToken } from "~/server/auth/captcha.server";
import { createOperator, loginOperator } from "~/server/auth/operator.server";
import { db, now } from "~/server/db/db.server";
import { saveAddress } from "~/server/errands/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/errands/checkout.server";
import { loadExpressConfig } from "~/server/errands/market-config.server";
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
  if (!created.ok) throw new Error(created.message);
  return { user, order: (await findOrder(created.orderNumber))! };
}

/** Paid as the simulated provider pays: the pay intent's row, the provider's trade, the paid transition. */
export async function payTestOrder(user: TestUser, order: OrderRow, at = now()): Promise<OrderRow> {
  await db()
    .insertInto("payments")
    .values({ order_id: order.id, provider: "simulated", out_trade_no: order.order_number, amount_fen: order.amount_fen, prepay_id: null, prepay_at: null, state: "created", transaction_id: null, payer_openid: null, success_time: null, created_at: at, updated_at: at })
    .execute();
  sharedSimulatedStore().trades.set(order.order_number, {
    outTradeNo: order.order_number,
    prepayId: `wx_sim_${order.order_number}`,
    amountFen: order.amount_fen,
    openid: user.openid!,
    description: "校园帮-快递代拿",
    payParamsAt: 0,
    closed: false,
    transactionId: `SIM${order.order_number}`,
    successTime: at.replace(/\.\d{3}Z$/, "+00:00"),
    refundedFen: 0,
  });
  await db().transaction().execute((trx) => applyPaid(trx, order.id, { actor: "provider", transactionId: `SIM${order.order_number}`, successTime: at, at }));
  return (await findOrder(order.order_number))!;
}

export async function paidTestOrder(parcels = 1): Promise<OrderRow> {
  const { user, order } = await placeTestOrder(parcels);
  return payTestOrder(user, order);
}

/** A signed-in operator of the admin role: its session cookie and id. */
export async function testAdmin(): Promise<{ cookie: string; id: number }> {
  counter += 1;
  const username = `ops-${process.pid % 10000}-${counter}`;
  await createOperator({ username, password: "right-password-1", displayName: "管理员小周", role: "admin" });
  const login = await loginOperator(username, "right-password-1", "10.9.3.1", { request: request("/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
  if (!login.ok) throw new Error(login.message);
  return { cookie: cookieValue(login.setCookie), id: login.operator.id };
}
