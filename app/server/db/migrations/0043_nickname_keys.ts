import { type Kysely, sql } from "kysely";
import { nicknameKey } from "../../../lib/nickname-words";

// One name per campus (decision 043): `nickname_key` is the nickname folded for comparison (width,
// case, spaces, invisible characters: lib/nickname-words), unique per campus. Students without a
// campus share the scope ''. Existing names are keyed; of two that fold alike in one campus the
// older account keeps it and the other is asked for a new one (its nickname is cleared).
export async function up(db: Kysely<any>) {
  await db.schema.alterTable("users").addColumn("nickname_key", "text").execute();
  const rows = (await db.selectFrom("users").select(["id", "nickname", "campus_code"]).where("nickname", "is not", null).orderBy("id").execute()) as {
    id: number;
    nickname: string;
    campus_code: string | null;
  }[];
  const seen = new Set<string>();
  for (const row of rows) {
    const key = nicknameKey(row.nickname);
    const scoped = `${row.campus_code ?? ""}\u0000${key}`;
    if (!key || seen.has(scoped)) {
      await db.updateTable("users").set({ nickname: null, nickname_key: null }).where("id", "=", row.id).execute();
      continue;
    }
    seen.add(scoped);
    await db.updateTable("users").set({ nickname_key: key }).where("id", "=", row.id).execute();
  }
  await db.schema
    .createIndex("users_campus_nickname")
    .on("users")
    .unique()
    .expression(sql`coalesce(campus_code, ''), nickname_key`)
    .execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex("users_campus_nickname").execute();
  await db.schema.alterTable("users").dropColumn("nickname_key").execute();
}
