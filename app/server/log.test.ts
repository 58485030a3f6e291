import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, requestIdFrom, runJob, runWithRequestContext, setRequestUser, currentLogContext } from "./log.server";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger("debug", stream) };
}

describe("the log format", () => {
  it("writes the level as a word, the ISO time and the event name", () => {
    const { lines, logger } = capture();
    logger.warn({ order: "E1" }, "order-closed");
    expect(lines[0]).toMatchObject({ level: "warn", event: "order-closed", order: "E1" });
    expect(String(lines[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it.each([
    ["openid", { openid: "oAbc123" }],
    ["a nested openid", { user: { openid: "oAbc123" } }],
    ["touser", { touser: "oAbc123" }],
    ["a name", { name: "张三" }],
    ["a recipient", { order: { recipientName: "张三", recipientPhone: "13800138000" } }],
    ["a phone", { phone: "13800138000" }],
    ["a nickname", { nickname: "小张" }],
    ["a password", { password: "hunter2" }],
    ["cookies", { headers: { cookie: "__session=abc" } }],
    ["set-cookie", { headers: { "set-cookie": "__session=abc" } }],
    ["authorization", { headers: { authorization: "Bearer abc" } }],
    ["a token", { token: "abc" }],
  ])("redacts %s", (_what, fields) => {
    const { lines, logger } = capture();
    logger.info(fields, "probe");
    const text = JSON.stringify(lines[0]);
    for (const secret of ["oAbc123", "张三", "13800138000", "小张", "hunter2", "__session=abc", "Bearer abc", '"abc"']) expect(text).not.toContain(secret);
    expect(text).toContain("[redacted]");
  });

  it("every line written while a request runs carries its id, and the request's user is recorded", async () => {
    const { lines, logger } = capture();
    const context = await runWithRequestContext("req-0001", async (store) => {
      logger.info({}, "before");
      await new Promise((resolve) => setTimeout(resolve, 1));
      setRequestUser({ kind: "student", id: 42 });
      logger.info({}, "after-await");
      return store;
    });
    logger.info({}, "outside");
    expect(lines.map((line) => line.reqId)).toEqual(["req-0001", "req-0001", undefined]);
    expect(context.user).toEqual({ kind: "student", id: 42 });
    expect(currentLogContext()).toBeUndefined();
  });

  it("a background job's lines carry its name and a fresh id per run", async () => {
    const { lines, logger } = capture();
    await runJob("notify-outbox", async () => logger.info({}, "one"));
    await runJob("notify-outbox", async () => logger.info({}, "two"));
    expect(lines.map((line) => line.job)).toEqual(["notify-outbox", "notify-outbox"]);
    expect(lines[0]!.jobId).toMatch(/^[0-9a-f]{12}$/);
    expect(lines[0]!.jobId).not.toBe(lines[1]!.jobId);
  });
});

describe("requestIdFrom: the proxy's X-Request-Id only when it is a sane token", () => {
  it.each([
    ["proxy-abc-123", "proxy-abc-123"],
    ["0f8fad5b-d9cb-469f-a165-70867728950e", "0f8fad5b-d9cb-469f-a165-70867728950e"],
    ["req.7:9_A", "req.7:9_A"],
  ])("keeps %s", (header, expected) => {
    expect(requestIdFrom(header)).toBe(expected);
  });

  it.each([null, "", "short", "has space inside", "x".repeat(129), 'quote"inside', "new\nline-here", "中文请求编号abc"])("replaces %j with a fresh UUID", (header) => {
    expect(requestIdFrom(header)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
