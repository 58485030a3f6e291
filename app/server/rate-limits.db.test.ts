import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "./config.server";
import { dialect } from "./db/db.server";
import { tooMany } from "./http/too-many";
import { consumeRateLimit } from "./rate-limits.server";

// The rate limiter on each dialect: SQLite keeps its counts in this process; PostgreSQL in its
// rate_limits table (migration 0014), shared by every instance on the database.

const VARIABLE = "RATE_LIMIT_COMMENT";

afterEach(() => {
  delete process.env[VARIABLE];
  resetConfig();
});

describe("consumeRateLimit", () => {
  it("lets the limit through per user, then refuses within the window (answered with its Retry-After and wait); another user still passes", async () => {
    process.env[VARIABLE] = "3,100/60";
    resetConfig();
    const userId = 900_000 + Math.floor(Math.random() * 1000);
    const who = { userId, ip: `10.9.${Math.floor(Math.random() * 250)}.1` };
    for (let i = 0; i < 3; i++) expect((await consumeRateLimit("comment", who)).ok).toBe(true);
    const refused = await consumeRateLimit("comment", who);
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfter).toBeLessThanOrEqual(60);
    const answer = tooMany(refused);
    expect(answer.headers["Retry-After"]).toBe(String(refused.retryAfter));
    expect(answer.message).toMatch(/^操作太频繁，请\d+ (秒|分钟)后再试$/);
    expect((await consumeRateLimit("comment", { userId: userId + 1, ip: who.ip })).ok).toBe(true);
  });

  it("counts per address across users", async () => {
    process.env[VARIABLE] = "100,2/60";
    resetConfig();
    const ip = `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    expect((await consumeRateLimit("comment", { userId: 1, ip })).ok).toBe(true);
    expect((await consumeRateLimit("comment", { userId: 2, ip })).ok).toBe(true);
    expect((await consumeRateLimit("comment", { userId: 3, ip })).ok).toBe(false);
  });

  it.runIf(dialect() === "postgres")("keeps its counts in the shared rate_limits table on PostgreSQL", async () => {
    process.env[VARIABLE] = "5,100/60";
    resetConfig();
    const { db } = await import("./db/db.server");
    const { sql } = await import("kysely");
    const userId = 800_000 + Math.floor(Math.random() * 1000);
    await consumeRateLimit("comment", { userId });
    await consumeRateLimit("comment", { userId });
    const rows = await sql<{ points: number }>`SELECT points FROM rate_limits WHERE key = ${`comment:user:${userId}`}`.execute(db());
    expect(rows.rows.map((row) => Number(row.points))).toEqual([2]);
  });

  it.runIf(dialect() === "postgres")("the account-deletion job removes the person's counters", async () => {
    const { db } = await import("./db/db.server");
    const { sql } = await import("kysely");
    const { createStudent } = await import("../../tests/setup/helpers");
    const { deleteUserData } = await import("./users/deletion.server");
    const user = await createStudent({ nickname: "限流删除" });
    await consumeRateLimit("comment", { userId: user.id });
    await consumeRateLimit("like", { userId: user.id });
    const keys = async () => (await sql<{ key: string }>`SELECT key FROM rate_limits WHERE key LIKE ${`%:user:${user.id}`}`.execute(db())).rows.map((row) => row.key).sort();
    expect(await keys()).toEqual([`comment:user:${user.id}`, `like:user:${user.id}`]);
    await db().transaction().execute((trx) => deleteUserData(trx, user.id));
    expect(await keys()).toEqual([]);
  });
});
