// Delivery slots with a capacity per campus, on both dialects: the admin sets a slot's capacity
// per campus on /admin/delivery-slots (bad input answered beside the form); two payments at once
// never both take a slot's last place; a full slot moves the next paid order, and the checkout's
// promise, to the next slot.
import { beforeEach, describe, expect, it } from "vitest";
import { adminReference } from "~/lib/messages/adminReference";
import { action as slotsAction } from "~/routes/admin.delivery-slots";
import { db } from "~/server/db/db.server";
import { call, request } from "../../../tests/setup/helpers";
import { payTestOrder, placeTestOrder, testAdmin } from "../../../tests/setup/orders";
import { promisedDelivery, slotBoard } from "./slots.server";

const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };
const post = (fields: Record<string, string>, cookie: string) =>
  request("/admin/delivery-slots", { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN } });

let early: number;
let late: number;

beforeEach(async () => {
  // Two slots late in the Shanghai day, so "now" falls in the first whenever the test runs.
  await db().deleteFrom("slot_loads").execute();
  await db().deleteFrom("slot_capacities").execute();
  await db().deleteFrom("delivery_slots").execute();
  const values = (end: string, estimated: string, sort: number) => ({ order_start_time: "00:00", order_end_time: end, delivery_start_time: end, delivery_end_time: "23:59", estimated_time: estimated, sort_order: sort });
  early = (await db().insertInto("delivery_slots").values(values("23:50", "23:55", 0)).returning("id").executeTakeFirstOrThrow()).id;
  late = (await db().insertInto("delivery_slots").values(values("23:58", "23:59", 1)).returning("id").executeTakeFirstOrThrow()).id;
});

describe("a capacity per slot per campus", () => {
  it("is set by the admin per campus; blank is no limit; a bad number is answered beside the form", async () => {
    const admin = await testAdmin();
    const ok = await call(slotsAction as never, post({ intent: "capacity", id: String(early), "capacities[0].campus": "jinpenling", "capacities[0].capacity": "1", "capacities[1].campus": "yuntang", "capacities[1].capacity": "" }, admin.cookie));
    expect(ok.status).toBe(302);
    expect(await db().selectFrom("slot_capacities").select(["slot_id", "campus_code", "capacity"]).execute()).toEqual([{ slot_id: early, campus_code: "jinpenling", capacity: 1 }]);
    const bad = await call(slotsAction as never, post({ intent: "capacity", id: String(early), "capacities[0].campus": "jinpenling", "capacities[0].capacity": "0" }, admin.cookie));
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(adminReference.errors.capacityFormat);
    const audit = await db().selectFrom("admin_audit").select(["action"]).where("action", "=", "slot_capacity").execute();
    expect(audit).toHaveLength(1);
  });

  it("a full slot moves the next order, and the checkout's promise, to the next slot; two payments at once take one place", async () => {
    await db().insertInto("slot_capacities").values({ slot_id: early, campus_code: "jinpenling", capacity: 1 }).execute();
    const before = await promisedDelivery("jinpenling", new Date());
    expect(before.time).toBe("23:55");
    const a = await placeTestOrder();
    const b = await placeTestOrder();
    const [paidA, paidB] = await Promise.all([payTestOrder(a.user, a.order), payTestOrder(b.user, b.order)]);
    const promised = [paidA.estimated_delivery_at, paidB.estimated_delivery_at].sort();
    expect(promised[0]).toBe(before.at);
    expect(promised[1]).not.toBe(before.at);
    // The student sees the next slot before paying.
    const after = await promisedDelivery("jinpenling", new Date());
    expect(after.time).toBe("23:59");
    expect(promised[1]).toBe(after.at);
    // Another campus has no limit there.
    expect((await promisedDelivery("yuntang", new Date())).time).toBe("23:55");
    const board = await slotBoard("jinpenling", new Date());
    expect(board[0]).toMatchObject({ time: "23:55", taken: 1, capacity: 1 });
  });
});
