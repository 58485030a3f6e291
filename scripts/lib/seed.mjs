// Seeding a migrated database (the server has run its migrations on it) to a given size for the
// scripts that measure the app (bench.mjs: campus size; load.mjs: a few hundred), and logging
// students in without the login form (a session row and its signed cookie).
import crypto from "node:crypto";
import { signedCookie } from "./app-server.mjs";

/**
 * Bound students (nicknames 同学0…), posts in the first category, comments, likes and orders,
 * the counters matching the rows. `database` is an openDatabase() handle. Returns
 * { ms, userIds, postIds }.
 */
export async function seedCampus(database, size) {
  const started = Date.now();
  const iso = (ms) => new Date(ms).toISOString();
  const now = Date.now();
  if (database.dialect === "sqlite") database.sqlite.pragma("synchronous = OFF");
  const category = (await database.get("SELECT id FROM forum_categories ORDER BY id LIMIT 1")).id;
  const userIds = [];
  const postIds = [];
  await database.transaction(async () => {
    for (let i = 0; i < size.students; i++) {
      const row = await database.get(
        `INSERT INTO users (school_code, student_id, real_name, nickname, student_bound_at, created_at, updated_at)
         VALUES ('demo', ?, '压测同学', ?, ?, ?, ?) RETURNING id`,
        [`b${String(i).padStart(8, "0")}`, `同学${i}`, iso(now), iso(now), iso(now)],
      );
      userIds.push(Number(row.id));
    }
    const userId = (i) => userIds[i % size.students];

    const commentsPer = Math.floor(size.comments / Math.max(1, size.posts));
    const likesPer = Math.min(size.students, Math.floor(size.likes / Math.max(1, size.posts)));
    for (let i = 0; i < size.posts; i++) {
      const at = iso(now - (size.posts - i) * 60_000);
      const row = await database.get(
        `INSERT INTO posts (user_id, category_id, title, content, comment_count, like_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        [userId(i * 7), category, `帖子 ${i}`, `第 ${i} 条帖子：有人一起去图书馆自习吗？`.repeat(3), commentsPer, likesPer, at, at],
      );
      postIds.push(Number(row.id));
    }
    for (let i = 0; i < size.posts * commentsPer; i++) {
      await database.run("INSERT INTO comments (post_id, user_id, content, created_at) VALUES (?, ?, ?, ?)", [
        postIds[i % size.posts],
        userId(i * 13),
        `评论 ${i}：同去！`,
        iso(now - i * 1000),
      ]);
    }
    for (let k = 0; k < size.posts * likesPer; k++) {
      const postIndex = k % size.posts;
      await database.run("INSERT INTO post_likes (post_id, user_id, created_at) VALUES (?, ?, ?)", [
        postIds[postIndex],
        userId(Math.floor(k / size.posts) + postIndex * 7 + 1),
        iso(now),
      ]);
    }
    const day = iso(now).slice(0, 10).replace(/-/g, "");
    for (let i = 0; i < size.orders; i++) {
      const paid = i % 3 !== 0;
      await database.run(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, package_counts,
           parcel_count, original_fen, amount_fen, status, payment_status, estimated_delivery_at, expires_at, created_at, updated_at)
         VALUES (?, ?, 'demo', '演示校区', '压测', '13800138000', '{"pocket":1,"small":0,"medium":0,"large":0}', 1, 300, 300, ?, ?, ?, ?, ?, ?)`,
        [`E${day}${String(100000 + i).slice(-6)}`, userId(i * 3), paid ? "paid" : "created", paid ? "paid" : "pending", iso(now), iso(now + 900_000), iso(now - i * 5000), iso(now - i * 5000)],
      );
    }
  });
  await database.exec("ANALYZE");
  return { ms: Date.now() - started, userIds, postIds };
}

/**
 * Opens a session for each user (a row in `sessions`, as a login does) and returns the signed
 * `__session` cookies ("__session=…"), in the order of userIds.
 */
export async function studentSessions(database, userIds, secret) {
  const iso = new Date().toISOString();
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const ids = userIds.map(() => crypto.randomBytes(32).toString("base64url"));
  await database.transaction(async () => {
    for (const [index, userId] of userIds.entries()) {
      await database.run(
        `INSERT INTO sessions (id, user_id, device_id, platform, created_at, expires_at, ended_at, end_reason)
         VALUES (?, ?, ?, 'web', ?, ?, NULL, NULL)`,
        [ids[index], userId, `script-device-${userId}`, iso, expires],
      );
    }
  });
  return Promise.all(ids.map((id) => signedCookie("__session", id, secret)));
}
