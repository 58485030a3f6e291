// Reference data in the admin area on both dialects, through the routes' loaders and
// actions as a browser posts them: only operators with the admin role get in; every form refuses
// bad input with its Chinese message beside the field and stores nothing; every change is one
// audit row; a change reaches what students read at once (no restart, no cache); and nothing a
// student already ordered changes: the order keeps its campus name, address and amounts. Also the
// readiness check: the capabilities that are off, logged as one warning line each.
import { afterEach, describe, expect, it, vi } from "vitest";
import { adminReference } from "~/lib/messages/adminReference";
import { loader as auditLoader } from "~/routes/admin.audit";
import { loader as moderationLoader } from "~/routes/admin.moderation";
import { loader as ordersLoader } from "~/routes/admin.orders";
import { loader as refundsLoader } from "~/routes/admin.refunds";
import { loader as settingsLoader } from "~/routes/admin.settings";
import { action as campusAction, loader as campusLoader } from "~/routes/admin.campuses.$code";
import { action as campusesAction, loader as campusesLoader } from "~/routes/admin.campuses._index";
import { action as slotsAction, loader as slotsLoader } from "~/routes/admin.delivery-slots";
import { action as schoolsAction, loader as schoolsLoader } from "~/routes/admin.schools";
import { listCampuses } from "~/server/campus/campus.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { createOrderFromCheckout } from "~/server/orders/orders.server";
import { config, parseConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { seedReferenceData } from "~/server/db/seed.server";
import { loadDeliverySchedule, loadExpressConfig } from "~/server/market/market-config.server";
import { listSchools } from "~/server/school/school.server";
import { call, createMessengerUser, createStudent, request, sessionCookieFor, postSameOrigin as post } from "../../../tests/setup/helpers";
import { insertTestOrder, signedInOperator } from "../../../tests/setup/orders";
import { logger } from "~/server/log.server";
import { CAPABILITY_OFF_EVENTS, logCapabilityWarnings, offCapabilities } from "./readiness.server";

const e = adminReference.errors;

async function operatorCookie(role: "admin" | "operator" = "admin") {
  return (await signedInOperator(role, role === "admin" ? "管理员小周" : "配送员小李")).cookie;
}

type Reply = { formId: string; reply: { status: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } };

async function replyOf(response: Response) {
  return (await response.json()) as Reply;
}

async function auditRows() {
  return db().selectFrom("admin_audit").select(["action", "operator_name", "detail", "order_number"]).orderBy("id").execute();
}

const postCampuses = (fields: Record<string, string>, cookie: string) => call(campusesAction as never, post("/admin/campuses", fields, cookie));
const postCampus = (code: string, fields: Record<string, string>, cookie: string) =>
  call(campusAction as never, post(`/admin/campuses/${code}`, fields, cookie), { code });
const postSchools = (fields: Record<string, string>, cookie: string) => call(schoolsAction as never, post("/admin/schools", fields, cookie));
const postSlots = (fields: Record<string, string>, cookie: string) => call(slotsAction as never, post("/admin/delivery-slots", fields, cookie));

const PRICES = {
  intent: "prices",
  pocketName: "口袋件",
  pocketDesc: "半个鞋盒",
  pocketPrice: "1.5",
  smallName: "小件",
  smallDesc: "",
  smallPrice: "2",
  mediumName: "中件",
  mediumDesc: "两个鞋盒",
  mediumPrice: "3.2",
  largeName: "大件",
  largeDesc: "三个鞋盒",
  largePrice: "4",
};

/** A campus made through the forms: created, two buildings, a place, open. */
async function openCampus(cookie: string, code: string, name = "北校区") {
  expect((await postCampuses({ intent: "create", code, name }, cookie)).status).toBe(302);
  for (const building of ["北苑1栋", "北苑2栋"]) expect((await postCampus(code, { intent: "add-building", buildingName: building }, cookie)).status).toBe(302);
  expect((await postCampus(code, { intent: "add-place", placeName: "北门菜鸟驿站" }, cookie)).status).toBe(302);
  expect((await postCampus(code, { intent: "campus", name, status: "activate" }, cookie)).status).toBe(302);
}

/** An order on the campus as insertOrder writes it: the campus name, address and amounts snapshotted. */
function placeOrder(campusCode: string, campusName: string) {
  return insertTestOrder({
    campus_code: campusCode,
    campus_name: campusName,
    recipient_dorm: "北苑2栋",
    delivery_address: `${campusName} 北苑2栋302`,
    package_counts: JSON.stringify({ pocket: 2, small: 0, medium: 0, large: 0 }),
    parcel_count: 2,
    original_fen: 300,
    amount_fen: 300,
  });
}

async function orderSnapshot(number: string) {
  return db()
    .selectFrom("orders")
    .select(["campus_code", "campus_name", "recipient_dorm", "delivery_address", "package_counts", "original_fen", "discount_fen", "amount_fen", "estimated_delivery_at", "status"])
    .where("order_number", "=", number)
    .executeTakeFirstOrThrow();
}

describe("who may change the reference data", () => {
  it("sends anonymous visitors and students to the operator login and refuses other operators (403)", async () => {
    const student = await createStudent();
    const studentCookie = await sessionCookieFor(student.id);
    const operator = await operatorCookie("operator");
    const admin = await operatorCookie("admin");
    const before = await auditRows();
    const pages = [
      [campusesLoader, "/admin/campuses", {}],
      [campusLoader, "/admin/campuses/jinpenling", { code: "jinpenling" }],
      [schoolsLoader, "/admin/schools", {}],
      [slotsLoader, "/admin/delivery-slots", {}],
    ] as const;
    for (const [loader, path, params] of pages) {
      const anonymous = await call(loader as never, request(path), params);
      expect(anonymous.status, path).toBe(302);
      expect(anonymous.headers.get("Location")).toBe(`/admin/login?redirectTo=${encodeURIComponent(path)}`);
      const asStudent = await call(loader as never, request(path, { cookie: studentCookie }), params);
      expect(asStudent.status).toBe(302);
      const asOperator = await call(loader as never, request(path, { cookie: operator }), params);
      expect(asOperator.status, path).toBe(403);
      expect(await asOperator.text()).toBe(adminReference.adminOnly);
      expect((await call(loader as never, request(path, { cookie: admin }), params)).status).toBe(200);
    }
    const posts = [
      () => postCampuses({ intent: "create", code: "north", name: "北校区" }, operator),
      () => postCampus("jinpenling", { intent: "add-building", buildingName: "新楼" }, operator),
      () => postSchools({ intent: "create", code: "nu", name: "北方大学", system: "demo", enabled: "on" }, operator),
      () => postSlots({ intent: "delete", id: "1" }, operator),
    ];
    for (const send of posts) expect((await send()).status).toBe(403);
    expect(await db().selectFrom("campuses").select("code").where("code", "=", "north").executeTakeFirst()).toBeUndefined();
    expect(await auditRows()).toEqual(before);
  });
});

describe("campuses", () => {
  it("refuses a bad or taken code and a missing name beside the field, storing nothing", async () => {
    const admin = await operatorCookie();
    const before = await db().selectFrom("campuses").selectAll().execute();
    const cases: [Record<string, string>, string, string][] = [
      [{ intent: "create", code: "北 校区", name: "北校区" }, "code", e.codeFormat],
      [{ intent: "create", code: "-north", name: "北校区" }, "code", e.codeFormat],
      [{ intent: "create", code: "", name: "北校区" }, "code", e.codeRequired],
      [{ intent: "create", code: "north", name: "  " }, "name", e.nameRequired],
      [{ intent: "create", code: "north", name: "北".repeat(31) }, "name", "名称最多 30 个字"],
    ];
    for (const [fields, field, message] of cases) {
      const response = await postCampuses(fields, admin);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const { formId, reply } = await replyOf(response);
      expect(formId).toBe("create");
      expect(reply.error?.[field]).toEqual([message]);
    }
    // What was typed comes back to the form.
    const typed = await replyOf(await postCampuses({ intent: "create", code: "北 校区", name: "北校区" }, admin));
    expect(typed.reply.initialValue).toMatchObject({ code: "北 校区", name: "北校区" });

    await db().insertInto("campuses").values({ code: "taken", name: "已有校区", status: "preparing", sort_order: 9 }).execute();
    const taken = await postCampuses({ intent: "create", code: "taken", name: "另一个" }, admin);
    expect(taken.status).toBe(409);
    expect((await replyOf(taken)).reply.error?.code).toEqual([e.codeTaken]);
    expect(await db().selectFrom("campuses").selectAll().where("code", "!=", "taken").execute()).toEqual(before);
    expect((await auditRows()).filter((row) => row.action.startsWith("campus"))).toEqual([]);
  });

  it("creates a campus 'coming soon' with the four package types, opens it once it has a building, and audits each step", async () => {
    const admin = await operatorCookie();
    const created = await postCampuses({ intent: "create", code: "North-1", name: "北校区" }, admin);
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/admin/campuses/north-1?notice=saved");
    expect(await db().selectFrom("campuses").select(["name", "status"]).where("code", "=", "north-1").executeTakeFirst()).toEqual({ name: "北校区", status: "preparing" });
    const types = await db().selectFrom("package_types").select(["type", "price_fen"]).where("campus_code", "=", "north-1").orderBy("sort_order").execute();
    expect(types).toEqual([
      { type: "pocket", price_fen: 120 },
      { type: "small", price_fen: 200 },
      { type: "medium", price_fen: 300 },
      { type: "large", price_fen: 400 },
    ]);
    // Coming soon: listed for students, not orderable.
    expect((await listCampuses()).find((campus) => campus.code === "north-1")).toMatchObject({ active: false });
    expect(await loadExpressConfig("north-1")).toMatchObject({ ok: false });

    const noBuilding = await postCampus("north-1", { intent: "campus", name: "北校区", status: "activate" }, admin);
    expect(noBuilding.status).toBe(400);
    expect((await replyOf(noBuilding)).reply.error?.status).toEqual([e.needBuilding]);
    const badStatus = await postCampus("north-1", { intent: "campus", name: "北校区", status: "open" }, admin);
    expect((await replyOf(badStatus)).reply.error?.status).toEqual([e.statusInvalid]);

    expect((await postCampus("north-1", { intent: "add-building", buildingName: "北苑1栋" }, admin)).status).toBe(302);
    const duplicate = await postCampus("north-1", { intent: "add-building", buildingName: " 北苑1栋 " }, admin);
    expect(duplicate.status).toBe(409);
    expect(await replyOf(duplicate)).toMatchObject({ formId: "add-building", reply: { error: { buildingName: [e.nameTaken] } } });
    const emptyPlace = await postCampus("north-1", { intent: "add-place", placeName: "" }, admin);
    expect((await replyOf(emptyPlace)).reply.error?.placeName).toEqual([e.nameRequired]);
    expect((await postCampus("north-1", { intent: "add-place", placeName: "北门菜鸟驿站" }, admin)).status).toBe(302);
    expect((await postCampus("north-1", { intent: "campus", name: "北校区（新）", status: "activate" }, admin)).status).toBe(302);

    // Students see it at once: the next read has it, open, with its building and place.
    const express = await loadExpressConfig("north-1");
    expect(express).toMatchObject({ ok: true, config: { campusName: "北校区（新）", buildings: ["北苑1栋"], pickupPlaces: ["北门菜鸟驿站"] } });

    // The only building of an open campus stays on.
    const building = await db().selectFrom("dorm_buildings").select("id").where("campus_code", "=", "north-1").executeTakeFirstOrThrow();
    const last = await postCampus("north-1", { intent: "toggle-building", id: String(building.id), enabled: "0" }, admin);
    expect(last.status).toBe(400);
    expect(await replyOf(last)).toMatchObject({ formId: `toggle-building-${building.id}`, reply: { error: { "": [e.lastBuilding] } } });
    // Another campus's row is not found through this one.
    const foreign = await db().selectFrom("dorm_buildings").select("id").where("campus_code", "!=", "north-1").executeTakeFirst();
    if (foreign) expect((await postCampus("north-1", { intent: "toggle-building", id: String(foreign.id), enabled: "0" }, admin)).status).toBe(404);
    const unknown = await postCampus("nowhere", { intent: "add-building", buildingName: "楼" }, admin);
    expect(unknown.status).toBe(404);

    const audit = (await auditRows()).filter((row) => row.detail?.includes("北校区"));
    expect(audit.map((row) => row.action)).toEqual(["campus_create", "building_add", "place_add", "campus_update"]);
    expect(audit.every((row) => row.operator_name === "管理员小周" && row.order_number === null)).toBe(true);
    expect(audit[0]!.detail).toBe("校区 北校区（north-1）");
    expect(audit[1]!.detail).toBe("北校区 · 宿舍楼 北苑1栋");
    expect(audit[3]!.detail).toBe("校区 北校区（新）（north-1） · 已开通");

    const page = await call(campusLoader as never, request("/admin/campuses/north-1", { cookie: admin }), { code: "north-1" });
    expect(await page.json()).toMatchObject({
      campus: { name: "北校区（新）", status: "activate", buildings: [{ name: "北苑1栋", enabled: true }], places: [{ name: "北门菜鸟驿站", enabled: true }] },
    });
  });

  it("validates prices beside each field and keeps what was typed; a saved price is what the next order costs", async () => {
    const admin = await operatorCookie();
    await openCampus(admin, "price-campus");
    const before = await db().selectFrom("package_types").selectAll().where("campus_code", "=", "price-campus").orderBy("type").execute();
    const bad: [Partial<typeof PRICES>, string, string][] = [
      [{ pocketPrice: "abc" }, "pocketPrice", e.priceFormat],
      [{ smallPrice: "0" }, "smallPrice", e.priceFormat],
      [{ mediumPrice: "1.234" }, "mediumPrice", e.priceFormat],
      [{ largePrice: "1000" }, "largePrice", e.priceFormat],
      [{ largePrice: "-1" }, "largePrice", e.priceFormat],
      [{ pocketName: "" }, "pocketName", e.nameRequired],
      [{ smallDesc: "长".repeat(41) }, "smallDesc", "说明最多 40 个字"],
    ];
    for (const [patch, field, message] of bad) {
      const response = await postCampus("price-campus", { ...PRICES, ...patch }, admin);
      expect(response.status, field).toBe(400);
      const { formId, reply } = await replyOf(response);
      expect(formId).toBe("prices");
      expect(reply.error?.[field]).toEqual([message]);
      expect(reply.initialValue?.[field] ?? "").toBe(patch[field as keyof typeof PRICES]);
    }
    expect(await db().selectFrom("package_types").selectAll().where("campus_code", "=", "price-campus").orderBy("type").execute()).toEqual(before);

    expect((await postCampus("price-campus", PRICES, admin)).status).toBe(302);
    const express = await loadExpressConfig("price-campus");
    if (!express.ok) throw new Error(express.reason);
    expect(express.config.packageTypes.map((type) => [type.type, type.name, type.desc, type.priceFen])).toEqual([
      ["pocket", "口袋件", "半个鞋盒", 150],
      ["small", "小件", "", 200],
      ["medium", "中件", "两个鞋盒", 320],
      ["large", "大件", "三个鞋盒", 400],
    ]);
    const audit = (await auditRows()).filter((row) => row.action === "prices_update");
    expect(audit.at(-1)!.detail).toBe("北校区 · 口袋件 ¥1.5，小件 ¥2，中件 ¥3.2，大件 ¥4");
  });

  it("refuses prices out of size order (口袋 ≤ 小 ≤ 中 ≤ 大) beside the field, storing nothing", async () => {
    const admin = await operatorCookie();
    await openCampus(admin, "order-campus");
    const before = await db().selectFrom("package_types").selectAll().where("campus_code", "=", "order-campus").orderBy("type").execute();
    const bad: [Partial<typeof PRICES>, string][] = [
      // The audit's case: 大件 at ¥0.01, below 口袋件 (every parcel would then cost ¥0.01).
      [{ largePrice: "0.01" }, "largePrice"],
      [{ smallPrice: "1" }, "smallPrice"],
      [{ mediumPrice: "1.9" }, "mediumPrice"],
    ];
    for (const [patch, field] of bad) {
      const response = await postCampus("order-campus", { ...PRICES, ...patch }, admin);
      expect(response.status, field).toBe(400);
      const { reply } = await replyOf(response);
      expect(reply.error?.[field]).toEqual([e.priceOrder]);
      expect(reply.initialValue?.[field]).toBe(patch[field as keyof typeof PRICES]);
    }
    expect(await db().selectFrom("package_types").selectAll().where("campus_code", "=", "order-campus").orderBy("type").execute()).toEqual(before);
    // Equal neighbours are in order.
    expect((await postCampus("order-campus", { ...PRICES, smallPrice: "1.5", mediumPrice: "4" }, admin)).status).toBe(302);
  });

  it("never changes an order already placed: renaming, turning off its building and repricing leave its snapshot", async () => {
    const admin = await operatorCookie();
    await openCampus(admin, "snap-campus", "快照校区");
    const order = await placeOrder("snap-campus", "快照校区");
    const before = await orderSnapshot(order.order_number);

    const building = await db().selectFrom("dorm_buildings").select("id").where("campus_code", "=", "snap-campus").where("name", "=", "北苑2栋").executeTakeFirstOrThrow();
    expect((await postCampus("snap-campus", { intent: "toggle-building", id: String(building.id), enabled: "0" }, admin)).status).toBe(302);
    const place = await db().selectFrom("pickup_places").select("id").where("campus_code", "=", "snap-campus").executeTakeFirstOrThrow();
    expect((await postCampus("snap-campus", { intent: "toggle-place", id: String(place.id), enabled: "0" }, admin)).status).toBe(302);
    expect((await postCampus("snap-campus", { ...PRICES, pocketPrice: "1.9" }, admin)).status).toBe(302);
    expect((await postCampus("snap-campus", { intent: "campus", name: "改名校区", status: "preparing" }, admin)).status).toBe(302);

    expect(await orderSnapshot(order.order_number)).toEqual(before);
    expect(before).toMatchObject({ campus_name: "快照校区", recipient_dorm: "北苑2栋", delivery_address: "快照校区 北苑2栋302", original_fen: 300, amount_fen: 300 });
    // The rows stay (turned off, not deleted): the address and the order still name them.
    expect(await db().selectFrom("dorm_buildings").select(["name", "enabled"]).where("id", "=", building.id).executeTakeFirst()).toEqual({ name: "北苑2栋", enabled: 0 });

    // Turned on again, it is back for students (open the campus again first).
    expect((await postCampus("snap-campus", { intent: "campus", name: "改名校区", status: "activate" }, admin)).status).toBe(302);
    let express = await loadExpressConfig("snap-campus");
    expect(express).toMatchObject({ ok: true, config: { buildings: ["北苑1栋"], pickupPlaces: [] } });
    expect((await postCampus("snap-campus", { intent: "toggle-building", id: String(building.id), enabled: "1" }, admin)).status).toBe(302);
    express = await loadExpressConfig("snap-campus");
    expect(express).toMatchObject({ ok: true, config: { campusName: "改名校区", buildings: ["北苑1栋", "北苑2栋"] } });
    const actions = (await auditRows()).map((row) => row.action);
    expect(actions).toEqual(expect.arrayContaining(["building_disable", "place_disable", "prices_update", "building_enable"]));
  });
});

describe("a building turned off", () => {
  it("takes no new orders to it (the order's price and address come from the live config), and takes them again when back on", async () => {
    const admin = await operatorCookie();
    await openCampus(admin, "off-campus", "停用校区");
    await postCampus("off-campus", PRICES, admin);
    const user = await createMessengerUser({ campus_code: "off-campus" });
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "off-campus", building: "北苑2栋", room: "302", isDefault: true });
    const express = await loadExpressConfig("off-campus");
    if (!express.ok) throw new Error(express.reason);
    const entry = { id: "e-1", company: "中通快递", pickupCode: "5-5-1201", trackingNumber: null, stationName: "北门菜鸟驿站", pickupType: "code" as const, source: "manual" as const };
    await updateCheckout(user.id, express.config.packageTypes, () => ({ set: { entries: [entry] }, result: null }));

    const building = await db().selectFrom("dorm_buildings").select("id").where("campus_code", "=", "off-campus").where("name", "=", "北苑2栋").executeTakeFirstOrThrow();
    await postCampus("off-campus", { intent: "toggle-building", id: String(building.id), enabled: "0" }, admin);
    let checkout = await loadCheckout(user.id, express.config.packageTypes);
    expect(await createOrderFromCheckout(user, "off-campus", { checkoutId: checkout.id, version: checkout.version })).toEqual({ ok: false, reason: "address_not_served" });

    await postCampus("off-campus", { intent: "toggle-building", id: String(building.id), enabled: "1" }, admin);
    checkout = await loadCheckout(user.id, express.config.packageTypes);
    const placed = await createOrderFromCheckout(user, "off-campus", { checkoutId: checkout.id, version: checkout.version });
    if (!placed.ok) throw new Error(placed.reason);
    // One 口袋件 at the operator's ¥1.50, the address as it was.
    expect(await orderSnapshot(placed.orderNumber)).toMatchObject({ campus_name: "停用校区", recipient_dorm: "北苑2栋", original_fen: 150, amount_fen: 150 });
  });
});

