// Riders on both dialects (decision 038): the roster and its role checks (only the admin role
// adds riders and assigns; a rider sees their own run and no other admin page), assignments and
// reassignments (state machine, handover code, audit), the per-parcel 已取到 marks moving the
// order to 正在取件 and 配送中, the handover (a wrong code is counted and locks the order after
// five; the right code completes it once, even when two riders race), the money invariants after
// it, the student's order page showing the code, and the pick list of 500 parcels within 300 ms.
import { beforeAll, describe, expect, it } from "vitest";
import { riders as m } from "~/lib/messages/riders";
import { HANDOVER_MAX_FAILURES } from "~/lib/riders";
import { loader as ordersLoader } from "~/routes/admin.orders";
import { action as pickAction, loader as pickLoader } from "~/routes/admin.pick-list";
import { action as ridersAction, loader as ridersLoader } from "~/routes/admin.riders";
import { action as runAction, loader as runLoader } from "~/routes/admin.run";
import { captchaToken } from "~/server/auth/captcha.server";
import { loginOperator } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { moneyInvariantViolations } from "~/server/orders/invariants.server";
import { orderDetail } from "~/server/orders/orders.server";
import { call, request } from "../../../tests/setup/helpers";
import { TOMORROW_SLOT, insertPaidTestOrder, signedInOperator, slotAt } from "../../../tests/setup/orders";
import { pickList } from "./run.server";

const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };
const SLOT = TOMORROW_SLOT;
const SLOT_EVENING = slotAt(2, "11:30");

function post(path: string, fields: Record<string, string | string[]>, cookie?: string) {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) for (const one of Array.isArray(value) ? value : [value]) body.append(key, one);
  return request(path, { method: "POST", cookie, body, headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN } });
}


const orderRow = (number: string) => db().selectFrom("orders").selectAll().where("order_number", "=", number).executeTakeFirstOrThrow();
const auditOf = (number: string) => db().selectFrom("admin_audit").select(["action", "operator_name", "detail"]).where("order_number", "=", number).orderBy("id").execute();

let admin: Awaited<ReturnType<typeof signedInOperator>>;
let staff: Awaited<ReturnType<typeof signedInOperator>>;
let riderA: Awaited<ReturnType<typeof signedInOperator>>;
let riderB: Awaited<ReturnType<typeof signedInOperator>>;

beforeAll(async () => {
  admin = await signedInOperator("admin", "管理员小周");
  staff = await signedInOperator("operator", "客服小吴");
  riderA = await signedInOperator("rider", "骑手小李");
  riderB = await signedInOperator("rider", "骑手小王");
  await db().updateTable("operators").set({ phone: "13900000001" }).where("id", "in", [riderA.id, riderB.id]).execute();
});

async function assign(riderId: number, orderNumbers: string[], cookie = admin.cookie) {
  return call(pickAction, post("/admin/pick-list", { intent: "assign", rider: String(riderId), order: orderNumbers, slot: SLOT }, cookie));
}

describe("role checks", () => {
  it("sends a rider from every other admin page to their run, and refuses them the pick list's actions", async () => {
    const page = await call(ordersLoader, request("/admin/orders", { cookie: riderA.cookie }));
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/admin/run");
    const order = await insertPaidTestOrder();
    const posted = await call(pickAction, post("/admin/pick-list", { intent: "assign", rider: String(riderA.id), order: order.order_number }, riderA.cookie));
    expect(posted.headers.get("Location")).toBe("/admin/run");
    expect((await orderRow(order.order_number)).rider_id).toBeNull();
    const roster = await call(ridersLoader, request("/admin/riders", { cookie: riderA.cookie }));
    expect(roster.headers.get("Location")).toBe("/admin/run");
  });

  it("lets only the admin role assign and keep the roster", async () => {
    const order = await insertPaidTestOrder();
    const refused = await assign(riderA.id, [order.order_number], staff.cookie);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(await refused.json())).toContain(m.adminOnly);
    const roster = await call(ridersLoader, request("/admin/riders", { cookie: staff.cookie }));
    expect(roster.status).toBe(403);
    const anonymous = await call(runLoader, request("/admin/run"));
    expect(anonymous.headers.get("Location")).toMatch(/^\/admin\/login/);
  });
});

