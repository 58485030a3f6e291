import { CompiledQuery, type Kysely } from "kysely";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { clientNetwork } from "~/lib/client-network";
import { RATE_LIMITED_ACTIONS, retryAfterSeconds, type RateLimitedAction } from "~/lib/rate-limits";
import { config } from "./config.server";
import { db, dialect, type DB } from "./db/db.server";
import { log } from "./log.server";

// Rate limits of the costly actions (the classes and defaults are in app/lib/rate-limits.ts).
// On PostgreSQL the counts live in its table rate_limits (migration 0014), so every instance of
// the app sees the same counts; SQLite serves one instance, whose memory holds them.

/** The table of the shared store (created by migration 0014). */
export const RATE_LIMIT_TABLE = "rate_limits";

type Limiters = { perUser: RateLimiterAbstract; perAddress: RateLimiterAbstract };
let limiters: { key: string; byAction: Map<RateLimitedAction, Limiters> } | undefined;

/** The store's client: rate-limiter-flexible's queries run through the app's own Kysely pool. */
const kyselyClient = {
  query: async (query: { text: string; values?: unknown[] }) => {
    const result = await db().executeQuery(CompiledQuery.raw(query.text, query.values ?? []));
    return { rows: result.rows };
  },
};

function build(): Map<RateLimitedAction, Limiters> {
  const settings = config().rateLimits;
  const shared = dialect() === "postgres";
  const byAction = new Map<RateLimitedAction, Limiters>();
  for (const action of RATE_LIMITED_ACTIONS) {
    const { perUser, perAddress, windowSeconds } = settings[action];
    const make = (scope: "user" | "address", points: number) => {
      const options = { keyPrefix: `${action}:${scope}`, points, duration: windowSeconds };
      return shared
        ? new RateLimiterPostgres({ ...options, storeClient: kyselyClient, storeType: "client", tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout: true })
        : new RateLimiterMemory(options);
    };
    byAction.set(action, { perUser: make("user", perUser), perAddress: make("address", perAddress) });
  }
  return byAction;
}

function limitersFor(action: RateLimitedAction): Limiters {
  // Rebuilt when the configuration changes (tests switch databases and limits).
  const key = `${config().databaseUrl}|${JSON.stringify(config().rateLimits)}`;
  if (!limiters || limiters.key !== key) limiters = { key, byAction: build() };
  return limiters.byAction.get(action)!;
}

/** A refusal says how long to wait (whole seconds); the routes answer it (app/server/http/too-many.ts). */
export type RateLimitVerdict = { ok: true } | { ok: false; retryAfter: number };

/**
 * Counts one attempt of the action for the user and the client network (an IPv6 /64, an IPv4
 * address: app/lib/client-network.ts); refuses it when either is over its limit. A store that cannot answer lets the action through (and logs): a limit must
 * never take the app down with it.
 */
export async function consumeRateLimit(action: RateLimitedAction, who: { userId?: number | null; ip?: string | null }, points = 1): Promise<RateLimitVerdict> {
  const { perUser, perAddress } = limitersFor(action);
  const attempts: Promise<RateLimiterRes>[] = [];
  if (who.userId != null) attempts.push(perUser.consume(String(who.userId), points));
  if (who.ip) attempts.push(perAddress.consume(clientNetwork(who.ip, config().clientIpv6Prefix), points));
  const results = await Promise.allSettled(attempts);
  let refused = false;
  let waitMs = 0;
  for (const result of results) {
    if (result.status === "fulfilled") continue;
    if (result.reason instanceof RateLimiterRes) {
      refused = true;
      waitMs = Math.max(waitMs, result.reason.msBeforeNext);
    } else log("error", "rate-limit-store", { action, error: String(result.reason) });
  }
  if (!refused) return { ok: true };
  const retryAfter = retryAfterSeconds(waitMs);
  log("warn", "rate-limited", { action, userId: who.userId ?? null, retryAfter });
  return { ok: false, retryAfter };
}

/** Removes a user's counters from the shared store (the account-deletion job; keys are "<action>:user:<id>"). */
export async function deleteRateLimitCounts(executor: Pick<DB, "deleteFrom">, userId: number) {
  if (dialect() !== "postgres") return;
  // The table is rate-limiter-flexible's, outside the app's typed schema.
  const store = executor as unknown as Kysely<{ rate_limits: { key: string } }>;
  await store
    .deleteFrom("rate_limits")
    .where("key", "in", RATE_LIMITED_ACTIONS.map((action) => `${action}:user:${userId}`))
    .execute();
}
