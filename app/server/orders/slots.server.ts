// Delivery slots with a capacity per campus (decision 039). A slot's capacity is kept per campus
// (slot_capacities; no row: no limit); the places taken at one promised delivery are counted in
// slot_loads. When a payment is confirmed the order takes the first slot with room
// (firstWithRoom in app/lib/delivery-slot): the count goes up by a conditional UPDATE
// (n < capacity) inside the payment's transaction, so two payments at once never both take the
// last place, on either dialect. A place once taken stays taken (a refund does not give it back):
// the count never undercounts what the riders carry. The checkout shows the same promise, read
// without taking a place.
import { firstWithRoom, slotOccurrences, type SlotOccurrence } from "~/lib/delivery-slot";
import { db, type Executor } from "../db/db.server";
import { loadDeliverySchedule } from "../market/market-config.server";

async function capacitiesOf(executor: Executor, campusCode: string): Promise<Map<number, number>> {
  const rows = await executor.selectFrom("slot_capacities").select(["slot_id", "capacity"]).where("campus_code", "=", campusCode).execute();
  return new Map(rows.map((row) => [row.slot_id, row.capacity]));
}

async function loadsOf(executor: Executor, campusCode: string, instants: string[]): Promise<Map<string, number>> {
  if (instants.length === 0) return new Map();
  const rows = await executor.selectFrom("slot_loads").select(["delivery_at", "n"]).where("campus_code", "=", campusCode).where("delivery_at", "in", instants).execute();
  return new Map(rows.map((row) => [row.delivery_at, row.n]));
}

/** The promise an order paid now would get (read only: the checkout's promise). */
export async function promisedDelivery(campusCode: string | null, at: Date, executor: Executor = db()): Promise<SlotOccurrence> {
  const occurrences = slotOccurrences(at, await loadDeliverySchedule(executor));
  if (!campusCode) return occurrences[0]!;
  const capacities = await capacitiesOf(executor, campusCode);
  if (capacities.size === 0) return occurrences[0]!;
  const loads = await loadsOf(executor, campusCode, occurrences.map((occurrence) => occurrence.at));
  return firstWithRoom(occurrences, (occurrence) => {
    const capacity = occurrence.slotId === null ? undefined : capacities.get(occurrence.slotId);
    return capacity === undefined || (loads.get(occurrence.at) ?? 0) < capacity;
  });
}

/**
 * Takes a place for a paid order in the first slot with room, inside the payment's transaction,
 * and returns the promise. Called once per order (after the paid transition changed the row).
 */
export async function reserveDelivery(executor: Executor, campusCode: string, at: Date): Promise<SlotOccurrence> {
  const occurrences = slotOccurrences(at, await loadDeliverySchedule(executor));
  const capacities = await capacitiesOf(executor, campusCode);
  for (const occurrence of occurrences) {
    const capacity = occurrence.slotId === null ? undefined : capacities.get(occurrence.slotId);
    if (capacity === undefined) return occurrence;
    await executor.insertInto("slot_loads").values({ campus_code: campusCode, delivery_at: occurrence.at, n: 0 }).onConflict((oc) => oc.columns(["campus_code", "delivery_at"]).doNothing()).execute();
    const taken = await executor
      .updateTable("slot_loads")
      .set((eb) => ({ n: eb("n", "+", 1) }))
      .where("campus_code", "=", campusCode)
      .where("delivery_at", "=", occurrence.at)
      .where("n", "<", capacity)
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) return occurrence;
  }
  // Every slot of today and tomorrow is full: the last one, over its capacity (never refused).
  return occurrences[occurrences.length - 1]!;
}

/** The places taken and the capacity of each upcoming slot of a campus (the admin's view). */
export async function slotBoard(campusCode: string | null, at: Date): Promise<{ at: string; day: string; time: string; dayOffset: number; taken: number; capacity: number | null }[]> {
  const occurrences = slotOccurrences(at, await loadDeliverySchedule());
  if (!campusCode) return occurrences.map((occurrence) => ({ ...occurrence, taken: 0, capacity: null }));
  const [capacities, loads] = await Promise.all([capacitiesOf(db(), campusCode), loadsOf(db(), campusCode, occurrences.map((occurrence) => occurrence.at))]);
  return occurrences.map((occurrence) => ({
    at: occurrence.at,
    day: occurrence.day,
    time: occurrence.time,
    dayOffset: occurrence.dayOffset,
    taken: loads.get(occurrence.at) ?? 0,
    capacity: occurrence.slotId === null ? null : (capacities.get(occurrence.slotId) ?? null),
  }));
}
