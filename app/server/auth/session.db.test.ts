import { createCookie } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/db.server";
import { cookieValue, createMessengerUser, createStudent, request, sessionCookieFor, thrownResponse } from "../../../tests/setup/helpers";
import { SESSION_LIFETIME_MS, createUserSession, getUser, lookupSession, logout, readSessionId } from "./session.server";
import { requireStudent } from "../http/guards.server";

async function sessionRow(id: string) {
  return db().selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function sessionIdOf(cookie: string) {
  const id = await readSessionId(request("/", { cookie }));
  if (!id) throw new Error("cookie carries no session id");
  return id;
}

describe("sessions in the database", () => {
  it("a login stores the device and platform and stays active for at most 90 days", async () => {
    const student = await createStudent();
    const before = Date.now();
    const { id, setCookie } = await createUserSession(student.id, { deviceId: "device-phone-1", platform: "ios" });

    expect(setCookie).toMatch(/^__session=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    // The cookie holds the signed session id and nothing else.
    const cookie = cookieValue(setCookie);
    expect(await sessionIdOf(cookie)).toBe(id);

    const row = await sessionRow(id);
    expect(row).toMatchObject({ user_id: student.id, device_id: "device-phone-1", platform: "ios", ended_at: null, end_reason: null });
    const created = Date.parse(row.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(row.expires_at) - created).toBe(SESSION_LIFETIME_MS);
    expect(SESSION_LIFETIME_MS).toBe(90 * 24 * 60 * 60 * 1000);

    const lookup = await lookupSession(request("/schedule", { cookie }));
    expect(lookup.state).toBe("active");
    if (lookup.state !== "active") return;
    expect(lookup.session).toEqual({ id, userId: student.id, deviceId: "device-phone-1", platform: "ios", expiresAt: row.expires_at });
    expect(lookup.user).toMatchObject({ id: student.id, student_id: student.student_id, school_code: "demo" });

    expect((await getUser(request("/", { cookie })))?.id).toBe(student.id);
    expect((await requireStudent(request("/schedule", { cookie }))).id).toBe(student.id);
  });

  it("a login on another device ends the first session as 'replaced' and sends the old device to the login page", async () => {
    const student = await createStudent();
    const other = await createStudent();
    const otherCookie = await sessionCookieFor(other.id, { deviceId: "other-device" });

    const firstCookie = await sessionCookieFor(student.id, { deviceId: "device-a", platform: "android" });
    const secondCookie = await sessionCookieFor(student.id, { deviceId: "device-b", platform: "ios" });

    const first = await sessionRow(await sessionIdOf(firstCookie));
    expect(first.end_reason).toBe("replaced");
    expect(first.ended_at).not.toBeNull();
    const second = await sessionRow(await sessionIdOf(secondCookie));
    expect(second).toMatchObject({ device_id: "device-b", ended_at: null, end_reason: null });

    expect(await lookupSession(request("/", { cookie: firstCookie }))).toEqual({ state: "ended", reason: "replaced" });
    expect(await getUser(request("/", { cookie: firstCookie }))).toBeNull();
    expect((await getUser(request("/", { cookie: secondCookie })))?.id).toBe(student.id);

    const response = await thrownResponse(requireStudent(request("/schedule?week=3&_routes=routes%2Fschedule._index", { cookie: firstCookie })));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!, "http://localhost");
    expect(location.pathname).toBe("/crLogin");
    expect(location.searchParams.get("redirectTo")).toBe("/schedule?week=3");
    expect(location.searchParams.get("reason")).toBe("replaced");

    // Another user's session is untouched.
    expect((await getUser(request("/", { cookie: otherCookie })))?.id).toBe(other.id);
  });

  it("logout ends the session as 'logout' and clears the cookie", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const id = await sessionIdOf(cookie);

    const clearing = await logout(request("/backpack/settings", { method: "POST", cookie }));
    expect(clearing).toMatch(/^__session=;/);
    expect(clearing).toMatch(/Max-Age=0/i);

    const row = await sessionRow(id);
    expect(row.end_reason).toBe("logout");
    expect(row.ended_at).not.toBeNull();
    expect(await getUser(request("/", { cookie }))).toBeNull();
    expect(await lookupSession(request("/", { cookie }))).toEqual({ state: "ended", reason: "logout" });

    // After a logout the login page carries no reason.
    const response = await thrownResponse(requireStudent(request("/circle", { cookie })));
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fcircle");
  });

  it("an expired session is ended as 'expired'", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const id = await sessionIdOf(cookie);
    await db().updateTable("sessions").set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where("id", "=", id).execute();

    expect(await lookupSession(request("/", { cookie }))).toEqual({ state: "ended", reason: "expired" });
    const row = await sessionRow(id);
    expect(row.end_reason).toBe("expired");
    expect(row.ended_at).not.toBeNull();
    expect(await getUser(request("/", { cookie }))).toBeNull();

    const response = await thrownResponse(requireStudent(request("/backpack", { cookie })));
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fbackpack&reason=expired");
  });

  it("a messenger-only user (no student account) is a user but not a student", async () => {
    const messengerUser = await createMessengerUser();
    const cookie = await sessionCookieFor(messengerUser.id, { platform: "wechat" });

    expect((await getUser(request("/", { cookie })))?.openid).toBe(messengerUser.openid);
    const response = await thrownResponse(requireStudent(request("/schedule", { cookie })));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fschedule");
  });

  it("a tampered or foreign cookie gives no user", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const [name, value] = cookie.split("=", 2) as [string, string];
    const decoded = decodeURIComponent(value);
    const lastDot = decoded.lastIndexOf(".");
    expect(lastDot).toBeGreaterThan(0); // "<payload>.<signature>"

    // The payload swapped for another id, the signature kept.
    const forgedPayload = `${btoa(JSON.stringify("someone-elses-session"))}${decoded.slice(lastDot)}`;
    // One character of the signature changed.
    const signature = decoded.slice(lastDot + 1);
    const flipped = `${decoded.slice(0, lastDot + 1)}${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`;
    // A well-formed cookie signed with another secret, for the real session id.
    const foreign = await createCookie("__session", { secrets: ["another-secret-0123456789abcdef"] }).serialize(await sessionIdOf(cookie));

    for (const bad of [
      `${name}=${encodeURIComponent(forgedPayload)}`,
      `${name}=${encodeURIComponent(flipped)}`,
      cookieValue(foreign),
      `${name}=${encodeURIComponent(JSON.stringify(await sessionIdOf(cookie)))}`, // unsigned
      `${name}=garbage`,
    ]) {
      expect(await readSessionId(request("/", { cookie: bad }))).toBeNull();
      expect(await getUser(request("/", { cookie: bad }))).toBeNull();
      expect(await lookupSession(request("/", { cookie: bad }))).toEqual({ state: "none" });
    }
    // The genuine cookie still works.
    expect((await getUser(request("/", { cookie })))?.id).toBe(student.id);
  });

  it("a session of an account whose deletion was requested no longer counts, even if it was never ended", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    expect((await lookupSession(request("/backpack", { cookie }))).state).toBe("active");
    await db().updateTable("users").set({ deletion_requested_at: new Date().toISOString() }).where("id", "=", student.id).execute();
    await new Promise((resolve) => setImmediate(resolve)); // past the shared lookup of concurrent GETs
    expect(await lookupSession(request("/backpack", { cookie }))).toEqual({ state: "ended", reason: "deleted" });
    expect(await getUser(request("/backpack", { cookie }))).toBeNull();
  });
});
