import { DEFAULT_COUPON_TEMPLATES, DEFAULT_GRANT_RULES } from "~/lib/coupon-rules";
import { DEFAULT_CAMPUSES, DEFAULT_FORUM_CATEGORIES, DEFAULT_PACKAGE_TYPES, DEFAULT_SCHOOLS } from "~/lib/catalog";
import { DEFAULT_DELIVERY_SCHEDULE } from "~/lib/delivery-slot";
import { DEFAULT_PICKUP_PLACES, DEFAULT_SIZE_GUIDE, defaultPickupPlaces } from "~/lib/market-catalog";
import { seedCircleDemo } from "../forum/demo.server";
import type { DB, Trx } from "./db.server";

/**
 * Reference data. Every installation gets the forum categories, the delivery schedule and the
 * coupon rules. The demo school and the default campuses (with their buildings, package prices,
 * pickup places and size guides) come only with `demo` (development, tests, or SEED_DEMO_DATA=true
 * in production): a production database starts with no school and no campus until an operator
 * adds them in the admin area. Rows that exist are left alone, so operators' changes survive a restart.
 */
export async function seedReferenceData(database: DB, { demo = true }: { demo?: boolean } = {}) {
  await database.transaction().execute(async (trx) => {
    for (const category of DEFAULT_FORUM_CATEGORIES) {
      await trx
        .insertInto("forum_categories")
        .values({
          id: category.id,
          name: category.name,
          description: category.description,
          icon: category.icon,
          sort_order: category.sortOrder,
        })
        .onConflict((oc) => oc.column("id").doNothing())
        .execute();
    }
    await seedDeliverySchedule(trx);
    await seedCouponRules(trx);
    if (!demo) return;
    for (const [index, school] of DEFAULT_SCHOOLS.entries()) {
      await trx
        .insertInto("schools")
        .values({ code: school.code, name: school.name, system: school.system, base_url: school.baseUrl, sort_order: index, enabled: 1 })
        .onConflict((oc) => oc.column("code").doNothing())
        .execute();
    }
    for (const [index, campus] of DEFAULT_CAMPUSES.entries()) {
      const inserted = await trx
        .insertInto("campuses")
        .values({ code: campus.code, name: campus.name, status: campus.status, sort_order: index })
        .onConflict((oc) => oc.column("code").doNothing())
        .returning("code")
        .executeTakeFirst();
      if (!inserted) continue; // an existing campus keeps its own buildings and prices
      for (const [order, name] of campus.buildings.entries()) {
        await trx.insertInto("dorm_buildings").values({ campus_code: campus.code, name, sort_order: order }).execute();
      }
      for (const [order, type] of DEFAULT_PACKAGE_TYPES.entries()) {
        await trx
          .insertInto("package_types")
          .values({
            campus_code: campus.code,
            type: type.type,
            name: type.name,
            description: type.description,
            price_fen: type.priceFen,
            sort_order: order,
          })
          .execute();
      }
    }
    await seedDemoCampusParts(trx);
  });
}


/** The delivery schedule, into an empty table only. */
async function seedDeliverySchedule(trx: Trx) {
  const anySlot = await trx.selectFrom("delivery_slots").select("id").limit(1).executeTakeFirst();
  if (anySlot) return;
  for (const [order, slot] of DEFAULT_DELIVERY_SCHEDULE.entries()) {
    await trx
      .insertInto("delivery_slots")
      .values({ ...slot, estimated_time: slot.estimated_time ?? slot.delivery_end_time, sort_order: order })
      .execute();
  }
}

/**
 * The demo campuses' four pickup places and each package type's size guide, where a campus's part
 * is still empty.
 */
async function seedDemoCampusParts(trx: Trx) {
  const campuses = await trx.selectFrom("campuses").select("code").execute();
  for (const { code } of campuses) {
    // Only the built-in campuses get default places; one an operator made keeps exactly its own.
    const anyPlace = await trx.selectFrom("pickup_places").select("id").where("campus_code", "=", code).limit(1).executeTakeFirst();
    if (!anyPlace && code in DEFAULT_PICKUP_PLACES) {
      for (const [order, name] of defaultPickupPlaces(code).entries()) {
        await trx.insertInto("pickup_places").values({ campus_code: code, name, sort_order: order }).execute();
      }
    }
    const anyStandard = await trx
      .selectFrom("package_type_standards")
      .select("id")
      .where("campus_code", "=", code)
      .limit(1)
      .executeTakeFirst();
    if (anyStandard) continue;
    const types = await trx.selectFrom("package_types").select("type").where("campus_code", "=", code).execute();
    for (const { type } of types) {
      const standards = DEFAULT_SIZE_GUIDE[type as keyof typeof DEFAULT_SIZE_GUIDE] ?? [];
      for (const [order, standard] of standards.entries()) {
        await trx
          .insertInto("package_type_standards")
          .values({
            campus_code: code,
            type,
            title: standard.title,
            description: standard.desc,
            examples: JSON.stringify(standard.examples),
            sort_order: order,
          })
          .execute();
      }
    }
  }
}

/**
 * Coupons (docs/architecture.md "Coupon rules are data"): the templates and grant rules are data. Templates
 * are added by code where missing; the rules only into an empty rule table, so an operator's
 * rules survive a restart.
 */
async function seedCouponRules(trx: Trx) {
  const at = new Date().toISOString();
  for (const template of DEFAULT_COUPON_TEMPLATES) {
    await trx
      .insertInto("coupon_templates")
      .values({
        code: template.code,
        name: template.name,
        type: template.type,
        percent_paid: template.percentPaid,
        fixed_price_fen: template.fixedPriceFen,
        min_amount_fen: template.minAmountFen,
        valid_days: template.validDays,
        created_at: at,
      })
      .onConflict((oc) => oc.column("code").doNothing())
      .execute();
  }
  const anyRule = await trx.selectFrom("coupon_grant_rules").select("id").limit(1).executeTakeFirst();
  if (anyRule) return;
  const templates = await trx.selectFrom("coupon_templates").select(["id", "code"]).execute();
  for (const [order, rule] of DEFAULT_GRANT_RULES.entries()) {
    const template = templates.find((row) => row.code === rule.template);
    if (!template) continue;
    await trx
      .insertInto("coupon_grant_rules")
      .values({ event: rule.event, threshold: rule.threshold, template_id: template.id, quantity: rule.quantity, sort_order: order })
      .execute();
  }
}

/** Demo content for trying the app, only into a database without users. Later capabilities add theirs here. */
export async function seedDemoData(database: DB) {
  const anyUser = await database.selectFrom("users").select("id").limit(1).executeTakeFirst();
  if (anyUser) return false;
  await seedCircleDemo(database);
  return true;
}
