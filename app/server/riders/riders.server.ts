// Riders and their assignments (decision 038). Riders are operators with the role 'rider': the
// admin keeps the roster (phone, availability) and gives orders to riders — one order, a
// selection, or every order of a slot with a parcel at one station — and may give them to
// another rider. Only the admin role assigns; the check is here, on the server, whoever posts.
// An assignment moves a paid order to 骑手已接单 through the order state machine and makes the
// order's handover code; each assignment is audited in the same transaction.
import crypto from "node:crypto";
import { isAdminRole } from "~/lib/operator-roles";
import { handoverCodeOf, isRiderRole, RIDER_ROLE } from "~/lib/riders";
import { type Operator, normaliseUsername } from "../auth/operator.server";
import { hashPassword } from "../auth/password.server";
import { db, now } from "../db/db.server";
import { applyStatus } from "../orders/transitions.server";
import { recordAudit } from "../admin/audit.server";
import { canAdvance, statusesOf } from "~/lib/order-status";

/** Orders a rider may carry: paid and not yet delivered (the in-progress group). */
export const OPEN_STATUSES = statusesOf("in_progress");
import { stateOfRow } from "../admin/orders.server";

export type RiderSummary = {
  id: number;
  username: string;
  displayName: string;
  phone: string | null;
  available: boolean;
  disabled: boolean;
  /** Orders still open on this rider (assigned, being picked up or delivered). */
  openOrders: number;
};

/** The roster query: riders by id (operators_role_idx). */
export function rosterQuery() {
  return db()
    .selectFrom("operators")
    .select(["id", "username", "display_name", "phone", "available", "disabled"])
    .where("role", "=", RIDER_ROLE)
    .orderBy("id");
}

/** Open orders per rider (orders_rider_idx). */
export function riderLoadQuery(riderIds: number[]) {
  return db()
    .selectFrom("orders")
    .select(["rider_id", (eb) => eb.fn.countAll<number | string>().as("n")])
    .where("rider_id", "in", riderIds.length > 0 ? riderIds : [-1])
    .where("status", "in", [...OPEN_STATUSES])
    .where("deleted_at", "is", null)
    .groupBy("rider_id");
}

export async function listRiders(): Promise<RiderSummary[]> {
  const riders = await rosterQuery().execute();
  const load = await riderLoadQuery(riders.map((rider) => rider.id)).execute();
  const counts = new Map(load.map((row) => [row.rider_id, Number(row.n)]));
  return riders.map((rider) => ({
    id: rider.id,
    username: rider.username,
    displayName: rider.display_name,
    phone: rider.phone,
    available: rider.available === 1,
    disabled: rider.disabled === 1,
    openOrders: counts.get(rider.id) ?? 0,
  }));
}

export type RiderResult = { ok: true } | { ok: false; reason: "forbidden" | "taken" | "not_found" };

/** The admin adds a rider (an operator account with the role 'rider'): the rider signs in at /admin/login. */
export async function createRider(admin: Operator, input: { username: string; displayName: string; phone: string; password: string }): Promise<RiderResult> {
  if (!isAdminRole(admin.role)) return { ok: false, reason: "forbidden" };
  const username = normaliseUsername(input.username);
  const at = now();
  const passwordHash = await hashPassword(input.password);
  try {
    await db()
      .transaction()
      .execute(async (trx) => {
        const row = await trx
          .insertInto("operators")
          .values({ username, display_name: input.displayName, password_hash: passwordHash, role: RIDER_ROLE, openid: null, disabled: 0, created_at: at, last_login_at: null, phone: input.phone, available: 1 })
          .returning(["id"])
          .executeTakeFirstOrThrow();
        await recordAudit(trx, admin, { action: "rider_create", detail: `${input.displayName} (#${row.id})`, at });
      });
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE") return { ok: false, reason: "taken" };
    throw error;
  }
  return { ok: true };
}

