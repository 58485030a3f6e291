import type { ThemeName } from "~/lib/theme";
import { db, now } from "../db/db.server";

export async function saveTheme(userId: number, theme: ThemeName) {
  await db().updateTable("users").set({ theme, updated_at: now() }).where("id", "=", userId).execute();
}
