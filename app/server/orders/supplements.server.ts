// A size found wrong at pickup (decision 047). The rider records the parcel's real size; when it
// is dearer than declared, the difference (S1, computed here from the campus's price table and
// the unit price the order was charged, never from the client) becomes the order's supplement: a
// second trade with the same pay provider, its own out_trade_no ('E…S'). The student accepts it
// on the order page (pays; the provider's notification or query confirms it, once) or declines it
// (S3: the parcel stays at the station and is refunded, applySupplementDeclined). A paid
// supplement is received money of the order (splitMoney): held while the order is live, earned
// when it completes, refunded on its own trade when the order is refunded in full (S2,
// applyRefunded → insertSupplementRefund).
import { storedCounts } from "~/lib/package-counts";
import type { Selectable } from "kysely";
import { PACKAGE_TYPE_KEYS, type PackageTypeKey } from "~/lib/catalog";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { riders as ridersMessages } from "~/lib/messages/riders";
import { failedDeliveryRefundFen, supplementFen, type SizeCounts } from "~/lib/order-ledger";
import { parsePickupCodes } from "~/lib/orders";
import type { PayParams } from "~/lib/pay-params";
import { isRiderRole } from "~/lib/riders";
import { recordAudit } from "../admin/audit.server";
import type { Operator } from "../auth/operator.server";
import type { User } from "../auth/session.server";
import { db, now } from "../db/db.server";
import type { OrderSupplementsTable } from "../db/schema";
import { log } from "../log.server";
import { PayError, paymentProvider, type PaymentProvider } from "../pay/provider.server";
import { notifyOrder, recordEvent, type OrderRow } from "./events.server";
import { unitPricesOf } from "./order-prices.server";
import { findOwnOrder, SIZE_NAME } from "./orders.server";
import { executeRefund } from "./refunds.server";
import { applySupplementDeclined, insertSupplementRefund, SupplementRace } from "./transitions.server";

export type Supplement = Selectable<OrderSupplementsTable>;

/** The supplement's own trade number: the order's, then S (one supplement per order). */
export function supplementTradeNo(orderNumber: string) {
  return `${orderNumber}S`;
}

/** While the parcels are being fetched: the only time a size can be found wrong. */
const AT_PICKUP = ["assigned", "picking"] as const;

function atPickup(order: Pick<OrderRow, "status" | "payment_status" | "refund_state" | "deleted_at">) {
  return (
    (AT_PICKUP as readonly string[]).includes(order.status) &&
    order.payment_status === "paid" &&
    order.deleted_at === null &&
    order.refund_state !== "processing" &&
    order.refund_state !== "requested"
  );
}


export function supplementOf(orderId: number) {
  return db().selectFrom("order_supplements").selectAll().where("order_id", "=", orderId).executeTakeFirst();
}

/** The supplements of some orders (the unique order_id index), for the rider's run. */
export function supplementsOfOrdersQuery(orderIds: number[]) {
  return db()
    .selectFrom("order_supplements")
    .select(["order_id", "position", "state", "real_size", "amount_fen"])
    .where("order_id", "in", orderIds.length > 0 ? orderIds : [-1]);
}

export type RecordSizeResult =
  | { ok: true; amountFen: number }
  | { ok: false; reason: "not_found" | "forbidden" | "not_allowed" | "not_dearer" | "exists" | "no_price" | "declared" };

/**
 * The rider records the real size of one parcel (position in the order's pickup list). The
 * declared size is the order's own when it has one size; with several, the rider says which.
 */
