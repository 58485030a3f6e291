import { describe, expect, it } from "vitest";
import { jobsHealth, registerJob, runTrackedJob, staleAfterMs, unregisterJob } from "./jobs.server";

describe("jobsHealth: readiness of the background jobs", () => {
  it("a job never started is not working", () => {
    expect(jobsHealth(["never-started"])).toEqual({ ok: false, jobs: { "never-started": "stale" }, failed: ["never-started"] });
  });

  it("a registered job is fine until it misses several intervals; a good run resets it", async () => {
    const t0 = Date.now();
    registerJob("outbox-probe", 5000, t0);
    try {
      expect(jobsHealth(["outbox-probe"], t0 + 1000).ok).toBe(true);
      expect(jobsHealth(["outbox-probe"], t0 + staleAfterMs(5000) + 1).failed).toEqual(["outbox-probe"]);
      await runTrackedJob("outbox-probe", async () => undefined);
      expect(jobsHealth(["outbox-probe"], Date.now() + 1000).ok).toBe(true);
    } finally {
      unregisterJob("outbox-probe");
    }
  });

  it("a job whose runs keep failing is reported as failing once stale", async () => {
    const t0 = Date.now();
    registerJob("failing-probe", 1000, t0);
    try {
      await runTrackedJob("failing-probe", async () => {
        throw new Error("database is down");
      });
      expect(jobsHealth(["failing-probe"], t0 + 500).ok).toBe(true);
      expect(jobsHealth(["failing-probe"], t0 + staleAfterMs(1000) + 1).jobs).toEqual({ "failing-probe": "failing" });
    } finally {
      unregisterJob("failing-probe");
    }
  });

  it.each([
    [1000, 61_000],
    [5000, 65_000],
    [60_000, 180_000],
    [600_000, 1_800_000],
  ])("an interval of %i ms is stale after %i ms", (interval, stale) => {
    expect(staleAfterMs(interval)).toBe(stale);
  });
});
