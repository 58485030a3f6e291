import { requestReadMemo } from "../log.server";
import { compiledOnce } from "./compiled.server";
import { db, type DB } from "./db.server";

// Reference data (decision 056): schools, campuses, forum categories, delivery slots, coupon
// templates and grant rules, school calendars. Operators change them a few times a term; pages
// read them on every request. Each server keeps them in memory under the value of
// reference_version, which triggers raise on every change of those tables (migration 0056). A
// request reads that one row once (a GET once for the whole request; an action each time, as its
// own writes may have raised it), and a copy taken under another value is read afresh, so a
// change made through any server is seen by every server on its next request.

const versionQuery = compiledOnce(() => db().selectFrom("reference_version").select("version").where("id", "=", 1));

function referenceVersion(): Promise<number> {
  return requestReadMemo("reference-version", async () => (await versionQuery.executeTakeFirst())?.version ?? -1);
}

type Entry<T> = { version: number; value: Promise<T> };

/**
 * `load` kept per database and arguments while reference_version stays the same. The value is
 * shared by every request: it is frozen (arrays and their items) so that no caller changes it.
 * A load that fails is not kept.
 */
export function referenceCached<Args extends (string | number)[], T>(load: (...args: Args) => Promise<T>): (...args: Args) => Promise<T> {
  const byDatabase = new WeakMap<DB, Map<string, Entry<T>>>();
  return async (...args) => {
    const version = await referenceVersion();
    const database = db();
    let entries = byDatabase.get(database);
    if (!entries) byDatabase.set(database, (entries = new Map()));
    const key = args.join("\u0000");
    const entry = entries.get(key);
    if (entry && entry.version === version) return entry.value;
    const value = load(...args).then(frozen);
    const kept = { version, value };
    entries.set(key, kept);
    value.catch(() => entries.get(key) === kept && entries.delete(key));
    return value;
  };
}

function frozen<T>(value: T): T {
  if (Array.isArray(value)) for (const item of value) if (item && typeof item === "object") Object.freeze(item);
  return value && typeof value === "object" ? Object.freeze(value) : value;
}
