// The student's own profile: the one name the circle, comments and invites show (publicName).
import type { User } from "../auth/session.server";
import { db, now } from "../db/db.server";
import { publicName } from "../forum/posts.server";

export function profileView(user: User) {
  return {
    nickname: user.nickname ?? "",
    displayName: publicName(user),
    avatar: user.avatar_url ?? user.wechat_avatar ?? null,
    // Shown to its owner only: this view is built for the logged-in student themself.
    realName: user.real_name ?? null,
    studentId: user.student_id ?? null,
  };
}

export async function setNickname(userId: number, nickname: string) {
  await db().updateTable("users").set({ nickname, updated_at: now() }).where("id", "=", userId).execute();
}