describe("a restart", () => {
  it("keeps what operators made: a campus without places gets none, turned-off rows stay off, prices stay", async () => {
    const admin = await operatorCookie();
    expect((await postCampuses({ intent: "create", code: "bare", name: "空校区" }, admin)).status).toBe(302);
    await openCampus(admin, "kept", "保留校区");
    const place = await db().selectFrom("pickup_places").select("id").where("campus_code", "=", "kept").executeTakeFirstOrThrow();
    await postCampus("kept", { intent: "toggle-place", id: String(place.id), enabled: "0" }, admin);
    await postCampus("kept", { ...PRICES, largePrice: "8.8" }, admin);
    const snapshot = async () => ({
      places: await db().selectFrom("pickup_places").select(["campus_code", "name", "enabled"]).where("campus_code", "in", ["bare", "kept"]).orderBy("id").execute(),
      types: await db().selectFrom("package_types").select(["campus_code", "type", "price_fen"]).where("campus_code", "in", ["bare", "kept"]).orderBy("campus_code").orderBy("type").execute(),
      campuses: await db().selectFrom("campuses").select(["code", "status"]).where("code", "in", ["bare", "kept"]).orderBy("code").execute(),
    });
    const before = await snapshot();
    expect(before.places).toEqual([{ campus_code: "kept", name: "北门菜鸟驿站", enabled: 0 }]);
    await seedReferenceData(db());
    expect(await snapshot()).toEqual(before);
  });
});

