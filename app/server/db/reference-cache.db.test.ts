import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { listCampuses } from "../campus/campus.server";
import { runWithRequestContext } from "../log.server";
import { REFERENCE_TABLES } from "./migrations/0056_reference_version";
import { db, dialect } from "./db.server";
import { referenceCached } from "./reference-cache.server";

async function version() {
  return (await db().selectFrom("reference_version").select("version").executeTakeFirstOrThrow()).version;
}

/** A loader of the campus names that counts its reads of the table. */
function countingCampusNames() {
  const counter = { reads: 0 };
  const names = referenceCached(async () => {
    counter.reads += 1;
    return (await db().selectFrom("campuses").select("name").orderBy("code").execute()).map((row) => row.name);
  });
  return { names, counter };
}

describe("reference_version", () => {
  it.each(REFERENCE_TABLES)("%s: an insert, an update and a delete each raise it, whatever code path wrote them", async (table) => {
    const events =
      dialect() === "postgres"
        ? (
            await sql<{ event: string }>`SELECT event_manipulation AS event FROM information_schema.triggers
              WHERE event_object_table = ${table} AND action_statement LIKE '%reference_changed%'`.execute(db())
          ).rows.map((row) => row.event)
        : (
            await sql<{ sql: string }>`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ${table} AND sql LIKE '%reference_version%'`.execute(db())
          ).rows.map((row) => /AFTER (INSERT|UPDATE|DELETE)/.exec(row.sql)?.[1]);
    expect(events.sort()).toEqual(["DELETE", "INSERT", "UPDATE"]);
  });

  it("rises when an operator adds, renames and removes a campus", async () => {
    const before = await version();
    await db().insertInto("campuses").values({ code: "ref-test", name: "缓存校区", status: "active", sort_order: 99 }).execute();
    const added = await version();
    expect(added).toBeGreaterThan(before);
    await sql`UPDATE campuses SET name = '改名校区' WHERE code = 'ref-test'`.execute(db());
    const renamed = await version();
    expect(renamed).toBeGreaterThan(added);
    await db().deleteFrom("campuses").where("code", "=", "ref-test").execute();
    expect(await version()).toBeGreaterThan(renamed);
  });
});

describe("referenceCached", () => {
  it("reads the table once while nothing changes, and afresh after any change", async () => {
    const { names, counter } = countingCampusNames();
    const first = await names();
    expect(await names()).toBe(first);
    expect(counter.reads).toBe(1);

    await db().insertInto("campuses").values({ code: "ref-new", name: "新建校区", status: "active", sort_order: 99 }).execute();
    expect(await names()).toContain("新建校区");
    expect(counter.reads).toBe(2);
    await db().deleteFrom("campuses").where("code", "=", "ref-new").execute();
    expect(await names()).not.toContain("新建校区");
  });

  it("hands out a frozen copy: no caller can change what the next request reads", async () => {
    const campuses = await listCampuses();
    expect(() => {
      (campuses[0] as { name: string }).name = "改掉";
    }).toThrow(TypeError);
    // The list itself is the caller's own.
    campuses.pop();
    expect((await listCampuses()).length).toBe(campuses.length + 1);
  });

  it("a GET reads the version once for the whole request; an action reads it on every call", async () => {
    const { names } = countingCampusNames();
    await names();
    const change = () => db().insertInto("campuses").values({ code: "ref-get", name: "请求中校区", status: "active", sort_order: 99 }).execute();

    await runWithRequestContext(
      "get-request",
      async () => {
        await names();
        await change();
        // Within one GET the first answer holds (nothing a GET does changes reference data).
        expect(await names()).not.toContain("请求中校区");
      },
      { reads: true },
    );
    expect(await names()).toContain("请求中校区");
    await db().deleteFrom("campuses").where("code", "=", "ref-get").execute();

    await runWithRequestContext("post-request", async () => {
      expect(await names()).not.toContain("请求中校区");
      await change();
      // An action's own change is what the loaders after it in the same request show.
      expect(await names()).toContain("请求中校区");
    });
    await db().deleteFrom("campuses").where("code", "=", "ref-get").execute();
  });

  it("does not keep a failed read", async () => {
    let fail = true;
    const flaky = referenceCached(async () => {
      if (fail) throw new Error("database away");
      return ["ok"];
    });
    await expect(flaky()).rejects.toThrow("database away");
    fail = false;
    expect(await flaky()).toEqual(["ok"]);
  });
});