export async function recordRealSize(
  operator: Operator,
  input: { order: string; position: number; real: PackageTypeKey; declared?: PackageTypeKey | null },
): Promise<RecordSizeResult> {
  const order = await db().selectFrom("orders").selectAll().where("order_number", "=", input.order).where("deleted_at", "is", null).executeTakeFirst();
  if (!order) return { ok: false, reason: "not_found" };
  if (isRiderRole(operator.role) && order.rider_id !== operator.id) return { ok: false, reason: "forbidden" };
  if (!atPickup(order)) return { ok: false, reason: "not_allowed" };
  const parcels = parsePickupCodes(order.pickup_codes);
  if (!Number.isInteger(input.position) || input.position < 0 || input.position >= parcels.length) return { ok: false, reason: "not_found" };
  const counts = storedCounts(order.package_counts);
  const sizes = PACKAGE_TYPE_KEYS.filter((size) => counts[size] > 0);
  const declared = sizes.length === 1 ? sizes[0]! : input.declared && counts[input.declared] > 0 ? input.declared : null;
  if (!declared) return { ok: false, reason: "declared" };
  const prices = await db().selectFrom("package_types").select(["type", "price_fen"]).where("campus_code", "=", order.campus_code).execute();
  const priceOf = (size: string) => prices.find((row) => row.type === size)?.price_fen;
  const realPrice = priceOf(input.real);
  const declaredUnit = unitPricesOf(order)?.[declared] ?? priceOf(declared);
  if (realPrice === undefined || declaredUnit === undefined) return { ok: false, reason: "no_price" };
  const amountFen = supplementFen({ declaredUnitFen: declaredUnit, realPriceFen: realPrice });
  if (amountFen === null) return { ok: false, reason: "not_dearer" };
  const at = now();
  const made = await db()
    .transaction()
    .execute(async (trx) => {
      const row = await trx
        .insertInto("order_supplements")
        .values({
          order_id: order.id,
          out_trade_no: supplementTradeNo(order.order_number),
          position: input.position,
          declared_size: declared,
          real_size: input.real,
          amount_fen: amountFen,
          state: "offered",
          operator_id: operator.id,
          prepay_id: null,
          transaction_id: null,
          payer_openid: null,
          success_time: null,
          decided_at: null,
          missing_at: null,
          created_at: at,
          updated_at: at,
        })
        .onConflict((oc) => oc.column("order_id").doNothing())
        .returning("id")
        .executeTakeFirst();
      if (!row) return false;
      await recordEvent(trx, order, { type: "supplement_offered", actor: "operator", operatorId: operator.id, note: `${declared}→${input.real} +${amountFen}`, at });
      // The student answers on the order page: told in the inbox and by the messenger, with the commit.
      await notifyOrder(trx, order, "supplement_offered", at, { supplement: { amountFen, declared: SIZE_NAME[declared] ?? declared, real: SIZE_NAME[input.real] ?? input.real } });
      await recordAudit(trx, operator, { action: "size_supplement", order, detail: `${declared} → ${input.real} +${amountFen}`, at });
      return true;
    });
  return made ? { ok: true, amountFen } : { ok: false, reason: "exists" };
}

export type SupplementAnswer =
  | { ok: true; payParams?: PayParams; simulated?: boolean }
  | { ok: false; reason: "not_found" | "not_allowed" | "no_provider" | "open_in_messenger" | "busy" | "failed" | "paid" };

/** The student's order and its open supplement, or why not. */
async function openSupplement(user: User, orderNumber: string) {
  const order = await findOwnOrder(user.id, orderNumber);
  if (!order) return { ok: false, reason: "not_found" } as const;
  const supplement = await supplementOf(order.id);
  if (!supplement) return { ok: false, reason: "not_found" } as const;
  if (supplement.state !== "offered" || !atPickup(order)) return { ok: false, reason: "not_allowed" } as const;
  return { ok: true, order, supplement } as const;
}

/** The student accepts: the supplement's own trade with the provider, and its pay parameters. */
export async function acceptSupplement(user: User, orderNumber: string, provider: PaymentProvider | null = paymentProvider()): Promise<SupplementAnswer> {
  const open = await openSupplement(user, orderNumber);
  if (!open.ok) return open;
  const { supplement } = open;
  if (!provider) return { ok: false, reason: "no_provider" };
  if (!user.openid) return { ok: false, reason: "open_in_messenger" };
  try {
    const { prepayId } = await provider.createJsapi({
      outTradeNo: supplement.out_trade_no,
      description: ordersMessages.supplementDescription,
      amountFen: supplement.amount_fen,
      openid: user.openid,
      expiresAt: new Date(Date.now() + 2 * 3_600_000),
    });
    await db().updateTable("order_supplements").set({ prepay_id: prepayId, updated_at: now() }).where("id", "=", supplement.id).execute();
    return { ok: true, payParams: provider.payParams(prepayId), simulated: provider.kind === "simulated" };
  } catch (error) {
    if (error instanceof PayError) {
      log("warn", "supplement-pay", { order: orderNumber, code: error.code });
      if (error.code === "ORDER_PAID") {
        await refreshSupplement(supplement, provider);
        return { ok: false, reason: "paid" };
      }
      return { ok: false, reason: error.retryable ? "busy" : "failed" };
    }
    throw error;
  }
}

/** Asks the provider about an offered supplement with a trade (the order page's load, the status poll). */
export async function refreshSupplement(supplement: Pick<Supplement, "id" | "state" | "prepay_id" | "out_trade_no" | "amount_fen">, provider: PaymentProvider | null = paymentProvider()) {
  if (supplement.state !== "offered" || !supplement.prepay_id || !provider) return;
  try {
    const result = await provider.query(supplement.out_trade_no);
    if (result.state !== "SUCCESS" && result.state !== "REFUND") return;
    if (result.amountFen !== supplement.amount_fen) {
      log("error", "pay-amount-mismatch", { trade: supplement.out_trade_no, source: "query" });
      return;
    }
    await markSupplementPaid(supplement.out_trade_no, { transactionId: result.transactionId ?? null, successTime: result.successTime ?? null, payerOpenid: result.payerOpenid ?? null });
  } catch (error) {
    log("warn", "supplement-query", { trade: supplement.out_trade_no, error: error instanceof PayError ? error.code : String(error) });
  }
}

