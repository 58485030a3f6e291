// The order jobs of the server process: unpaid orders are closed after 24 hours (their prepay
// closed at the provider too), and refunds still processing are checked with the provider.
// Every instance may run them: each change is a conditional UPDATE, so two instances closing the
// same order change it once.
import { registerJob, runTrackedJob, unregisterJob } from "../jobs.server";
import { closeExpiredOrders } from "./cancel.server";
import { sweepRefunds } from "./refunds.server";

export async function runOrderJobs(at = new Date()) {
  const closed = await closeExpiredOrders(at);
  const refunds = await sweepRefunds(at);
  return { closed, refunds };
}

let timer: NodeJS.Timeout | undefined;
let running = false;

/** Every 5 minutes (an unpaid order closes within 5 minutes of its 24 hours). */
export function scheduleOrderJobs(intervalMs = 5 * 60 * 1000) {
  if (timer) return;
  registerJob("order-jobs", intervalMs);
  timer = setInterval(() => {
    if (running) return;
    running = true;
    void runTrackedJob("order-jobs", () => runOrderJobs()).finally(() => {
      running = false;
    });
  }, intervalMs);
  timer.unref();
}

export function stopOrderJobs() {
  unregisterJob("order-jobs");
  if (timer) clearInterval(timer);
  timer = undefined;
}
