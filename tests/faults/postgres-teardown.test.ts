// The fault tests drop their PostgreSQL database WITH (FORCE) when they end. A connection of the
// test's own pool still closing then gets FATAL 57P01 and throws it as an uncaught error, which
// fails the run although every test passed. endPool waits for the sockets to close first.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { endPool } from "../setup/test-db";

const BASE_URL = process.env.TEST_DATABASE_URL;

describe.skipIf(!BASE_URL)("endPool", () => {
  it("returns only once every connection of the pool has closed its socket", async () => {
    const pool = new pg.Pool({ connectionString: BASE_URL, max: 3 });
    const clients: pg.PoolClient[] = [];
    pool.on("connect", (client) => clients.push(client));
    await Promise.all([1, 2, 3].map(() => pool.query("SELECT pg_sleep(0.05)")));
    expect(clients).toHaveLength(3);

    await endPool(pool);

    const sockets = clients.map((client) => (client as unknown as { connection: { stream: { closed: boolean } } }).connection.stream);
    expect(sockets.map((socket) => socket.closed)).toEqual([true, true, true]);
  });
});