describe("schools", () => {
  it("stores the GPA rule the operator picks from the set, and refuses one outside it beside the field", async () => {
    const admin = await operatorCookie();
    const fields = { code: "gpa-u", name: "绩点大学", system: "demo", enabled: "on" };
    expect((await postSchools({ intent: "create", ...fields, gpaFormula: "score10" }, admin)).status).toBe(302);
    expect(await db().selectFrom("schools").select("gpa_formula").where("code", "=", "gpa-u").executeTakeFirst()).toEqual({ gpa_formula: "score10" });
    const bad = await postSchools({ intent: "update", ...fields, gpaFormula: "my-own" }, admin);
    expect(bad.status).toBe(400);
    const reply = await replyOf(bad);
    expect(reply.reply.error?.gpaFormula).toEqual([e.gpaFormulaInvalid]);
    expect(reply.reply.initialValue).toMatchObject({ name: "绩点大学" });
    expect((await postSchools({ intent: "update", ...fields, gpaFormula: "pku4" }, admin)).status).toBe(302);
    expect(await db().selectFrom("schools").select("gpa_formula").where("code", "=", "gpa-u").executeTakeFirst()).toEqual({ gpa_formula: "pku4" });
    const page = (await (await call(schoolsLoader as never, request("/admin/schools", { cookie: admin }))).json()) as { formulas: string[]; schools: { code: string; gpaFormula: string }[] };
    expect(page.formulas).toEqual(["standard4", "score10", "pku4", "five", "wes"]);
    expect(page.schools.find((school) => school.code === "gpa-u")?.gpaFormula).toBe("pku4");
  });

  it("validates the adapter kind and its base URL beside the fields, storing nothing", async () => {
    const admin = await operatorCookie();
    const before = await db().selectFrom("schools").selectAll().orderBy("code").execute();
    const cases: [Record<string, string>, string, string][] = [
      [{ code: "nu", name: "北方大学", system: "zfsoft" }, "baseUrl", e.baseUrlRequired],
      [{ code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "ftp://jw.example.edu.cn" }, "baseUrl", e.baseUrlFormat],
      [{ code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "jw.example.edu.cn" }, "baseUrl", e.baseUrlFormat],
      [{ code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "https://jw.example.edu.cn/jwglxt?x=1" }, "baseUrl", e.baseUrlFormat],
      [{ code: "nu", name: "北方大学", system: "urp", baseUrl: "https://jw.example.edu.cn" }, "system", e.systemInvalid],
      [{ code: "NU NU", name: "北方大学", system: "demo" }, "code", e.codeFormat],
      [{ code: "nu", name: "", system: "demo" }, "name", e.nameRequired],
    ];
    for (const [fields, field, message] of cases) {
      const response = await postSchools({ intent: "create", enabled: "on", ...fields }, admin);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      const { formId, reply } = await replyOf(response);
      expect(formId).toBe("create");
      expect(reply.error?.[field]).toEqual([message]);
    }
    const unknown = await postSchools({ intent: "update", code: "no-such", name: "无", system: "demo", enabled: "on" }, admin);
    expect(unknown.status).toBe(404);
    expect(await db().selectFrom("schools").selectAll().orderBy("code").execute()).toEqual(before);
  });

  it("adds a ZFsoft school, turns it off, leaves its students' accounts alone, and audits it", async () => {
    const admin = await operatorCookie();
    const created = await postSchools({ intent: "create", code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "https://jw.example.edu.cn/jwglxt", enabled: "on" }, admin);
    expect(created.status).toBe(302);
    expect(await db().selectFrom("schools").select(["name", "system", "base_url", "enabled"]).where("code", "=", "nu").executeTakeFirst()).toEqual({
      name: "北方大学",
      system: "zfsoft",
      base_url: "https://jw.example.edu.cn/jwglxt",
      enabled: 1,
    });
    expect((await listSchools()).schools).toContainEqual({ school_code: "nu", school_name: "北方大学" });
    const taken = await postSchools({ intent: "create", code: "nu", name: "又一个", system: "demo", enabled: "on" }, admin);
    expect((await replyOf(taken)).reply.error?.code).toEqual([e.codeTaken]);

    const student = await createStudent({ school_code: "nu", student_id: "2023000111" });
    // An unchecked box is absent from the post: the school is turned off.
    const off = await postSchools({ intent: "update", code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "https://jw.example.edu.cn/jwglxt" }, admin);
    expect(off.status).toBe(302);
    expect((await listSchools()).schools.map((school) => school.school_code)).not.toContain("nu");
    expect(await db().selectFrom("users").select(["school_code", "student_id"]).where("id", "=", student.id).executeTakeFirst()).toEqual({
      school_code: "nu",
      student_id: "2023000111",
    });
    const audit = (await auditRows()).filter((row) => row.action.startsWith("school_") && (row.detail ?? "").includes("（nu）"));
    expect(audit.map((row) => [row.action, row.detail])).toEqual([
      ["school_create", "学校 北方大学（nu） · 启用中"],
      ["school_update", "学校 北方大学（nu） · 已停用"],
    ]);
    const page = await call(schoolsLoader as never, request("/admin/schools", { cookie: admin }));
    expect((await page.json()).schools).toContainEqual({ code: "nu", name: "北方大学", system: "zfsoft", baseUrl: "https://jw.example.edu.cn/jwglxt", gpaFormula: "standard4", enabled: false });
  });
});

