// A person's coupons: the grant rules as data, granting by a rule exactly once (the marker's
// unique key), reading the wallet and its summary, the campus's priced package types, quoting an order, and the student's choice of
// coupon on the order-confirm sheet.
import type { Selectable } from "kysely";
import { couponExpiresAt, quoteCoupons, summarizeCoupons, type Quote, type WalletCoupon } from "~/lib/coupons";
import { rulesFor, type GrantEvent, type RuleView } from "~/lib/coupon-rules";
import { DEFAULT_PACKAGE_TYPES } from "~/lib/catalog";
import type { PackageCounts, PricedType } from "~/lib/package-counts";
import type { User } from "../auth/session.server";
import { db, dialect, type Executor } from "../db/db.server";
import { compiledOnce } from "../db/compiled.server";
import { referenceCached } from "../db/reference-cache.server";
import { loadExpressConfig } from "../market/market-config.server";
import type { UserCouponsTable } from "../db/schema";
import { hasMark, identityHashesOf } from "./promotion-identity.server";


export type CouponRow = Selectable<UserCouponsTable>;

export function toWallet(row: CouponRow): WalletCoupon {
  return {
    id: row.id,
    name: row.name,
    templateId: row.template_id,
    status: row.status,
    expiresAt: row.expires_at,
    type: row.type,
    percentPaid: row.percent_paid,
    fixedPriceFen: row.fixed_price_fen,
    minAmountFen: row.min_amount_fen,
  };
}

// ---------------------------------------------------------------------------------------------
// Rules

/** Every grant rule with its template, in sort order. */
export async function loadRules(executor?: Executor): Promise<RuleView[]> {
  return executor ? readRules(executor) : cachedRules();
}

/** Outside a transaction: the copy kept until an operator changes a rule or template (decision 056). */
const cachedRules = referenceCached(() => readRules(db()));

async function readRules(executor: Executor): Promise<RuleView[]> {
  const rows = await executor
    .selectFrom("coupon_grant_rules as r")
    .innerJoin("coupon_templates as t", "t.id", "r.template_id")
    .select([
      "r.event",
      "r.threshold",
      "r.quantity",
      "r.sort_order",
      "t.id as template_id",
      "t.code",
      "t.name",
      "t.type",
      "t.percent_paid",
      "t.fixed_price_fen",
      "t.min_amount_fen",
      "t.valid_days",
    ])
    .orderBy("r.sort_order")
    .orderBy("r.id")
    .execute();
  return rows.map((row) => ({
    event: row.event,
    threshold: row.threshold,
    quantity: row.quantity,
    sortOrder: row.sort_order,
    template: {
      id: row.template_id,
      code: row.code,
      name: row.name,
      type: row.type,
      percentPaid: row.percent_paid,
      fixedPriceFen: row.fixed_price_fen,
      minAmountFen: row.min_amount_fen,
      validDays: row.valid_days,
    },
  }));
}

// ---------------------------------------------------------------------------------------------
// Granting

export type GrantedCoupon = { id: number; name: string; type: "percentage" | "fixed"; percentPaid: number | null; fixedPriceFen: number | null };

/**
 * Grants what the rules of `event` (and `threshold`, for milestones) give, once per `key`: the
 * marker row (user, key) is unique, so of any number of parallel calls exactly one inserts it and
 * issues the coupons; the others answer null. Inside the caller's transaction.
 */
