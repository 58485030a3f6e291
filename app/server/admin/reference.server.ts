// Reference data in the admin area: schools, campuses with their dorm buildings,
// pickup places and package prices, and the delivery slots. Every change runs in one
// transaction with its audit row. Students read these tables on each request (campus.server,
// market-config.server, school.server), so a change reaches every instance at once, without a
// restart. Orders never read them back: an order keeps its campus name, address and amounts as
// they were when it was placed (orders.server insertOrder), so nothing here changes an order.
import { CAMPUS_STATUS_ACTIVE, CAMPUS_STATUS_COMING, DEFAULT_PACKAGE_TYPES, PACKAGE_TYPE_KEYS, type PackageTypeKey } from "~/lib/catalog";
import { formatYuan } from "~/lib/money";
import { DEFAULT_SIZE_GUIDE } from "~/lib/market-catalog";
import { adminReference } from "~/lib/messages/adminReference";
import type { CampusForm, SchoolForm, SlotForm } from "~/lib/schemas/adminReference";
import { fillTemplate } from "~/lib/template";
import type { Operator } from "../auth/operator.server";
import { db, isUniqueViolation, type Trx } from "../db/db.server";
import { config } from "../config.server";
import { log } from "../log.server";
import { checkConfiguredUrl } from "../outbound/outbound.server";
import { recordAudit, type AuditAction } from "./audit.server";

const t = adminReference.audit;

type Actor = Pick<Operator, "id" | "display_name">;

/** Why a change was refused. */
export type ReferenceRefusal =
  | "code_taken"
  | "name_taken"
  | "not_found"
  | "need_building"
  | "last_building"
  | "invalid"
  /** A school's base URL that is not http(s), or names an address that is not public (decision 031). */
  | "base_url_format"
  | "base_url_forbidden"
  | "failed";
/** `field` names the form field the refusal belongs beside ("" for the form). */
export type ReferenceResult = { ok: true } | { ok: false; field: string; reason: ReferenceRefusal };

class Refusal extends Error {
  constructor(
    readonly field: string,
    readonly reason: ReferenceRefusal,
  ) {
    super(reason);
  }
}

/** Runs a change and its audit row in one transaction; refusals become field reasons. */
async function change(operation: string, work: (trx: Trx) => Promise<void>): Promise<ReferenceResult> {
  try {
    await db().transaction().execute(work);
    return { ok: true };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, field: error.field, reason: error.reason };
    if (isUniqueViolation(error)) return { ok: false, field: "code", reason: "code_taken" };
    log("error", "reference-data", { operation, error: String(error) });
    return { ok: false, field: "", reason: "failed" };
  }
}

function audit(trx: Trx, operator: Actor, action: AuditAction, detail: string) {
  return recordAudit(trx, operator, { action, detail });
}

// ---------------------------------------------------------------------------------------------
// Schools

export type AdminSchool = { code: string; name: string; system: string; baseUrl: string | null; gpaFormula: string; enabled: boolean };

export async function listSchoolsForAdmin(): Promise<AdminSchool[]> {
  const rows = await db().selectFrom("schools").selectAll().orderBy("sort_order").orderBy("code").execute();
  return rows.map((row) => ({ code: row.code, name: row.name, system: row.system, baseUrl: row.base_url, gpaFormula: row.gpa_formula, enabled: row.enabled === 1 }));
}

export async function saveSchool(operator: Actor, form: SchoolForm): Promise<ReferenceResult> {
  // Every student login calls this address: never one inside our own network (decision 031).
  if (form.baseUrl) {
    const target = await checkConfiguredUrl(form.baseUrl, config().outboundAllowHosts);
    if (!target.ok) return { ok: false, field: "baseUrl", reason: target.reason === "scheme" ? "base_url_format" : "base_url_forbidden" };
  }
  return change(`school_${form.intent}`, async (trx) => {
    const values = { name: form.name, system: form.system, base_url: form.baseUrl || null, gpa_formula: form.gpaFormula, enabled: form.enabled ? 1 : 0 };
    const existing = await trx.selectFrom("schools").select(["code", "name", "enabled"]).where("code", "=", form.code).executeTakeFirst();
    const summary = `${fillTemplate(t.school, { name: form.name, code: form.code })} · ${form.enabled ? adminReference.enabled : adminReference.disabled}`;
    if (form.intent === "create") {
      if (existing) throw new Refusal("code", "code_taken");
      const last = await trx.selectFrom("schools").select((eb) => eb.fn.max("sort_order").as("n")).executeTakeFirst();
      await trx.insertInto("schools").values({ code: form.code, ...values, sort_order: Number(last?.n ?? -1) + 1 }).execute();
      await audit(trx, operator, "school_create", summary);
      return;
    }
    if (!existing) throw new Refusal("", "not_found");
    await trx.updateTable("schools").set(values).where("code", "=", form.code).execute();
    await audit(trx, operator, "school_update", summary);
  });
}

