// Playwright fixtures. `loginAsStudent()` logs the page's browser context in the fast way: it
// inserts a user with a bound student account and a session row straight into the e2e server's
// SQLite database and sets the signed `__session` cookie, exactly what a real login leaves behind.
import crypto from "node:crypto";
import { createCookie } from "@remix-run/node";
import { test as base, expect } from "@playwright/test";
import Database from "better-sqlite3";
import { E2E_BASE_URL, E2E_DB_FILE, E2E_SESSION_SECRET } from "./env";

export type LoggedInStudent = { userId: number; studentId: string; sessionId: string; cookie: string };

export type StudentOverrides = Partial<{
  student_id: string;
  real_name: string;
  school_code: string;
  theme: string;
  nickname: string;
}>;

const sessionCookie = createCookie("__session", { secrets: [E2E_SESSION_SECRET], path: "/", httpOnly: true, sameSite: "lax" });

/** Inserts a student and an open session into the e2e database; returns the cookie value to send. */
export async function insertStudentSession(overrides: StudentOverrides = {}): Promise<LoggedInStudent> {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const now = new Date();
    const iso = now.toISOString();
    const studentId = overrides.student_id ?? `e2e${crypto.randomInt(1e8).toString().padStart(8, "0")}`;
    const user = database
      .prepare(
        `INSERT INTO users (school_code, student_id, real_name, nickname, theme, student_bound_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        overrides.school_code ?? "demo",
        studentId,
        overrides.real_name ?? "测试同学",
        overrides.nickname ?? null,
        overrides.theme ?? null,
        iso,
        iso,
        iso,
      ) as { id: number };
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(
        `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at, ended_at, end_reason)
         VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)`,
      )
      .run(sessionId, user.id, `e2e-device-${user.id}`, "web", iso, new Date(now.getTime() + 365 * 86_400_000).toISOString());
    const setCookie = await sessionCookie.serialize(sessionId);
    const cookie = setCookie.split(";")[0]!.slice("__session=".length);
    return { userId: user.id, studentId, sessionId, cookie };
  } finally {
    database.close();
  }
}

/** A new open session for an existing student (what a login leaves behind); returns the cookie value. */
export async function insertSessionFor(userId: number): Promise<string> {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const now = new Date();
    const sessionId = crypto.randomBytes(32).toString("base64url");
    database
      .prepare(
        `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at, ended_at, end_reason)
         VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)`,
      )
      .run(sessionId, userId, `e2e-device-${userId}-${sessionId.slice(0, 6)}`, "web", now.toISOString(), new Date(now.getTime() + 365 * 86_400_000).toISOString());
    return (await sessionCookie.serialize(sessionId)).split(";")[0]!.slice("__session=".length);
  } finally {
    database.close();
  }
}

/** Ends a session the way a login on another device does (SESSION_REPLACED). */
export function replaceSession(sessionId: string) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    database.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'replaced' WHERE id = ?").run(new Date().toISOString(), sessionId);
  } finally {
    database.close();
  }
}

type Fixtures = {
  /** Logs this test's browser context in as a fresh student of the demo school. */
  loginAsStudent: (overrides?: StudentOverrides) => Promise<LoggedInStudent>;
};

export const test = base.extend<Fixtures>({
  loginAsStudent: async ({ context }, use) => {
    await use(async (overrides) => {
      const student = await insertStudentSession(overrides);
      await context.addCookies([
        { name: "__session", value: student.cookie, url: E2E_BASE_URL, httpOnly: true, sameSite: "Lax" },
      ]);
      return student;
    });
  },
});

export { expect };
