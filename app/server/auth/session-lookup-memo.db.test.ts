// A page's GET reads its session once (the guard before Remix, the root loader and the
// route's loader share the lookup through the request context), while an action's changes and a
// session started or ended during the request are still seen.
import { describe, expect, it } from "vitest";
import { db } from "~/server/db/db.server";
import { runWithRequestContext } from "~/server/log.server";
import { cookieValue, createStudent, request } from "../../../tests/setup/helpers";
import { createUserSession, endSession, lookupSession } from "./session.server";

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function loggedIn() {
  const student = await createStudent();
  const { id, setCookie } = await createUserSession(student.id, { deviceId: "device-memo-1", platform: "ios" });
  return { id, cookie: cookieValue(setCookie) };
}

/** Ends the session behind the lookup's back (another device's login would do the same). */
async function endInDatabase(id: string) {
  await db().updateTable("sessions").set({ ended_at: new Date().toISOString(), end_reason: "replaced" }).where("id", "=", id).execute();
}

describe("the session lookup of one request", () => {
  it("is read once per GET request, however late a loader asks", async () => {
    const { id, cookie } = await loggedIn();
    await runWithRequestContext("req-memo-1", async () => {
      expect((await lookupSession(request("/circle", { cookie }))).state).toBe("active");
      await nextTurn();
      await endInDatabase(id);
      // The same request, later, with another copy of the request: the same answer, no second read.
      expect((await lookupSession(request("/circle", { cookie }))).state).toBe("active");
    });
    // Another request reads again.
    await runWithRequestContext("req-memo-2", async () => {
      expect(await lookupSession(request("/circle", { cookie }))).toEqual({ state: "ended", reason: "replaced" });
    });
  });

  it("is read again after this request ends a session", async () => {
    const { id, cookie } = await loggedIn();
    await runWithRequestContext("req-memo-3", async () => {
      expect((await lookupSession(request("/me", { cookie }))).state).toBe("active");
      await endSession(id, "logout");
      expect(await lookupSession(request("/me", { cookie }))).toEqual({ state: "ended", reason: "logout" });
    });
  });

  it("is never shared by a POST (an action's own changes are seen)", async () => {
    const { id, cookie } = await loggedIn();
    await runWithRequestContext("req-memo-4", async () => {
      expect((await lookupSession(request("/me", { cookie, method: "POST" }))).state).toBe("active");
      await nextTurn();
      await endInDatabase(id);
      expect(await lookupSession(request("/me", { cookie, method: "POST" }))).toEqual({ state: "ended", reason: "replaced" });
    });
  });
});
