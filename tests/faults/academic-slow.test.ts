// Fault: the school's academic system (the ZFsoft fake) answers only after 40 s. With
// ACADEMIC_TIMEOUT_MS set to 2 s, a login attempt tells the student the school timed out within
// about that time (the product rules' message, app/lib/messages), the server stays responsive meanwhile,
// and a student whose timetable is cached still gets it on /schedule, with the notice that the
// copy is old and could not be refreshed.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { fillTemplate } from "~/lib/template";
import { hostOf } from "../fakes/allow";
import { FAKE_STUDENT, startFakeZfsoft, type FakeZfsoft } from "../fakes/zfsoft-server";
import { baseEnv, cookiesOf, openSqlite, removeSqlite, request, scratchDir, startApp, type AppProcess } from "../support/app-process";

const TIMEOUT_MS = 2_000;
const SCHOOL_DELAY_MS = 40_000;
const SCHOOL = "faultzf";
/**
 * A slow answer may take the timeout plus the app's own work on a loaded 2-core machine — not two
 * timeouts (the limit stays under 2 × TIMEOUT_MS, so a second wait would fail it).
 */
const LIMIT_MS = TIMEOUT_MS + 1_800;

let zfsoft: FakeZfsoft;
let dbFile: string;
let server: AppProcess | undefined;

beforeAll(async () => {
  zfsoft = await startFakeZfsoft();
  dbFile = path.join(scratchDir("faults"), `academic-slow-${process.pid}.db`);
  removeSqlite(dbFile);
  server = await startApp({
    env: baseEnv(`file:${dbFile}`, {
      ACADEMIC_TIMEOUT_MS: String(TIMEOUT_MS),
      // The school fake listens on loopback, which outbound calls refuse unless named.
      OUTBOUND_ALLOW_HOSTS: hostOf(zfsoft.baseUrl),
      CAPTCHA_FIXED_VALUE: "AB23",
      UPLOADS_DIR: path.join(path.dirname(dbFile), "uploads"),
    }),
  });
  const database = openSqlite(dbFile);
  try {
    database
      .prepare("INSERT INTO schools (code, name, system, base_url, sort_order, enabled) VALUES (?, '故障大学', 'zfsoft', ?, 99, 1)")
      .run(SCHOOL, zfsoft.baseUrl);
  } finally {
    database.close();
  }
});

afterAll(async () => {
  await server?.kill();
  await zfsoft?.close();
  if (dbFile) removeSqlite(dbFile);
});

/** The login form as the page posts it without JavaScript (a fresh captcha each time). */
async function postLogin(base: string) {
  const page = await request(base, "/crLogin");
  expect(page.status).toBe(200);
  // The captcha id as the page carries it (the form's hidden field).
  const captchaId = /name="captchaId" value="([^"]+)"/.exec(page.text)?.[1] as string;
  return request(base, "/crLogin", {
    form: { school: SCHOOL, studentId: FAKE_STUDENT.id, password: FAKE_STUDENT.password, captcha: "AB23", captchaId, redirectTo: "" },
  });
}

describe("the academic system is slow", () => {
  it("says the school timed out within the timeout, and serves the cached timetable with its notice", async () => {
    const base = server!.base;

    // While the school is fine: log in, and the timetable is fetched and cached.
    const login = await postLogin(base);
    expect(login.status, login.text.slice(0, 500)).toBe(302);
    expect(login.headers.get("Location")).toBe("/schedule");
    const cookie = cookiesOf(login);
    const fresh = await request(base, "/schedule?week=1", { cookie });
    expect(fresh.status).toBe(200);
    expect(fresh.text).toContain("高等数学A(上)");

    // The school now answers after 40 s; the cached copy is 8 days old (past the 7-day freshness).
    zfsoft.state.mode = "slow";
    zfsoft.state.slowMs = SCHOOL_DELAY_MS;
    const database = openSqlite(dbFile);
    try {
      const changed = database.prepare("UPDATE timetable_cache SET fetched_at = ?").run(new Date(Date.now() - 8 * 86_400_000).toISOString());
      expect(changed.changes).toBeGreaterThan(0);
    } finally {
      database.close();
    }

    // A login attempt: the product rules' timeout message, within about the timeout; the server answers others meanwhile.
    const attempt = postLogin(base);
    const health = await request(base, "/healthz");
    expect(health.status).toBe(200);
    expect(health.ms, "/healthz while a login waits for the school").toBeLessThan(1_000);
    const refused = await attempt;
    expect(refused.ms, "the login answer comes after the timeout, not the school's 40 s").toBeLessThan(LIMIT_MS);
    expect(refused.status).toBe(401);
    expect(refused.text).toContain(msg.login.timeout);
    expect(refused.headers.getSetCookie().some((line) => line.startsWith("__session=") && !line.startsWith("__session=;"))).toBe(false);

    // The student with the cached timetable still sees it, with the stale notice and the failure.
    const stale = await request(base, "/schedule?week=1", { cookie });
    expect(stale.status).toBe(200);
    expect(stale.ms, "/schedule answers after the timeout, not the school's 40 s").toBeLessThan(LIMIT_MS);
    expect(stale.text).toContain("高等数学A(上)");
    expect(stale.text).toContain(msg.schedule.loadFailed);
    expect(stale.text).toContain(fillTemplate(msg.schedule.staleNotice, { age: fillTemplate(msg.schedule.ageDays, { n: 8 }) }));
    expect(zfsoft.state.requests.length).toBeGreaterThan(0);

    // The school's term calendar is a day old too, so the page asks the school for it first: when
    // that times out it does not wait a second timeout for the timetable.
    const again = openSqlite(dbFile);
    try {
      again.prepare("UPDATE school_term_info SET fetched_at = ?").run(new Date(Date.now() - 2 * 86_400_000).toISOString());
    } finally {
      again.close();
    }
    const bothStale = await request(base, "/schedule?week=1", { cookie });
    console.info(`/schedule with term info and timetable both stale: ${bothStale.ms} ms`);
    expect(bothStale.status).toBe(200);
    expect(bothStale.text).toContain("高等数学A(上)");
    expect(bothStale.ms, "/schedule with both caches old").toBeLessThan(LIMIT_MS);
  });
});