describe("delivery slots", () => {
  const SLOT = { orderStart: "17:30", orderEnd: "21:00", deliveryStart: "21:00", deliveryEnd: "22:00", estimated: "21:30" };

  it("validates times beside each field and stores nothing", async () => {
    const admin = await operatorCookie();
    const before = await db().selectFrom("delivery_slots").selectAll().orderBy("id").execute();
    const cases: [Partial<typeof SLOT>, string, string][] = [
      [{ orderStart: "25:00" }, "orderStart", e.timeFormat],
      [{ orderEnd: "9:00" }, "orderEnd", e.timeFormat],
      [{ orderEnd: "17:30" }, "orderEnd", e.orderEndAfterStart],
      [{ deliveryEnd: "20:00" }, "deliveryEnd", e.deliveryEndAfterStart],
      [{ estimated: "23:00" }, "estimated", e.estimatedInRange],
      [{ estimated: "" }, "estimated", e.timeFormat],
    ];
    for (const [patch, field, message] of cases) {
      const response = await postSlots({ intent: "create", ...SLOT, ...patch }, admin);
      expect(response.status, field).toBe(400);
      expect((await replyOf(response)).reply.error?.[field]).toEqual([message]);
    }
    expect((await postSlots({ intent: "delete", id: "999999" }, admin)).status).toBe(404);
    expect((await postSlots({ intent: "delete", id: "x" }, admin)).status).toBe(400);
    expect(await db().selectFrom("delivery_slots").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("refuses a slot whose delivery starts before its cut-off (the promise would lie in the past), storing nothing", async () => {
    const admin = await operatorCookie();
    const before = await db().selectFrom("delivery_slots").selectAll().orderBy("id").execute();
    // Orders taken until 21:00 but delivered from 20:00 and promised 20:30: an order at 20:45 is promised a time already past.
    const response = await postSlots({ intent: "create", ...SLOT, deliveryStart: "20:00", estimated: "20:30" }, admin);
    expect(response.status).toBe(400);
    expect((await replyOf(response)).reply.error?.deliveryStart).toEqual([e.deliveryAfterCutoff]);
    expect(await db().selectFrom("delivery_slots").selectAll().orderBy("id").execute()).toEqual(before);
  });

  it("adds, changes and deletes a slot; the schedule students get follows at once; orders keep their promised time", async () => {
    const admin = await operatorCookie();
    const order = await placeOrder("jinpenling", "金盆岭校区");
    const before = await orderSnapshot(order.order_number);
    expect((await postSlots({ intent: "create", ...SLOT }, admin)).status).toBe(302);
    const row = await db().selectFrom("delivery_slots").selectAll().where("order_end_time", "=", "21:00").executeTakeFirstOrThrow();
    expect(await loadDeliverySchedule()).toContainEqual(expect.objectContaining({ order_start_time: "17:30", order_end_time: "21:00", delivery_start_time: "21:00", delivery_end_time: "22:00", estimated_time: "21:30" }));

    expect((await postSlots({ intent: "update", id: String(row.id), ...SLOT, estimated: "21:45" }, admin)).status).toBe(302);
    expect((await loadDeliverySchedule()).find((slot) => slot.order_end_time === "21:00")?.estimated_time).toBe("21:45");
    const badUpdate = await postSlots({ intent: "update", id: String(row.id), ...SLOT, orderEnd: "08:00" }, admin);
    expect(await replyOf(badUpdate)).toMatchObject({ formId: `update-${row.id}`, reply: { error: { orderEnd: [e.orderEndAfterStart] } } });

    expect((await postSlots({ intent: "delete", id: String(row.id) }, admin)).status).toBe(302);
    expect((await loadDeliverySchedule()).some((slot) => slot.order_end_time === "21:00")).toBe(false);
    expect(await orderSnapshot(order.order_number)).toEqual(before);
    const audit = (await auditRows()).filter((item) => item.action.startsWith("slot_"));
    expect(audit.map((item) => [item.action, item.detail])).toEqual([
      ["slot_create", "时段 17:30–21:00 下单，21:30 送达"],
      ["slot_update", "时段 17:30–21:00 下单，21:45 送达"],
      ["slot_delete", "时段 17:30–21:00 下单，21:45 送达"],
    ]);
  });
  it("gives each page its forms' constraints as data; a refused slot answers beside its field with what was typed", async () => {
    const admin = await operatorCookie();
    const pages = [
      [schoolsLoader, "/admin/schools", {}],
      [campusesLoader, "/admin/campuses", {}],
      [slotsLoader, "/admin/delivery-slots", {}],
    ] as const;
    for (const [loader, path, params] of pages) {
      const data = (await (await call(loader as never, request(path, { cookie: admin }), params)).json()) as { constraint: Record<string, { required?: boolean }> };
      expect(data.constraint.intent, path).toEqual({ required: true });
    }
    const schools = (await (await call(schoolsLoader as never, request("/admin/schools", { cookie: admin }))).json()) as { constraint: Record<string, { required?: boolean }>; limits: { code: number } };
    expect(schools.constraint).toMatchObject({ code: { required: true }, name: { required: true }, baseUrl: { required: false } });
    expect(schools.limits.code).toBe(32);

    const typed = { intent: "create", orderStart: "20:00", orderEnd: "19:00", deliveryStart: "20:30", deliveryEnd: "21:30", estimated: "21:00" };
    const refused = await postSlots(typed, admin);
    expect(refused.status).toBe(400);
    const { formId, reply } = await replyOf(refused);
    expect(formId).toBe("create");
    expect(reply.error?.orderEnd).toEqual([e.orderEndAfterStart]);
    expect(reply.initialValue).toMatchObject(typed);
    // A row that is gone answers at the form, tagged with the posted row's form.
    const missing = await postSlots({ ...typed, intent: "update", id: "999999", orderEnd: "20:30" }, admin);
    expect(missing.status).toBe(404);
    expect(await replyOf(missing)).toMatchObject({ formId: "update-999999", reply: { error: { "": [e.notFound] }, initialValue: { orderEnd: "20:30" } } });
  });
});

describe("readiness", () => {
  afterEach(() => vi.restoreAllMocks());

  it("names payment, template messages and the academic system while they are off, each as one warning line", async () => {
    const production = parseConfig({
      NODE_ENV: "production",
      DATABASE_URL: config().databaseUrl,
      SESSION_SECRET: "s".repeat(32),
      APP_ENCRYPTION_KEY: "ab".repeat(32),
      LOG_LEVEL: "warn",
    });
    await db().updateTable("schools").set({ enabled: 0 }).where("system", "!=", "demo").execute();
    expect((await offCapabilities(production)).map((item) => item.capability)).toEqual(["payment", "template_messages", "academic_system"]);

    // The process's pino logger, listened to at warn whatever this test run's LOG_LEVEL is.
    const target = logger();
    const level = target.level;
    target.level = "warn";
    const events: { level: string; event: string; capability: string }[] = [];
    const warn = vi.spyOn(target, "warn").mockImplementation(((fields: { capability: string }, event: string) => {
      events.push({ level: "warn", event, capability: fields.capability });
    }) as never);
    await logCapabilityWarnings(production);
    warn.mockRestore();
    target.level = level;
    expect(events.map((event) => [event.level, event.event])).toEqual([
      ["warn", "capability-off-payment"],
      ["warn", "capability-off-template-messages"],
      ["warn", "capability-off-academic-system"],
    ]);
    expect(Object.values(CAPABILITY_OFF_EVENTS)).toEqual(events.map((event) => event.event));

    // An enabled school with a real academic system turns that one on; the demo school does not.
    await db().insertInto("schools").values({ code: "demo-only", name: "演示", system: "demo", base_url: null, sort_order: 50, enabled: 1 }).execute();
    expect((await offCapabilities(production)).map((item) => item.capability)).toContain("academic_system");
    const admin = await operatorCookie();
    await postSchools({ intent: "create", code: "real-u", name: "真实大学", system: "zfsoft", baseUrl: "https://jw.example.edu.cn/jwglxt", enabled: "on" }, admin);
    expect((await offCapabilities(production)).map((item) => item.capability)).toEqual(["payment", "template_messages"]);
    // Every admin page carries the banner's lines (this process's config: the test's, no merchant).
    await db().updateTable("schools").set({ enabled: 0 }).where("code", "=", "real-u").execute();
    const pages = [
      [ordersLoader, "/admin/orders"],
      [refundsLoader, "/admin/refunds"],
      [auditLoader, "/admin/audit"],
      [moderationLoader, "/admin/moderation"],
      [settingsLoader, "/admin/settings"],
      [campusesLoader, "/admin/campuses"],
      [schoolsLoader, "/admin/schools"],
      [slotsLoader, "/admin/delivery-slots"],
    ] as const;
    for (const [loader, path] of pages) {
      const page = await call(loader as never, request(path, { cookie: admin }));
      const { readiness } = (await page.json()) as { readiness: { lines: string[] } };
      expect(readiness.lines, path).toEqual(Object.values(adminReference.readiness));
    }
  });
});
