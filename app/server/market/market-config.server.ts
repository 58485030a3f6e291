import { DEFAULT_PACKAGE_TYPES, PACKAGE_TYPE_KEYS, type PackageTypeKey } from "~/lib/catalog";
import { DEFAULT_DELIVERY_SCHEDULE, type DeliverySlot } from "~/lib/delivery-slot";
import { DEFAULT_SIZE_GUIDE, defaultPickupPlaces, type SizeStandard } from "~/lib/market-catalog";
import { fenToYuan } from "~/lib/money";
import type { PricedType } from "~/lib/package-counts";
import { campusConfig, findCampus } from "../campus/campus.server";
import { db, type DB } from "../db/db.server";
import { referenceCached } from "../db/reference-cache.server";
import { log } from "../log.server";

export type PackageTypeConfig = PricedType & { desc: string; standards: SizeStandard[] };

export type ExpressConfig = {
  campusCode: string;
  campusName: string;
  packageTypes: PackageTypeConfig[];
  buildings: string[];
  pickupPlaces: string[];
};

/** A campus without an express service (`not_opened`) or with rows that do not make one (`config_broken`). */
export type ExpressConfigRefusal = "not_opened" | "config_broken";

export type ExpressConfigResult =
  /** `fallback`: the database could not be read and these are the product rules' defaults. */
  | { ok: true; config: ExpressConfig; fallback: boolean }
  /** `reset`: the stored campus choice is dropped and the selector reopens. */
  | { ok: false; reason: ExpressConfigRefusal; reset: true };

function isPackageType(value: string): value is PackageTypeKey {
  return (PACKAGE_TYPE_KEYS as readonly string[]).includes(value);
}

function parseExamples(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
  } catch {
    return [];
  }
}

/** The defaults the product rules fall back to when the config cannot be loaded. */
export function fallbackConfig(campusCode: string, campusName: string, buildings: string[] = []): ExpressConfig {
  return {
    campusCode,
    campusName,
    packageTypes: DEFAULT_PACKAGE_TYPES.map((type) => ({
      type: type.type,
      name: type.name,
      desc: type.description,
      priceFen: type.priceFen,
      standards: DEFAULT_SIZE_GUIDE[type.type],
    })),
    buildings,
    pickupPlaces: defaultPickupPlaces(campusCode),
  };
}

/**
 * A campus's express service: package types with their size guide, dorm buildings, pickup
 * places. A campus that is not open or has no package types has no express service; a campus
 * whose rows are inconsistent has a broken config; a database failure falls back to defaults.
 */
export async function loadExpressConfig(campusCode: string): Promise<ExpressConfigResult> {
  let campus;
  try {
    campus = await findCampus(campusCode);
  } catch (error) {
    log("error", "express-config", { campusCode, error: String(error) });
    return { ok: true, config: fallbackConfig(campusCode, campusCode), fallback: true };
  }
  if (!campus) return { ok: false, reason: "config_broken", reset: true };
  if (!campus.active) return { ok: false, reason: "not_opened", reset: true };
  try {
    const [{ buildings, packageTypes }, standards, places] = await Promise.all([
      campusConfig(campusCode),
      db()
        .selectFrom("package_type_standards")
        .select(["type", "title", "description", "examples"])
        .where("campus_code", "=", campusCode)
        .orderBy("sort_order")
        .orderBy("id")
        .execute(),
      db()
        .selectFrom("pickup_places")
        .select(["name", "enabled"])
        .where("campus_code", "=", campusCode)
        .orderBy("sort_order")
        .orderBy("id")
        .execute(),
    ]);
    if (packageTypes.length === 0) return { ok: false, reason: "not_opened", reset: true };
    const broken =
      buildings.length === 0 ||
      packageTypes.some((row) => !isPackageType(row.type) || !row.name.trim() || !Number.isInteger(row.price_fen) || row.price_fen <= 0);
    if (broken) return { ok: false, reason: "config_broken", reset: true };
    return {
      ok: true,
      fallback: false,
      config: {
        campusCode,
        campusName: campus.name,
        buildings: buildings.map((row) => row.name),
        // No rows at all: the defaults; rows all turned off by an operator: none.
        pickupPlaces: places.length > 0 ? places.filter((row) => row.enabled === 1).map((row) => row.name) : defaultPickupPlaces(campusCode),
        packageTypes: packageTypes.map((row) => ({
          type: row.type as PackageTypeKey,
          name: row.name,
          desc: row.description,
          priceFen: row.price_fen,
          standards: standards
            .filter((standard) => standard.type === row.type)
            .map((standard) => ({ title: standard.title, desc: standard.description, examples: parseExamples(standard.examples) })),
        })),
      },
    };
  } catch (error) {
    log("error", "express-config", { campusCode, error: String(error) });
    return { ok: true, config: fallbackConfig(campusCode, campus.name), fallback: true };
  }
}

/** The product rules' init_info data: package_types keyed by type (price in yuan), dorm_list, value. */
export function initInfoData(config: ExpressConfig) {
  return {
    package_types: Object.fromEntries(
      config.packageTypes.map((type) => [
        type.type,
        { name: type.name, desc: type.desc, price: fenToYuan(type.priceFen), price_fen: type.priceFen, standards: type.standards },
      ]),
    ),
    dorm_list: config.buildings,
    pickup_places: config.pickupPlaces,
    value: config.campusName,
  };
}

/**
 * The delivery schedule from the database; the product rules' default when it is empty or
 * unreadable. `executor` reads it inside the caller's transaction (the pay confirmation's promise).
 */
export async function loadDeliverySchedule(executor?: Pick<DB, "selectFrom">): Promise<DeliverySlot[]> {
  return executor ? readDeliverySchedule(executor) : cachedDeliverySchedule();
}

/** Outside a transaction: the copy kept until an operator changes the slots (decision 056). */
const cachedDeliverySchedule = referenceCached(() => readDeliverySchedule(db()));

async function readDeliverySchedule(executor: Pick<DB, "selectFrom">): Promise<DeliverySlot[]> {
  try {
    const rows = await executor
      .selectFrom("delivery_slots")
      .select(["id", "order_start_time", "order_end_time", "delivery_start_time", "delivery_end_time", "estimated_time"])
      .orderBy("sort_order")
      .orderBy("id")
      .execute();
    return rows.length > 0 ? rows : DEFAULT_DELIVERY_SCHEDULE;
  } catch (error) {
    log("error", "delivery-schedule", { error: String(error) });
    return DEFAULT_DELIVERY_SCHEDULE;
  }
}
