import type { NoticeSwitch } from "~/lib/notify";
import type { Appearance, ThemeName } from "~/lib/theme";
import { db, now } from "../db/db.server";

export async function saveTheme(userId: number, theme: ThemeName, appearance: Appearance) {
  await db().updateTable("users").set({ theme, appearance, updated_at: now() }).where("id", "=", userId).execute();
}

/** The circle's notice switches (no row: all on). */
export async function noticeSettings(userId: number): Promise<Record<NoticeSwitch, boolean>> {
  const row = await db().selectFrom("notice_settings").select(["replies", "mentions", "likes"]).where("user_id", "=", userId).executeTakeFirst();
  return { replies: row ? row.replies === 1 : true, mentions: row ? row.mentions === 1 : true, likes: row ? row.likes === 1 : true };
}

export async function saveNoticeSettings(userId: number, on: Record<NoticeSwitch, boolean>) {
  const values = { replies: on.replies ? 1 : 0, mentions: on.mentions ? 1 : 0, likes: on.likes ? 1 : 0, updated_at: now() };
  await db()
    .insertInto("notice_settings")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
}
