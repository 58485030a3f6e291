import { sql } from "kysely";
import { db } from "./db/db.server";
import { jobsHealth, SERVER_JOBS } from "./jobs.server";
import { log } from "./log.server";
import { fileStorage } from "./storage/storage.server";

const CHECK_TIMEOUT_MS = 3000;

export type Readiness = {
  status: "ok" | "error";
  /** The names of the failed checks ("database", "storage", "workers"). */
  failed: string[];
  checks: { database: "ok" | "error"; storage: "ok" | "error"; workers: Record<string, string> };
};

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function check(name: string, work: () => Promise<unknown>): Promise<"ok" | "error"> {
  try {
    await withTimeout(work(), name);
    return "ok";
  } catch (error) {
    log("error", "readiness", { check: name, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    return "error";
  }
}

/** How long one check's answer is reused: /readyz is open, and each check writes to the storage. */
const REUSE_MS = 2000;
let recent: { at: number; answer: Promise<Readiness> } | undefined;

/** The database answers, the upload storage takes a write and a delete, the background jobs run. */
export function readiness(): Promise<Readiness> {
  const at = Date.now();
  if (!recent || at - recent.at > REUSE_MS) recent = { at, answer: checkReadiness() };
  return recent.answer;
}

async function checkReadiness(): Promise<Readiness> {
  const [database, storage] = await Promise.all([check("database", () => sql`select 1`.execute(db())), check("storage", () => fileStorage().probe())]);
  const jobs = jobsHealth(SERVER_JOBS);
  if (!jobs.ok) log("error", "readiness", { check: "workers", failed: jobs.failed });
  const failed = [...(database === "error" ? ["database"] : []), ...(storage === "error" ? ["storage"] : []), ...(jobs.ok ? [] : ["workers"])];
  return { status: failed.length === 0 ? "ok" : "error", failed, checks: { database, storage, workers: jobs.jobs } };
}
