import { log, runJob } from "./log.server";

// The background jobs of this process (outbox, reminders, account deletion, order jobs): each run
// logs with its own job id (runJob) and leaves a heartbeat, which readiness (/readyz) reads: a job
// that has not finished a run for several of its intervals is not working.

type Beat = { intervalMs: number; registeredAt: number; lastOkAt: number | null; runningSince: number | null; lastError: string | null };

const beats = new Map<string, Beat>();

/** A job is stale when no run finished well for this long (and none is running for less than a run may take). */
export function staleAfterMs(intervalMs: number) {
  return Math.max(3 * intervalMs, intervalMs + 60_000);
}
const LONGEST_RUN_MS = 5 * 60_000;

export function registerJob(name: string, intervalMs: number, at = Date.now()) {
  beats.set(name, { intervalMs, registeredAt: at, lastOkAt: null, runningSince: null, lastError: null });
}

export function unregisterJob(name: string) {
  beats.delete(name);
}

/** One run of a registered job: its own id in the log, its outcome in the heartbeat. Errors are logged, not thrown. */
export async function runTrackedJob(name: string, work: () => Promise<unknown>): Promise<void> {
  const beat = beats.get(name);
  if (beat) beat.runningSince = Date.now();
  await runJob(name, async () => {
    try {
      await work();
      if (beat) {
        beat.lastOkAt = Date.now();
        beat.lastError = null;
      }
    } catch (error) {
      if (beat) beat.lastError = error instanceof Error ? error.message : String(error);
      log("error", name, { error: String(error) });
    } finally {
      if (beat) beat.runningSince = null;
    }
  });
}

export type JobsHealth = { ok: boolean; jobs: Record<string, "ok" | "stale" | "failing">; failed: string[] };

/** Which jobs are working: expected names must be registered; each must have finished a run recently. */
export function jobsHealth(expected: string[], at = Date.now()): JobsHealth {
  const jobs: JobsHealth["jobs"] = {};
  const failed: string[] = [];
  for (const name of expected) {
    const beat = beats.get(name);
    let state: "ok" | "stale" | "failing" = "ok";
    if (!beat) state = "stale";
    else {
      const since = beat.lastOkAt ?? beat.registeredAt;
      const runningTooLong = beat.runningSince !== null && at - beat.runningSince > LONGEST_RUN_MS;
      if (at - since > staleAfterMs(beat.intervalMs) && (beat.runningSince === null || runningTooLong)) state = beat.lastError ? "failing" : "stale";
    }
    jobs[name] = state;
    if (state !== "ok") failed.push(name);
  }
  return { ok: failed.length === 0, jobs, failed };
}

/** The jobs every server process runs (startup.server.ts starts them). */
export const SERVER_JOBS = ["notify-outbox", "notify-reminders", "account-deletion", "order-jobs"];
