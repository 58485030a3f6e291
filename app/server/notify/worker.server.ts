// The background work of notifications, started with the server (startup.server.ts): the outbox
// worker (every NOTIFY_WORKER_INTERVAL_MS, 5 s by default) and the course-reminder job (every
// NOTIFY_REMINDER_INTERVAL_MS, a minute). Every instance runs both: the outbox's claims and the
// reminders' unique rows make that safe. A run never overlaps the previous one of its kind.
import { config } from "../config.server";
import { registerJob, runTrackedJob, unregisterJob } from "../jobs.server";
import { log } from "../log.server";
import { processOutbox, purgeFinished } from "./outbox.server";
import { runCourseReminders } from "./reminders.server";

type Loop = { name: string; timer: NodeJS.Timeout; running: Promise<unknown> | null };

const loops: Loop[] = [];

function every(intervalMs: number, name: string, work: () => Promise<unknown>) {
  const loop: Loop = { name, timer: undefined as unknown as NodeJS.Timeout, running: null };
  registerJob(name, intervalMs);
  const tick = () => {
    if (loop.running) return;
    // Each run logs with its own job id; its outcome is the readiness heartbeat.
    loop.running = runTrackedJob(name, work).finally(() => {
        loop.running = null;
      });
  };
  loop.timer = setInterval(tick, intervalMs);
  loop.timer.unref();
  loops.push(loop);
  tick();
}

export function startNotifyWorkers() {
  if (loops.length > 0) return;
  const settings = config().notify;
  log("info", "notify-workers", {
    provider: settings.provider,
    templates: Object.keys(settings.templates),
    subscribeTemplates: Object.keys(settings.subscribeTemplates),
  });
  every(settings.workerIntervalMs, "notify-outbox", () => processOutbox());
  every(settings.reminderIntervalMs, "notify-reminders", async () => {
    await runCourseReminders();
    await purgeFinished();
  });
}

/** Stops the timers and waits for a run in progress to finish. */
export async function stopNotifyWorkers() {
  const stopping = loops.splice(0);
  for (const loop of stopping) {
    clearInterval(loop.timer);
    unregisterJob(loop.name);
  }
  await Promise.all(stopping.map((loop) => loop.running));
}
