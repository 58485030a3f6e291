import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { getUser, lookupSession } from "~/server/auth/session.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { hostOf } from "../../../tests/fakes/allow";
import { startFakeZfsoft, type FakeStudent, type FakeZfsoft } from "../../../tests/fakes/zfsoft-server";
import { cookieValue, request } from "../../../tests/setup/helpers";
import { withAcademicSession } from "./academic-session.server";
import { isSessionExpired, StoredCredentialsRejected } from "./index.server";

const student: FakeStudent = { id: "2023990001", password: "Old@pass1", name: "赵静", className: "数学2301班", college: "数学学院" };
let fake: FakeZfsoft;

beforeAll(async () => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  resetConfig();
  fake = await startFakeZfsoft({ students: [student] });
  // The fake listens on loopback: name it to the outbound client.
  process.env.OUTBOUND_ALLOW_HOSTS = hostOf(fake.baseUrl);
  resetConfig();
  await db().insertInto("schools").values({ code: "zf", name: "正方测试大学", system: "zfsoft", base_url: fake.baseUrl, sort_order: 1, enabled: 1 }).execute();
});

afterAll(() => fake.close());

async function login() {
  const data = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ school: "zf", studentId: student.id, password: student.password, captcha: "AB23", captchaId: data.captcha.id });
  const response = (await loginAction({ request: request("/crLogin", { method: "POST", body }), params: {}, context: { clientIp: "203.0.113.5" } })) as Response;
  expect(response.status).toBe(302);
  return cookieValue(response.headers.get("Set-Cookie")!);
}

const fetchTimetable = (user: NonNullable<Awaited<ReturnType<typeof getUser>>>) =>
  withAcademicSession(user, (system, session) => system.timetable(session, "2025-2026-1"), { returnTo: "/schedule" });

describe("the academic system's session behind ours", () => {
  it("is reused while the school keeps it", async () => {
    const cookie = await login();
    const user = (await getUser(request("/", { cookie })))!;
    const logins = fake.state.loginBodies.length;
    const timetable = await fetchTimetable(user);
    expect(isSessionExpired(timetable)).toBe(false);
    expect(fake.state.loginBodies.length).toBe(logins);
  });

  it("is renewed silently with the stored credentials when the school expired it", async () => {
    const cookie = await login();
    const user = (await getUser(request("/", { cookie })))!;
    fake.state.sessions.clear();
    const logins = fake.state.loginBodies.length;
    const timetable = await fetchTimetable(user);
    expect("courses" in timetable && timetable.courses.length).toBeGreaterThan(0);
    expect(fake.state.loginBodies.length).toBe(logins + 1);
  });

  it("ends the student's session when the school rejects the stored credentials", async () => {
    const cookie = await login();
    const user = (await getUser(request("/", { cookie })))!;
    fake.state.sessions.clear();
    student.password = "Changed@pass2";
    const thrown = await fetchTimetable(user).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(StoredCredentialsRejected);
    expect(thrown).toMatchObject({ returnTo: "/schedule" });
    const lookup = await lookupSession(request("/", { cookie }));
    expect(lookup).toEqual({ state: "ended", reason: "credentials_invalid" });
  });
});