/** The trade of a supplement, for the notification handler (null: not a supplement's). */
export function supplementByTradeNo(outTradeNo: string) {
  return db().selectFrom("order_supplements").selectAll().where("out_trade_no", "=", outTradeNo).executeTakeFirst();
}

/**
 * The provider confirmed the supplement's payment: paid, once, however often it is told. A
 * payment for an order that ended meanwhile (refunded, failed, cancelled), or whose parcel a
 * 配送失败 covered (S4), is refunded at once.
 */
export async function markSupplementPaid(outTradeNo: string, details: { transactionId: string | null; successTime: string | null; payerOpenid: string | null }) {
  const at = now();
  const refundId = await db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable("order_supplements")
        .set({ state: "paid", transaction_id: details.transactionId, payer_openid: details.payerOpenid, success_time: instantOf(details.successTime, at), decided_at: at, updated_at: at })
        .where("out_trade_no", "=", outTradeNo)
        .where("state", "=", "offered")
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return null;
      const supplement = await trx.selectFrom("order_supplements").select(["order_id", "missing_at"]).where("out_trade_no", "=", outTradeNo).executeTakeFirstOrThrow();
      const order = await trx.selectFrom("orders").selectAll().where("id", "=", supplement.order_id).executeTakeFirstOrThrow();
      await recordEvent(trx, order, { type: "supplement_paid", actor: "provider", note: details.transactionId, at });
      const live = order.deleted_at === null && order.payment_status === "paid" && order.status !== "refunded" && order.status !== "cancelled";
      // S4: its parcel was not delivered (a 配送失败 covered it before the payment arrived).
      if (supplement.missing_at !== null) return insertSupplementRefund(trx, order, { kind: "delivery_failed", reason: order.refund_reason, at });
      if (live) return null;
      return insertSupplementRefund(trx, order, { kind: "auto", reason: ordersMessages.autoRefund, at });
    });
  if (refundId !== null) await executeRefund(refundId);
}

function instantOf(successTime: string | null, fallback: string) {
  if (!successTime) return fallback;
  const time = Date.parse(successTime);
  return Number.isNaN(time) ? fallback : new Date(time).toISOString();
}

/**
 * The student declines: the trade (if one was made) is closed first — a payment that got there
 * first wins and the supplement is paid instead — then the parcel is refunded (S3).
 */
export async function declineSupplement(user: User, orderNumber: string, provider: PaymentProvider | null = paymentProvider()): Promise<SupplementAnswer> {
  const open = await openSupplement(user, orderNumber);
  if (!open.ok) return open;
  const { order, supplement } = open;
  if (supplement.prepay_id && provider) {
    try {
      await provider.close(supplement.out_trade_no);
    } catch (error) {
      if (error instanceof PayError && error.code === "ORDER_PAID") {
        await refreshSupplement(supplement, provider);
        return { ok: false, reason: "paid" };
      }
      if (!(error instanceof PayError && error.code === "NOT_FOUND")) {
        log("warn", "supplement-close", { trade: supplement.out_trade_no, error: error instanceof PayError ? error.code : String(error) });
        return { ok: false, reason: "busy" };
      }
    }
  }
  const counts = storedCounts(order.package_counts);
  const declared = supplement.declared_size as PackageTypeKey;
  const missing: SizeCounts = { pocket: 0, small: 0, medium: 0, large: 0, [declared]: 1 };
  const refundFen = failedDeliveryRefundFen({ amountFen: order.amount_fen, discountFen: order.discount_fen, counts, missing, unitPrices: unitPricesOf(order) });
  const at = now();
  const refundId = await db()
    .transaction()
    .execute((trx) => applySupplementDeclined(trx, order, { supplementId: supplement.id, refundFen, reason: ridersMessages.parcelLeftReason, at }))
    .catch((error) => {
      if (error instanceof SupplementRace) return null;
      throw error;
    });
  if (refundId === null) return { ok: false, reason: "not_allowed" };
  if (refundId > 0) await executeRefund(refundId);
  return { ok: true };
}

/** Positions of an order's parcels that stay at the station (a declined supplement). */
export function leftPositions(rows: { order_id: number; position: number; state: string }[]) {
  return new Set(rows.filter((row) => row.state === "declined").map((row) => `${row.order_id}:${row.position}`));
}