// ---------------------------------------------------------------------------------------------
// Campuses

export type AdminCampusSummary = { code: string; name: string; status: string; buildings: number; places: number };

export async function listCampusesForAdmin(): Promise<AdminCampusSummary[]> {
  const [campuses, buildings, places] = await Promise.all([
    db().selectFrom("campuses").select(["code", "name", "status"]).orderBy("sort_order").orderBy("code").execute(),
    db()
      .selectFrom("dorm_buildings")
      .select(["campus_code", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("enabled", "=", 1)
      .groupBy("campus_code")
      .execute(),
    db()
      .selectFrom("pickup_places")
      .select(["campus_code", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("enabled", "=", 1)
      .groupBy("campus_code")
      .execute(),
  ]);
  const count = (rows: { campus_code: string; n: number | string }[], code: string) => Number(rows.find((row) => row.campus_code === code)?.n ?? 0);
  return campuses.map((campus) => ({ ...campus, buildings: count(buildings, campus.code), places: count(places, campus.code) }));
}

export type AdminCampus = {
  code: string;
  name: string;
  status: string;
  buildings: { id: number; name: string; enabled: boolean }[];
  places: { id: number; name: string; enabled: boolean }[];
  packageTypes: { type: PackageTypeKey; name: string; description: string; priceFen: number }[];
};

export async function campusForAdmin(code: string): Promise<AdminCampus | null> {
  const campus = await db().selectFrom("campuses").select(["code", "name", "status"]).where("code", "=", code).executeTakeFirst();
  if (!campus) return null;
  const [buildings, places, types] = await Promise.all([
    db().selectFrom("dorm_buildings").select(["id", "name", "enabled"]).where("campus_code", "=", code).orderBy("sort_order").orderBy("id").execute(),
    db().selectFrom("pickup_places").select(["id", "name", "enabled"]).where("campus_code", "=", code).orderBy("sort_order").orderBy("id").execute(),
    db().selectFrom("package_types").select(["type", "name", "description", "price_fen"]).where("campus_code", "=", code).execute(),
  ]);
  // The four package types always show, in the catalogue's order (a missing row shows the default).
  const packageTypes = PACKAGE_TYPE_KEYS.map((key) => {
    const row = types.find((type) => type.type === key);
    const fallback = DEFAULT_PACKAGE_TYPES.find((type) => type.type === key)!;
    return row
      ? { type: key, name: row.name, description: row.description, priceFen: row.price_fen }
      : { type: key, name: fallback.name, description: fallback.description, priceFen: fallback.priceFen };
  });
  return {
    ...campus,
    buildings: buildings.map((row) => ({ id: row.id, name: row.name, enabled: row.enabled === 1 })),
    places: places.map((row) => ({ id: row.id, name: row.name, enabled: row.enabled === 1 })),
    packageTypes,
  };
}

/**
 * A new campus starts "coming soon" with the four package types at the default prices and the
 * default size guide; the operator adds buildings and places, sets prices, then opens it.
 */
export function createCampus(operator: Actor, form: { code: string; name: string }): Promise<ReferenceResult> {
  return change("campus_create", async (trx) => {
    const existing = await trx.selectFrom("campuses").select("code").where("code", "=", form.code).executeTakeFirst();
    if (existing) throw new Refusal("code", "code_taken");
    const last = await trx.selectFrom("campuses").select((eb) => eb.fn.max("sort_order").as("n")).executeTakeFirst();
    await trx
      .insertInto("campuses")
      .values({ code: form.code, name: form.name, status: CAMPUS_STATUS_COMING, sort_order: Number(last?.n ?? -1) + 1 })
      .execute();
    for (const [order, type] of DEFAULT_PACKAGE_TYPES.entries()) {
      await trx
        .insertInto("package_types")
        .values({ campus_code: form.code, type: type.type, name: type.name, description: type.description, price_fen: type.priceFen, sort_order: order })
        .execute();
      for (const [index, standard] of DEFAULT_SIZE_GUIDE[type.type].entries()) {
        await trx
          .insertInto("package_type_standards")
          .values({
            campus_code: form.code,
            type: type.type,
            title: standard.title,
            description: standard.desc,
            examples: JSON.stringify(standard.examples),
            sort_order: index,
          })
          .execute();
      }
    }
    await audit(trx, operator, "campus_create", fillTemplate(t.campus, { name: form.name, code: form.code }));
  });
}

async function lockCampus(trx: Trx, code: string) {
  const campus = await trx.selectFrom("campuses").select(["code", "name", "status"]).where("code", "=", code).executeTakeFirst();
  if (!campus) throw new Refusal("", "not_found");
  return campus;
}

async function enabledBuildings(trx: Trx, code: string) {
  const row = await trx
    .selectFrom("dorm_buildings")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("campus_code", "=", code)
    .where("enabled", "=", 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

async function nextOrder(trx: Trx, table: "dorm_buildings" | "pickup_places", code: string) {
  const row = await trx.selectFrom(table).select((eb) => eb.fn.max("sort_order").as("n")).where("campus_code", "=", code).executeTakeFirst();
  return Number(row?.n ?? -1) + 1;
}

/** One of the forms of a campus's page. */
export function saveCampus(operator: Actor, code: string, form: CampusForm): Promise<ReferenceResult> {
  return change(`campus_${form.intent}`, async (trx) => {
    const campus = await lockCampus(trx, code);
    switch (form.intent) {
      case "campus": {
        // An open campus needs a building to deliver to (the market treats none as broken).
        if (form.status === CAMPUS_STATUS_ACTIVE && (await enabledBuildings(trx, code)) === 0) throw new Refusal("status", "need_building");
        await trx.updateTable("campuses").set({ name: form.name, status: form.status }).where("code", "=", code).execute();
        const label = adminReference.statusLabels[form.status] ?? form.status;
        await audit(trx, operator, "campus_update", `${fillTemplate(t.campus, { name: form.name, code })} · ${label}`);
        return;
      }
      case "add-building":
      case "add-place": {
        const table = form.intent === "add-building" ? "dorm_buildings" : "pickup_places";
        const name = form.intent === "add-building" ? form.buildingName : form.placeName;
        const field = form.intent === "add-building" ? "buildingName" : "placeName";
        const same = await trx.selectFrom(table).select(["id", "enabled"]).where("campus_code", "=", code).where("name", "=", name).executeTakeFirst();
        if (same) throw new Refusal(field, "name_taken");
        await trx.insertInto(table).values({ campus_code: code, name, sort_order: await nextOrder(trx, table, code), enabled: 1 }).execute();
        const template = form.intent === "add-building" ? t.building : t.place;
        await audit(trx, operator, form.intent === "add-building" ? "building_add" : "place_add", fillTemplate(template, { campus: campus.name, name }));
        return;
      }
      case "toggle-building":
      case "toggle-place": {
        const building = form.intent === "toggle-building";
        const table = building ? "dorm_buildings" : "pickup_places";
        const row = await trx.selectFrom(table).select(["id", "name", "enabled"]).where("id", "=", form.id).where("campus_code", "=", code).executeTakeFirst();
        if (!row) throw new Refusal("", "not_found");
        if (building && !form.enabled && row.enabled === 1 && campus.status === CAMPUS_STATUS_ACTIVE && (await enabledBuildings(trx, code)) <= 1) {
          throw new Refusal("", "last_building");
        }
        await trx.updateTable(table).set({ enabled: form.enabled ? 1 : 0 }).where("id", "=", row.id).execute();
        const action: AuditAction = building ? (form.enabled ? "building_enable" : "building_disable") : form.enabled ? "place_enable" : "place_disable";
        await audit(trx, operator, action, fillTemplate(building ? t.building : t.place, { campus: campus.name, name: row.name }));
        return;
      }
      case "prices": {
        const parts: string[] = [];
        for (const [order, key] of PACKAGE_TYPE_KEYS.entries()) {
          const values = { name: form[`${key}Name`], description: form[`${key}Desc`] ?? "", price_fen: form[`${key}Price`] };
          const updated = await trx.updateTable("package_types").set(values).where("campus_code", "=", code).where("type", "=", key).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) {
            await trx.insertInto("package_types").values({ campus_code: code, type: key, ...values, sort_order: order }).execute();
          }
          parts.push(`${values.name} ¥${formatYuan(values.price_fen)}`);
        }
        await audit(trx, operator, "prices_update", fillTemplate(t.prices, { campus: campus.name, summary: parts.join("，") }));
        return;
      }
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Delivery slots

export type AdminSlot = {
  id: number;
  orderStart: string;
  orderEnd: string;
  deliveryStart: string;
  deliveryEnd: string;
  estimated: string;
  /** The capacity per campus (null: no limit), every campus listed. */
  capacities: { campus: string; name: string; capacity: number | null }[];
};

export async function listSlotsForAdmin(): Promise<AdminSlot[]> {
  const [rows, campuses, capacities] = await Promise.all([
    db().selectFrom("delivery_slots").selectAll().orderBy("order_end_time").orderBy("id").execute(),
    db().selectFrom("campuses").select(["code", "name"]).orderBy("sort_order").orderBy("code").execute(),
    db().selectFrom("slot_capacities").selectAll().execute(),
  ]);
  return rows.map((row) => ({
    capacities: campuses.map((campus) => ({
      campus: campus.code,
      name: campus.name,
      capacity: capacities.find((line) => line.slot_id === row.id && line.campus_code === campus.code)?.capacity ?? null,
    })),
    id: row.id,
    orderStart: row.order_start_time,
    orderEnd: row.order_end_time,
    deliveryStart: row.delivery_start_time,
    deliveryEnd: row.delivery_end_time,
    estimated: row.estimated_time,
  }));
}

function slotText(slot: { orderStart: string; orderEnd: string; estimated: string }) {
  return fillTemplate(t.slot, { text: fillTemplate(adminReference.slotText, slot) });
}

export function saveSlot(operator: Actor, form: SlotForm): Promise<ReferenceResult> {
  return change(`slot_${form.intent}`, async (trx) => {
    if (form.intent === "capacity") {
      const row = await trx.selectFrom("delivery_slots").selectAll().where("id", "=", form.id).executeTakeFirst();
      if (!row) throw new Refusal("", "not_found");
      const campuses = new Map((await trx.selectFrom("campuses").select(["code", "name"]).execute()).map((campus) => [campus.code, campus.name]));
      const limits: string[] = [];
      for (const line of form.capacities) {
        if (!campuses.has(line.campus)) throw new Refusal("", "invalid");
        await trx.deleteFrom("slot_capacities").where("slot_id", "=", form.id).where("campus_code", "=", line.campus).execute();
        if (line.capacity !== undefined) await trx.insertInto("slot_capacities").values({ slot_id: form.id, campus_code: line.campus, capacity: line.capacity }).execute();
        limits.push(`${campuses.get(line.campus)} ${line.capacity ?? "—"}`);
      }
      const text = fillTemplate(adminReference.slotText, { orderStart: row.order_start_time, orderEnd: row.order_end_time, estimated: row.estimated_time });
      await audit(trx, operator, "slot_capacity", fillTemplate(t.capacity, { text, limits: limits.join("，") }));
      return;
    }
    if (form.intent === "delete") {
      const row = await trx.selectFrom("delivery_slots").selectAll().where("id", "=", form.id).executeTakeFirst();
      if (!row) throw new Refusal("", "not_found");
      await trx.deleteFrom("delivery_slots").where("id", "=", form.id).execute();
      await trx.deleteFrom("slot_capacities").where("slot_id", "=", form.id).execute();
      await audit(trx, operator, "slot_delete", slotText({ orderStart: row.order_start_time, orderEnd: row.order_end_time, estimated: row.estimated_time }));
      return;
    }
    const values = {
      order_start_time: form.orderStart,
      order_end_time: form.orderEnd,
      delivery_start_time: form.deliveryStart,
      delivery_end_time: form.deliveryEnd,
      estimated_time: form.estimated,
    };
    if (form.intent === "create") {
      const last = await trx.selectFrom("delivery_slots").select((eb) => eb.fn.max("sort_order").as("n")).executeTakeFirst();
      await trx.insertInto("delivery_slots").values({ ...values, sort_order: Number(last?.n ?? -1) + 1 }).execute();
      await audit(trx, operator, "slot_create", slotText(form));
      return;
    }
    const updated = await trx.updateTable("delivery_slots").set(values).where("id", "=", form.id).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) throw new Refusal("", "not_found");
    await audit(trx, operator, "slot_update", slotText(form));
  });
}
