import { describe, expect, it } from "vitest";
import { action as calendarAction, loader as calendarLoader } from "~/routes/admin.school-calendar";
import { createOperator, loginOperator } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { call, cookieValue, request } from "../../../tests/setup/helpers";
import { captchaToken } from "~/server/auth/captcha.server";
import { schoolCalendar } from "./school-calendar.server";

// /admin/school-calendar by form posts (no JavaScript): an admin adds and deletes 校历 entries;
// an operator without the admin role gets nothing.
const TERM = "2025-2026-1";

async function operatorCookie(role: "admin" | "operator") {
  const username = `cal-${role}-${process.pid % 10000}`;
  await createOperator({ username, password: "right-password-1", displayName: "校历管理员", role });
  const login = await loginOperator(username, "right-password-1", "10.9.1.2", { request: request("/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
  if (!login.ok) throw new Error(`operator login refused: ${login.reason}`);
  return cookieValue(login.setCookie);
}

const post = (cookie: string, fields: Record<string, string>) =>
  request(`/admin/school-calendar?school=demo&term=${TERM}`, { method: "POST", body: new URLSearchParams(fields), cookie });

describe("/admin/school-calendar", () => {
  it("adds a holiday and a 调休 day, refuses a 调休 without its date in Chinese, and deletes", async () => {
    const cookie = await operatorCookie("admin");
    const refused = await call(calendarAction, post(cookie, { intent: "add", school: "demo", term: TERM, kind: "makeup", from: "2025-09-27", label: "调休" }));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ runsDate: ["调休要选择补哪一天的课"] });

    const holiday = await call(calendarAction, post(cookie, { intent: "add", school: "demo", term: TERM, kind: "holiday", from: "2025-10-01", to: "2025-10-07", label: "国庆节" }));
    expect(holiday.headers.get("Location")).toContain("added=1");
    await call(calendarAction, post(cookie, { intent: "add", school: "demo", term: TERM, kind: "makeup", from: "2025-09-27", runsDate: "2025-10-01", label: "调休" }));
    expect(await schoolCalendar("demo", TERM)).toEqual([
      { kind: "makeup", from: "2025-09-27", to: "2025-09-27", runsDate: "2025-10-01", label: "调休" },
      { kind: "holiday", from: "2025-10-01", to: "2025-10-07", runsDate: null, label: "国庆节" },
    ]);

    const page = (await calendarLoader({ request: request(`/admin/school-calendar?school=demo&term=${TERM}`, { cookie }), params: {}, context: {} })) as { entries: { id: number; label: string }[] };
    expect(page.entries.map((entry) => entry.label)).toEqual(["调休", "国庆节"]);
    await call(calendarAction, post(cookie, { intent: "delete", id: String(page.entries[0].id) }));
    expect((await schoolCalendar("demo", TERM)).map((entry) => entry.label)).toEqual(["国庆节"]);
  });

  it("is closed to an operator without the admin role", async () => {
    const cookie = await operatorCookie("operator");
    const response = await call(calendarAction, post(cookie, { intent: "add", school: "demo", term: TERM, kind: "holiday", from: "2025-10-01", label: "假" }));
    expect(response.status).toBe(403);
    expect(await db().selectFrom("school_calendar_entries").selectAll().where("label", "=", "假").execute()).toEqual([]);
  });
});
