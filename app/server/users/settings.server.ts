import type { Appearance, ThemeName } from "~/lib/theme";
import { db, now } from "../db/db.server";

export async function saveTheme(userId: number, theme: ThemeName, appearance: Appearance) {
  await db().updateTable("users").set({ theme, appearance, updated_at: now() }).where("id", "=", userId).execute();
}
