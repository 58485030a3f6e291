import { DEFAULT_SCHOOLS } from "~/lib/catalog";
import { parseGradeScale } from "~/lib/grades";
import { config } from "../config.server";
import { seal, unseal } from "../crypto.server";
import { db, now } from "../db/db.server";
import { referenceCached } from "../db/reference-cache.server";
import { log } from "../log.server";
import { createAcademicSystem, type AcademicSession, type AcademicSystem, type SchoolConfig, type SchoolSystemKind } from "./index.server";

export type SchoolOption = { school_code: string; school_name: string };

/** The schools students can pick; the built-in list when the database cannot answer. */
// Read on every login page and every sync with a school: kept until an operator changes a school (decision 056).
const enabledSchools = referenceCached(() => db().selectFrom("schools").selectAll().where("enabled", "=", 1).orderBy("sort_order").execute());

export async function listSchools(): Promise<{ schools: SchoolOption[]; fallback: boolean }> {
  try {
    const rows = await enabledSchools();
    return { schools: rows.map((row) => ({ school_code: row.code, school_name: row.name })), fallback: false };
  } catch (error) {
    log("error", "schools-load", { error: String(error) });
    return { schools: DEFAULT_SCHOOLS.map((school) => ({ school_code: school.code, school_name: school.name })), fallback: true };
  }
}

export async function findSchool(code: string): Promise<SchoolConfig | undefined> {
  const row = (await enabledSchools()).find((school) => school.code === code);
  if (!row) return undefined;
  return { code: row.code, name: row.name, system: row.system as SchoolSystemKind, baseUrl: row.base_url ?? undefined, gradeScale: parseGradeScale(row.grade_scale, row.gpa_formula) };
}

export function academicSystemFor(school: SchoolConfig): AcademicSystem {
  const settings = config();
  return createAcademicSystem(school, { timeoutMs: settings.academicTimeoutMs, outbound: { allowHosts: settings.outboundAllowHosts } });
}

/** The school's own session behind ours, sealed at rest (it holds the school's cookies). */
export async function saveAcademicSession(userId: number, session: AcademicSession) {
  const values = { user_id: userId, state_enc: seal(JSON.stringify(session)), updated_at: now() };
  await db()
    .insertInto("academic_sessions")
    .values(values)
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ state_enc: values.state_enc, updated_at: values.updated_at }))
    .execute();
}

export async function loadAcademicSession(userId: number): Promise<AcademicSession | null> {
  const row = await db().selectFrom("academic_sessions").select("state_enc").where("user_id", "=", userId).executeTakeFirst();
  if (!row) return null;
  try {
    return JSON.parse(unseal(row.state_enc)) as AcademicSession;
  } catch {
    return null;
  }
}