describe("the roster", () => {
  it("adds a rider with a form post, keeps what was typed on a refusal, and toggles availability", async () => {
    const bad = await call(ridersAction, post("/admin/riders", { intent: "create", username: "rider-new", displayName: "骑手小陈", phone: "123", password: "long-enough-1" }, admin.cookie));
    expect(bad.status).toBe(400);
    const reply = (await bad.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.error.phone).toEqual([m.phoneInvalid]);
    expect(reply.initialValue.displayName).toBe("骑手小陈");
    expect(reply.initialValue.password).toBeUndefined();

    const made = await call(ridersAction, post("/admin/riders", { intent: "create", username: "Rider-New", displayName: "骑手小陈", phone: "13912345678", password: "long-enough-1" }, admin.cookie));
    expect(made.headers.get("Location")).toBe("/admin/riders?notice=created");
    const again = await call(ridersAction, post("/admin/riders", { intent: "create", username: "rider-new", displayName: "骑手小陈", phone: "13912345678", password: "long-enough-1" }, admin.cookie));
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: Record<string, string[]> }).error.username).toEqual([m.usernameTaken]);

    const row = await db().selectFrom("operators").selectAll().where("username", "=", "rider-new").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ role: "rider", phone: "13912345678", available: 1 });
    const login = await loginOperator("rider-new", "long-enough-1", "10.9.0.2", { request: new Request("http://localhost/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
    expect(login.ok).toBe(true);

    await call(ridersAction, post("/admin/riders", { intent: "availability", rider: String(row.id), available: "0" }, admin.cookie));
    const listed = (await (await call(ridersLoader, request("/admin/riders", { cookie: admin.cookie }))).json()) as { riders: { id: number; available: boolean; phone: string | null }[] };
    expect(listed.riders.find((rider) => rider.id === row.id)).toMatchObject({ available: false, phone: "13912345678" });
    const order = await insertPaidTestOrder();
    const refused = await assign(row.id, [order.order_number]);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(await refused.json())).toContain(m.riderUnavailable);
    expect((await db().selectFrom("admin_audit").select("action").where("action", "=", "rider_create").execute()).length).toBeGreaterThan(0);
  });
});

describe("assignments", () => {
  it("assigns a paid order (骑手已接单, a handover code, audited) and reassigns it", async () => {
    const order = await insertPaidTestOrder();
    const done = await assign(riderA.id, [order.order_number]);
    expect(done.headers.get("Location")).toContain("notice=assigned&assigned=1");
    const listed = (await (await call(pickLoader, request(done.headers.get("Location")!, { cookie: admin.cookie }))).json()) as { done: string | null };
    expect(listed.done).toBe(m.assigned.replace("{assigned}", "1"));
    const assigned = await orderRow(order.order_number);
    expect(assigned).toMatchObject({ status: "assigned", rider_id: riderA.id });
    expect(assigned.handover_code).toMatch(/^\d{4}$/);
    await assign(riderB.id, [order.order_number]);
    const moved = await orderRow(order.order_number);
    expect(moved).toMatchObject({ status: "assigned", rider_id: riderB.id, handover_code: assigned.handover_code });
    expect(await auditOf(order.order_number)).toEqual([
      { action: "rider_assign", operator_name: "管理员小周", detail: "骑手小李" },
      { action: "rider_reassign", operator_name: "管理员小周", detail: "骑手小李 → 骑手小王" },
    ]);
    const events = await db().selectFrom("order_events").select(["type"]).where("order_id", "=", order.id).execute();
    expect(events.map((event) => event.type)).toEqual(["assigned"]);
  });

  it("assigns a selection, and a whole station's parcels of the slot; skips finished orders", async () => {
    const [one, two] = [await insertPaidTestOrder([{ station: "东门驿站", code: "1-1-1" }]), await insertPaidTestOrder([{ station: "东门驿站", code: "1-1-2" }])];
    const other = await insertPaidTestOrder([{ station: "西门丰巢", code: "2-2-2" }]);
    const finished = await insertPaidTestOrder([{ station: "东门驿站", code: "1-1-3" }], { status: "completed" });
    const station = await call(pickAction, post("/admin/pick-list", { intent: "assign-station", rider: String(riderB.id), station: "东门驿站", slot: SLOT }, admin.cookie));
    expect(station.headers.get("Location")).toContain("notice=assigned&assigned=2");
    expect((await orderRow(one.order_number)).rider_id).toBe(riderB.id);
    expect((await orderRow(two.order_number)).rider_id).toBe(riderB.id);
    expect((await orderRow(other.order_number)).rider_id).toBeNull();
    const selection = await assign(riderA.id, [other.order_number, finished.order_number]);
    expect(selection.headers.get("Location")).toContain("notice=assigned&assigned=1&skipped=1");
    expect((await orderRow(finished.order_number)).rider_id).toBeNull();
    const empty = await call(pickAction, post("/admin/pick-list", { intent: "assign", rider: String(riderA.id), slot: SLOT }, admin.cookie));
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain(m.noOrdersChosen);
  });
});

