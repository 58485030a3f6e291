import { appCookie } from "../http/cookies.server";
import { CAMPUS_STATUS_ACTIVE } from "~/lib/catalog";
import { db, now } from "../db/db.server";
import { referenceCached } from "../db/reference-cache.server";
import type { User } from "../auth/session.server";
import { nicknameForCampus } from "../users/nickname.server";

export type Campus = { code: string; name: string; status: string; active: boolean };

// Every errand page reads them: kept until an operator changes a campus (decision 056).
const campuses = referenceCached(async (): Promise<Campus[]> => {
  const rows = await db().selectFrom("campuses").select(["code", "name", "status"]).orderBy("sort_order").orderBy("code").execute();
  return rows.map((row) => ({ ...row, active: row.status === CAMPUS_STATUS_ACTIVE }));
});

export async function listCampuses(): Promise<Campus[]> {
  return [...(await campuses())];
}

export async function findCampus(code: string): Promise<Campus | undefined> {
  return (await campuses()).find((campus) => campus.code === code);
}

/** A campus's dorm buildings students can choose (those an operator has not turned off) and package types, in display order. */
export async function campusConfig(code: string) {
  const [buildings, packageTypes] = await Promise.all([
    db()
      .selectFrom("dorm_buildings")
      .select(["id", "name"])
      .where("campus_code", "=", code)
      .where("enabled", "=", 1)
      .orderBy("sort_order")
      .orderBy("id")
      .execute(),
    db()
      .selectFrom("package_types")
      .select(["type", "name", "description", "price_fen"])
      .where("campus_code", "=", code)
      .orderBy("sort_order")
      .execute(),
  ]);
  return { buildings, packageTypes };
}

// Visitors without an account keep their campus in a cookie; a user keeps it on their row.
function campusCookie() {
  // A preference: nothing to forge.
  return appCookie("campus", { maxAge: 365 * 24 * 60 * 60, signed: false });
}

export async function chosenCampusCode(request: Request, user: User | null): Promise<string | null> {
  if (user?.campus_code) return user.campus_code;
  const fromCookie = await campusCookie().parse(request.headers.get("Cookie"));
  return typeof fromCookie === "string" ? fromCookie : null;
}

/** The chosen campus if it still exists and is open; otherwise none, so the selector reopens. */
export async function chosenCampus(request: Request, user: User | null) {
  const code = await chosenCampusCode(request, user);
  if (!code) return null;
  const campus = await findCampus(code);
  return campus?.active ? campus : null;
}

/** Stores the choice on the user (when there is one) and in the cookie; returns Set-Cookie. */
export async function saveCampusChoice(user: User | null, code: string) {
  if (user) {
    const nickname = await nicknameForCampus(db(), user, code);
    await db().updateTable("users").set({ campus_code: code, ...nickname, updated_at: now() }).where("id", "=", user.id).execute();
  }
  return campusCookie().serialize(code);
}

/** Forgets the choice (the campus's service is gone or broken): the selector opens again. */
export async function clearCampusChoice(user: User | null) {
  if (user) {
    const nickname = await nicknameForCampus(db(), user, null);
    await db().updateTable("users").set({ campus_code: null, ...nickname, updated_at: now() }).where("id", "=", user.id).execute();
  }
  return campusCookie().serialize("", { maxAge: 0 });
}