export async function grantOnce(
  trx: Executor,
  input: { userId: number; key: string; via: string; event: GrantEvent; threshold?: number; rules?: RuleView[]; at?: Date },
): Promise<GrantedCoupon[] | null> {
  const at = input.at ?? new Date();
  const marker = await trx
    .insertInto("coupon_grants")
    .values({ user_id: input.userId, grant_key: input.key, via: input.via, created_at: at.toISOString() })
    .onConflict((oc) => oc.columns(["user_id", "grant_key"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!marker) return null;
  const rules = rulesFor(input.rules ?? (await loadRules(trx)), input.event, input.threshold ?? 0);
  const granted: GrantedCoupon[] = [];
  for (const rule of rules) {
    for (let i = 0; i < rule.quantity; i += 1) {
      const row = await trx
        .insertInto("user_coupons")
        .values({
          user_id: input.userId,
          grant_id: marker.id,
          template_id: rule.template.id,
          name: rule.template.name,
          type: rule.template.type,
          percent_paid: rule.template.percentPaid,
          fixed_price_fen: rule.template.fixedPriceFen,
          min_amount_fen: rule.template.minAmountFen,
          status: "unused",
          order_id: null,
          used_at: null,
          expires_at: couponExpiresAt(at, rule.template.validDays),
          created_at: at.toISOString(),
          updated_at: at.toISOString(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      granted.push({ id: row.id, name: rule.template.name, type: rule.template.type, percentPaid: rule.template.percentPaid, fixedPriceFen: rule.template.fixedPriceFen });
    }
  }
  return granted;
}

export const NEW_USER_KEY = "new_user";

/**
 * A new user is a person who has not received the new-user grant (docs/architecture.md "New user"): not
 * on this account row, and not under any of their stable identities (a deleted earlier account).
 */
export async function isNewUser(userId: number, executor: Executor = db()) {
  const marker = await executor
    .selectFrom("coupon_grants")
    .select("id")
    .where("user_id", "=", userId)
    .where("grant_key", "=", NEW_USER_KEY)
    .executeTakeFirst();
  if (marker) return false;
  return !(await hasMark(executor, await identityHashesOf(userId, executor), "new_user"));
}

// ---------------------------------------------------------------------------------------------
// Reading

/** A user's coupons, soonest expiry first (user_coupons_wallet_idx; the query-plan test reads it). */
export function walletQuery(userId: number, executor: Executor = db()) {
  return executor.selectFrom("user_coupons").selectAll().where("user_id", "=", userId).orderBy("expires_at").orderBy("id");
}

export async function walletOf(userId: number, executor?: Executor): Promise<WalletCoupon[]> {
  const rows = await (executor ? walletQuery(userId, executor).execute() : wallet.execute(userId));
  return rows.map(toWallet);
}

// Outside a transaction (every market page): compiled once (db/compiled.server.ts).
const wallet = compiledOnce((userId: number) => walletQuery(userId));

/** The coupons usable now: unused, not expired (user_coupons_wallet_idx). */
export function usableCouponsQuery(executor: Executor, userId: number, now: Date) {
  return executor
    .selectFrom("user_coupons")
    .selectAll()
    .where("user_id", "=", userId)
    .where("status", "=", "unused")
    .where("expires_at", ">", now.toISOString())
    .orderBy("id");
}

/** The coupons an order could use now (unused, not expired). PostgreSQL: locked for the order's transaction. */
export async function usableCoupons(executor: Executor, userId: number, now: Date, options: { lock?: boolean } = {}) {
  let query = usableCouponsQuery(executor, userId, now);
  if (options.lock && dialect() === "postgres") query = query.forUpdate();
  return (await query.execute()).map(toWallet);
}

export async function couponSummary(userId: number, now = new Date()) {
  return summarizeCoupons(await walletOf(userId), now);
}

// ---------------------------------------------------------------------------------------------
// The student's choice on the order-confirm sheet

/** undefined: the best coupon (no choice); null: none; a number: that coupon. */
export type CouponChoice = number | null | undefined;

export async function couponChoice(executor: Executor, userId: number): Promise<CouponChoice> {
  const row = await executor.selectFrom("coupon_choices").select("coupon_id").where("user_id", "=", userId).executeTakeFirst();
  return row ? row.coupon_id : undefined;
}

/** Keeps the user's choice; false (nothing kept) when a coupon id is not one of the user's own coupons. */
export async function setCouponChoice(userId: number, choice: CouponChoice): Promise<boolean> {
  const at = new Date().toISOString();
  if (choice === undefined) {
    await db().deleteFrom("coupon_choices").where("user_id", "=", userId).execute();
    return true;
  }
  if (choice !== null) {
    const own = await db().selectFrom("user_coupons").select("id").where("id", "=", choice).where("user_id", "=", userId).executeTakeFirst();
    if (!own) return false;
  }
  await db()
    .insertInto("coupon_choices")
    .values({ user_id: userId, coupon_id: choice, updated_at: at })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ coupon_id: choice, updated_at: at }))
    .execute();
  return true;
}

/**
 * The quote of these counts for this user: their usable coupons and the choice given (by
 * default the one stored from the sheet; undefined: the best; null: none). Order creation passes its transaction and `lock` (PostgreSQL takes the rows, so
 * a parallel order of the same user waits, then sees the coupon taken and quotes without it).
 */
export async function quoteFor(
  userId: number,
  counts: PackageCounts,
  types: PricedType[],
  options: { executor?: Executor; choice?: CouponChoice | "stored"; lock?: boolean; now?: Date } = {},
): Promise<Quote> {
  const executor = options.executor ?? db();
  const now = options.now ?? new Date();
  const coupons = await usableCoupons(executor, userId, now, { lock: options.lock });
  const wanted = "choice" in options ? options.choice : "stored";
  const choice = wanted === "stored" ? await couponChoice(executor, userId) : wanted;
  return quoteCoupons({ counts, types, coupons, now, choice });
}

/** The campus's package types with their prices (the defaults when the user has no usable campus). */
export async function pricedTypesFor(user: Pick<User, "campus_code">): Promise<PricedType[]> {
  if (user.campus_code) {
    const result = await loadExpressConfig(user.campus_code);
    if (result.ok) return result.config.packageTypes.map(({ type, name, priceFen }) => ({ type, name, priceFen }));
  }
  return DEFAULT_PACKAGE_TYPES.map(({ type, name, priceFen }) => ({ type, name, priceFen }));
}