describe("the run", () => {
  it("marks parcels picked (正在取件, then 配送中) for the order's rider only, and lists the drop by building and room", async () => {
    const order = await insertPaidTestOrder([
      { station: "梨园菜鸟驿站", code: "5-1-0001", deadline: "今天18:00前", phoneTail: "9999" },
      { station: "东门驿站", code: "5-1-0002" },
    ]);
    await assign(riderA.id, [order.order_number]);
    const other = await call(runAction, post("/admin/run", { intent: "pick", order: order.order_number, position: "0", picked: "1" }, riderB.cookie));
    expect(other.status).toBe(403);
    expect(JSON.stringify(await other.json())).toContain(m.notYours);

    const run = (await (await call(runLoader, request(`/admin/run?slot=${SLOT}`, { cookie: riderA.cookie }))).json()) as {
      stations: { station: string; deadlines: string[]; parcels: { orderNumber: string }[] }[];
    };
    expect(run.stations.find((group) => group.station === "梨园菜鸟驿站")?.deadlines).toEqual(["今天18:00前"]);

    await call(runAction, post("/admin/run", { intent: "pick", order: order.order_number, position: "0", picked: "1", slot: SLOT }, riderA.cookie));
    expect((await orderRow(order.order_number)).status).toBe("picking");
    await call(runAction, post("/admin/run", { intent: "pick", order: order.order_number, position: "1", picked: "1", slot: SLOT }, riderA.cookie));
    expect((await orderRow(order.order_number)).status).toBe("delivering");

    const after = (await (await call(runLoader, request(`/admin/run?slot=${SLOT}`, { cookie: riderA.cookie }))).json()) as {
      buildings: { building: string; rooms: { room: string; orders: { orderNumber: string; recipientName: string; phoneTail: string; check: unknown }[] }[] }[];
    };
    const drop = after.buildings.flatMap((b) => b.rooms.flatMap((r) => r.orders)).find((o) => o.orderNumber === order.order_number);
    expect(drop).toMatchObject({ recipientName: "张三", phoneTail: "1234", check: { state: "mismatch", labelTail: "9999", orderTail: "1234" } });
    // Rider B's run holds none of A's orders.
    const runB = JSON.stringify(await (await call(runLoader, request(`/admin/run?slot=${SLOT}`, { cookie: riderB.cookie }))).json());
    expect(runB).not.toContain(order.order_number);
  });
});

describe("the handover", () => {
  async function ready(rider = riderA) {
    const order = await insertPaidTestOrder();
    await assign(rider.id, [order.order_number]);
    await call(runAction, post("/admin/run", { intent: "pick", order: order.order_number, position: "0", picked: "1" }, rider.cookie));
    return orderRow(order.order_number);
  }
  const wrongOf = (code: string) => String((Number(code) + 1) % 10000).padStart(4, "0");

  it("shows the student the code, refuses a wrong one with a count, and completes with the right one", async () => {
    const order = await ready();
    expect(order.status).toBe("delivering");
    expect((await orderDetail(order)).handover_code).toBe(order.handover_code);
    const malformed = await call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: "12" }, riderA.cookie));
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ order: order.order_number, message: m.codeFormat });
    const wrong = await call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: wrongOf(order.handover_code!) }, riderA.cookie));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ order: order.order_number, message: m.codeWrong.replace("{n}", String(HANDOVER_MAX_FAILURES - 1)) });
    const right = await call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderA.cookie));
    expect(right.headers.get("Location")).toContain(`notice=delivered&order=${order.order_number}`);
    // The run says which order was delivered, from the notice in its address.
    const after = (await (await call(runLoader, request(right.headers.get("Location")!, { cookie: riderA.cookie }))).json()) as { delivered: string | null };
    expect(after.delivered).toBe(order.order_number);
    const done = await orderRow(order.order_number);
    expect(done).toMatchObject({ status: "completed", delivered_by: "code", handover_failures: 1 });
    expect((await orderDetail(done)).handover_code).toBeNull();
    expect((await auditOf(order.order_number)).map((row) => row.action)).toEqual(["rider_assign", "picking", "delivering", "handover_failed", "handover"]);
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
  });

  it("locks the code after five wrong ones, even when they arrive together", async () => {
    const order = await ready();
    const wrong = wrongOf(order.handover_code!);
    await Promise.all(Array.from({ length: 8 }, () => call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: wrong }, riderA.cookie))));
    expect((await orderRow(order.order_number)).handover_failures).toBe(HANDOVER_MAX_FAILURES);
    const right = await call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderA.cookie));
    expect(right.status).toBe(409);
    expect(await right.json()).toEqual({ order: order.order_number, message: m.codeLocked });
    expect((await orderRow(order.order_number)).status).toBe("delivering");
  });

  it("completes once when two riders (and the same rider twice) hand over at the same time", async () => {
    const order = await ready();
    const answers = await Promise.all([
      call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderA.cookie)),
      call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderA.cookie)),
      call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderB.cookie)),
    ]);
    expect(answers.filter((answer) => answer.status === 302)).toHaveLength(1);
    expect(answers[2]!.status).toBe(403);
    const events = await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).where("type", "=", "completed").execute();
    expect(events).toHaveLength(1);
    const messages = await db().selectFrom("admin_audit").select("action").where("order_number", "=", order.order_number).where("action", "=", "handover").execute();
    expect(messages).toHaveLength(1);
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
  });

  it("refuses the code of an order reassigned away from the rider", async () => {
    const order = await ready();
    await assign(riderB.id, [order.order_number]);
    const refused = await call(runAction, post("/admin/run", { intent: "handover", order: order.order_number, code: order.handover_code! }, riderA.cookie));
    expect(refused.status).toBe(403);
    expect((await orderRow(order.order_number)).status).toBe("delivering");
  });
});

