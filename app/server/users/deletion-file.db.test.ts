// A deleted account's text leaves the SQLite file itself (decision 033): secure_delete zeroes
// the freed space, the deletion job checkpoints and empties the WAL, and a backup taken afterwards
// holds none of it. On PostgreSQL the same lives in dead tuples until VACUUM (README).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { config } from "~/server/config.server";
import { db, dialect, now, sqlitePath } from "~/server/db/db.server";
import { createStudent } from "../../../tests/setup/helpers";
import { backupSqlite } from "../../../scripts/db-backup.mjs";
import { runAccountDeletionJob } from "./deletion.server";

const MARKER = "QZX7731-只属于被删除的人";

function bytesHold(file: string, text: string) {
  return fs.existsSync(file) && fs.readFileSync(file).includes(Buffer.from(text, "utf8"));
}

describe.skipIf(dialect() !== "sqlite")("a deleted account in the SQLite file", () => {
  it("is readable in the file or the WAL before the job, and in neither (nor in a backup) after it", async () => {
    const file = sqlitePath(config().databaseUrl);
    const stamp = now();
    const user = await createStudent({ nickname: `昵称${MARKER}`.slice(0, 40), real_name: `姓名${MARKER}` });
    await db()
      .insertInto("posts")
      .values({ user_id: user.id, category_id: 1, title: null, content: `帖子${MARKER}`, status: null, visibility: "public", is_anonymous: 0, view_count: 0, comment_count: 0, like_count: 0, moderation: "visible", reviewed_at: null, created_at: stamp, updated_at: stamp })
      .execute();
    // The check can fail: the text is there, in the main file or the WAL, before the job.
    expect(bytesHold(file, MARKER.slice(0, 7)) || bytesHold(`${file}-wal`, MARKER.slice(0, 7))).toBe(true);

    await db().updateTable("users").set({ deletion_requested_at: stamp }).where("id", "=", user.id).execute();
    expect(await runAccountDeletionJob()).toBe(1);

    expect(bytesHold(file, MARKER.slice(0, 7))).toBe(false);
    expect(bytesHold(`${file}-wal`, MARKER.slice(0, 7))).toBe(false);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "deleted-backup-"));
    try {
      const { destination } = await backupSqlite(file, path.join(dir, "backup.db"));
      expect(fs.statSync(destination).size).toBeGreaterThan(0);
      expect(bytesHold(destination, MARKER.slice(0, 7))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