/** Availability: the admin for any rider, a rider for themselves. */
export async function setAvailability(actor: Operator, riderId: number, available: boolean): Promise<RiderResult> {
  if (!isAdminRole(actor.role) && actor.id !== riderId) return { ok: false, reason: "forbidden" };
  const at = now();
  return db()
    .transaction()
    .execute(async (trx) => {
      const updated = await trx.updateTable("operators").set({ available: available ? 1 : 0 }).where("id", "=", riderId).where("role", "=", RIDER_ROLE).executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) return { ok: false, reason: "not_found" } as const;
      await recordAudit(trx, actor, { action: "rider_availability", detail: `#${riderId} ${available ? "on" : "off"}`, at });
      return { ok: true } as const;
    });
}

// ---------------------------------------------------------------------------------------------
// Assignments

export type AssignResult =
  | { ok: true; assigned: number; skipped: number }
  | { ok: false; reason: "forbidden" | "rider_not_found" | "rider_unavailable" | "no_orders" };

/** A fresh handover code (4 digits from the platform's CSPRNG). */
export function newHandoverCode() {
  return handoverCodeOf(crypto.randomInt(0, 10_000));
}

/**
 * Gives the orders to the rider. Each order is its own transaction: a paid order becomes 骑手已接单
 * (the state machine's guard, the customer's message naming the rider); an order already on its
 * way keeps its status and changes rider. Orders that are not open (completed, refunded, deleted,
 * a refund under way for a paid one) or already the rider's are skipped and counted.
 */
export async function assignOrders(admin: Operator, riderId: number, orderNumbers: string[]): Promise<AssignResult> {
  if (!isAdminRole(admin.role)) return { ok: false, reason: "forbidden" };
  const rider = await db().selectFrom("operators").select(["id", "display_name", "role", "available", "disabled"]).where("id", "=", riderId).executeTakeFirst();
  if (!rider || !isRiderRole(rider.role) || rider.disabled) return { ok: false, reason: "rider_not_found" };
  if (!rider.available) return { ok: false, reason: "rider_unavailable" };
  const numbers = [...new Set(orderNumbers)];
  if (numbers.length === 0) return { ok: false, reason: "no_orders" };
  let assigned = 0;
  for (const number of numbers) {
    const done = await assignOne(admin, rider, number);
    if (done) assigned += 1;
  }
  return { ok: true, assigned, skipped: numbers.length - assigned };
}

async function assignOne(admin: Operator, rider: { id: number; display_name: string }, orderNumber: string) {
  const at = now();
  return db()
    .transaction()
    .execute(async (trx) => {
      let order = await trx.selectFrom("orders").selectAll().where("order_number", "=", orderNumber).where("deleted_at", "is", null).executeTakeFirst();
      if (!order || !(OPEN_STATUSES as readonly string[]).includes(order.status) || order.rider_id === rider.id) return false;
      const previous = order.rider_id
        ? await trx.selectFrom("operators").select(["display_name"]).where("id", "=", order.rider_id).executeTakeFirst()
        : undefined;
      if (order.status === "paid") {
        if (!canAdvance(stateOfRow(order), "assigned")) return false;
        const moved = await applyStatus(trx, order, "assigned", { actor: "operator", operatorId: admin.id, courierLabel: rider.display_name, at });
        if (!moved) return false;
        order = moved;
      }
      // The WHERE repeats what was read, so a completion or a reassignment meanwhile wins.
      const updated = await trx
        .updateTable("orders")
        .set({ rider_id: rider.id, handover_code: order.handover_code ?? newHandoverCode(), updated_at: at })
        .where("id", "=", order.id)
        .where("status", "=", order.status)
        .where((eb) => (order!.rider_id === null ? eb("rider_id", "is", null) : eb("rider_id", "=", order!.rider_id)))
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AssignRace();
      await recordAudit(trx, admin, {
        action: previous ? "rider_reassign" : "rider_assign",
        order,
        detail: previous ? `${previous.display_name} → ${rider.display_name}` : rider.display_name,
        at,
      });
      return true;
    })
    .catch((error) => {
      if (error instanceof AssignRace) return false;
      throw error;
    });
}

/** Rolls an assignment back when the order changed between the read and the write. */
class AssignRace extends Error {}
