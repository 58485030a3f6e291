import { db, now } from "../db/db.server";
import type { LoginAttemptsTable } from "../db/schema";

export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const ACCOUNT_WRONG_PASSWORD_LIMIT = 5;
export const IP_FAILURE_LIMIT = 20;

type Scope = LoginAttemptsTable["scope"];
type Outcome = LoginAttemptsTable["outcome"];

export async function recordAttempt(scope: Scope, key: string, outcome: Outcome) {
  await db().insertInto("login_attempts").values({ scope, key, outcome, created_at: now() }).execute();
}

/** Failures (of the given outcomes) for a key since the window began, after its last success. */
export async function recentFailures(scope: Scope, key: string, outcomes: Outcome[], windowMs = LOGIN_WINDOW_MS) {
  const since = new Date(Date.now() - windowMs).toISOString();
  const rows = await db()
    .selectFrom("login_attempts")
    .select(["outcome", "created_at"])
    .where("scope", "=", scope)
    .where("key", "=", key)
    .where("created_at", ">=", since)
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
  let count = 0;
  for (const row of rows) {
    if (row.outcome === "success") break;
    if (outcomes.includes(row.outcome)) count++;
  }
  return count;
}

/** The account key for a student account: school and student id together. */
export function accountKey(schoolCode: string, studentId: string) {
  return `${schoolCode}:${studentId}`;
}

export async function isAccountLocked(schoolCode: string, studentId: string) {
  return (await recentFailures("account", accountKey(schoolCode, studentId), ["wrong_password"])) >= ACCOUNT_WRONG_PASSWORD_LIMIT;
}

export async function isIpLimited(ip: string) {
  return (await recentFailures("ip", ip, ["wrong_password", "failure"])) >= IP_FAILURE_LIMIT;
}
