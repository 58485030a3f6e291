// SQLite transactions take the write lock when they begin. A deferred one reads first, and when
// another connection (a CLI script, a test helper) commits a write meanwhile, its own write is
// refused at once with "database is locked" (the busy timeout does not apply to that case).
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createStudent } from "../../../tests/setup/helpers";
import { db, dialect, sqlitePath } from "./db.server";

describe.runIf(dialect() === "sqlite")("SQLite transactions", () => {
  it("a write from another connection between the transaction's read and its write does not fail the transaction", async () => {
    const user = await createStudent({ nickname: "锁前" });
    const other = new SQLite(sqlitePath(process.env.DATABASE_URL!), { timeout: 0 });
    let otherWrite = "";
    try {
      await db()
        .transaction()
        .execute(async (trx) => {
          await trx.selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirst();
          try {
            other.prepare("update users set nickname = '另一个' where id = ?").run(user.id);
            otherWrite = "written";
          } catch (error) {
            // With the lock held, the other connection waits (here: no wait allowed, so refused).
            otherWrite = (error as Error).message;
          }
          await trx.updateTable("users").set({ nickname: "事务里" }).where("id", "=", user.id).execute();
        });
    } finally {
      other.close();
    }
    expect(otherWrite).toBe("database is locked");
    expect((await db().selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirst())?.nickname).toBe("事务里");
  });
});