describe("the pick list", () => {
  it("shows the slot's parcels by station with code, carrier, size, order, deadline and rider; 已取到 is stored per parcel", async () => {
    const order = await insertPaidTestOrder([{ station: "南区快递站", code: "7-7-7777", deadline: "3天内" }], { estimated_delivery_at: SLOT_EVENING });
    await assign(riderA.id, [order.order_number]);
    const page = (await (await call(pickLoader, request(`/admin/pick-list?slot=${SLOT_EVENING}`, { cookie: staff.cookie }))).json()) as {
      slot: string;
      canAssign: boolean;
      stations: { station: string; deadlines: string[]; parcels: { code: string; company: string; size: string; orderNumber: string; riderName: string; picked: boolean }[] }[];
    };
    expect(page.canAssign).toBe(false);
    expect(page.stations).toEqual([
      { station: "南区快递站", deadlines: ["3天内"], parcels: [expect.objectContaining({ code: "7-7-7777", company: "中通快递", size: "小件", orderNumber: order.order_number, riderName: "骑手小李", picked: false })] },
    ]);
    const marked = await call(pickAction, post("/admin/pick-list", { intent: "pick", order: order.order_number, position: "0", picked: "1", slot: page.slot }, staff.cookie));
    expect(marked.status).toBe(302);
    const list = await pickList(SLOT_EVENING);
    expect(list.parcels[0]).toMatchObject({ picked: true });
    expect((await orderRow(order.order_number)).status).toBe("delivering");
  });

  it("the loader serves 500 parcels of a slot within 300 ms", async () => {
    const slot = slotAt(3, "05:30");
    const stations = ["梨园菜鸟驿站", "东门驿站", "西门丰巢", "南区快递站", "北苑驿站"];
    const rows = Array.from({ length: 250 }, (_, i) => ({
      parcels: [0, 1].map((k) => ({ station: stations[(i + k) % stations.length]!, code: `${k + 1}-${i % 9}-${String(1000 + i)}`, deadline: k ? "今天18:00前" : undefined })),
    }));
    for (const row of rows) await insertPaidTestOrder(row.parcels, { estimated_delivery_at: slot, rider_id: riderA.id, status: "assigned" });
    const load = () => call(pickLoader, request(`/admin/pick-list?slot=${slot}`, { cookie: admin.cookie }));
    await load(); // warm
    const started = performance.now();
    const page = (await (await load()).json()) as { parcels: number; stations: unknown[] };
    const ms = performance.now() - started;
    expect(page.parcels).toBe(500);
    expect(page.stations).toHaveLength(5);
    if (process.env.SHOW_TIMINGS) process.stderr.write(`pick list of 500 parcels: ${ms.toFixed(1)} ms\n`);
    expect(ms).toBeLessThan(300);
  });
});
