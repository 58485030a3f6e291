// One display name per campus (decision 043): a nickname is stored with its folded key
// (lib/nickname-words nicknameKey), unique per campus (users_campus_nickname, students without a
// campus share one scope). Every write of `users.nickname` goes through here, so the key follows.
import { nicknameProblem, realNickname } from "~/lib/nickname";
import { nicknameKey } from "~/lib/nickname-words";
import { db, isUniqueViolation, now, type Executor } from "../db/db.server";


/** The columns that store a nickname (or none). */
export function nicknameColumns(nickname: string | null) {
  return { nickname, nickname_key: nickname ? nicknameKey(nickname) : null };
}

/** Whether someone else of this campus goes by a name that folds to the same key. */
export async function nicknameTaken(executor: Executor, nickname: string, campusCode: string | null, exceptUserId: number | null) {
  let query = executor
    .selectFrom("users")
    .select("id")
    .where(({ eb, fn, val }) => eb(fn.coalesce("campus_code", val("")), "=", campusCode ?? ""))
    .where("nickname_key", "=", nicknameKey(nickname));
  if (exceptUserId !== null) query = query.where("id", "!=", exceptUserId);
  return Boolean(await query.executeTakeFirst());
}

export type NicknameSaved = { ok: true } | { ok: false; reason: "taken" };

/** A student's chosen nickname (checked by the form's schema): refused when taken in their campus. */
export async function setNickname(userId: number, nickname: string): Promise<NicknameSaved> {
  const user = await db().selectFrom("users").select("campus_code").where("id", "=", userId).executeTakeFirstOrThrow();
  if (await nicknameTaken(db(), nickname, user.campus_code, userId)) return { ok: false, reason: "taken" };
  try {
    await db().updateTable("users").set({ ...nicknameColumns(nickname), updated_at: now() }).where("id", "=", userId).execute();
  } catch (error) {
    // Two people choosing the same name at once: the index lets one through.
    if (isUniqueViolation(error)) return { ok: false, reason: "taken" };
    throw error;
  }
  return { ok: true };
}

/**
 * The nickname a messenger profile may give a person who has none: the provider's name when it is
 * a real one (not the placeholder 微信用户 or empty), passes the rules for a chosen name and is
 * free in their campus; else none, and the student is asked once before they first write.
 */
export async function nicknameFromMessenger(executor: Executor, providerName: string | null, campusCode: string | null, userId: number | null) {
  const name = realNickname(providerName);
  if (!name || nicknameProblem(name) || (await nicknameTaken(executor, name, campusCode, userId))) return null;
  return name;
}

/**
 * A person's campus changes: their nickname goes with them when it is free there, else it is
 * cleared (they are asked for another before they next write). Answers the columns to write.
 */
export async function nicknameForCampus(executor: Executor, user: { id: number; nickname: string | null }, campusCode: string | null) {
  if (!user.nickname || !(await nicknameTaken(executor, user.nickname, campusCode, user.id))) return {};
  return nicknameColumns(null);
}
