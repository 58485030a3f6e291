// The circle's search at campus scale (a benchmark, not a test; docs/performance.md "Search").
//   npx tsx scripts/bench-search.ts [--dialect sqlite|postgres] [--posts 100000] [--comments 100000] [--runs 15]
// Builds a throwaway database of the dialect (SQLite: a file under tests/.tmp; PostgreSQL: a
// database created on BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres,
// and dropped at the end), migrates it, fills it with generated Chinese posts and comments, and
// times searchCircle() end to end (candidates, rows, ranking, highlighting) for each kind of
// query: median and slowest of --runs runs after one warm-up, and the CPU time per search (this
// process plus, on PostgreSQL, the database's server processes, read from /proc/<pid>/stat),
// which a loaded machine inflates far less than the wall-clock times.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

function arg(name: string, fallback: string) {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}
if (process.argv.includes("--help")) {
  console.log("npx tsx scripts/bench-search.ts [--dialect sqlite|postgres] [--posts 100000] [--comments 100000] [--runs 15]");
  process.exit(0);
}
const dialectName = arg("dialect", "sqlite");
const POSTS = Number(arg("posts", "100000"));
const COMMENTS = Number(arg("comments", "100000"));
const RUNS = Number(arg("runs", "15"));

const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const pgName = `bench_search_${process.pid}`;
let sqliteFile = "";
if (dialectName === "postgres") {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${pgName}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${pgName}`;
  process.env.DATABASE_URL = url.toString();
} else {
  fs.mkdirSync("tests/.tmp", { recursive: true });
  sqliteFile = path.resolve(`tests/.tmp/bench-search-${process.pid}.db`);
  process.env.DATABASE_URL = `file:${sqliteFile}`;
}
process.env.LOG_LEVEL = "warn";

const { db, closeDb } = await import("~/server/db/db.server");
const { migrateToLatest } = await import("~/server/db/migrate.server");
const { seedReferenceData } = await import("~/server/db/seed.server");
const { searchCircle } = await import("~/server/forum/search.server");
const { normalizeSearchQuery } = await import("~/lib/circle-search");
const { sql } = await import("kysely");

// Words of campus talk: sentences are drawn from them, so common words match thousands of rows
// and rare ones a few (RARE appears once in 5,000 posts).
const WORDS = (
  "今天 明天 食堂 图书馆 宿舍 操场 考试 复习 期末 高数 线代 英语 四级 六级 实验 报告 老师 同学 室友 社团 " +
  "快递 外卖 奶茶 自习室 教学楼 选课 课表 作业 论文 答辩 实习 兼职 家教 考研 保研 绩点 学分 体育课 跑步 " +
  "篮球 足球 羽毛球 游泳 健身房 电影 音乐 演唱会 旅行 周末 假期 寒假 暑假 天气 下雨 晴天 热水 空调 洗衣机 " +
  "校园卡 充电宝 雨伞 钥匙 耳机 电脑 手机 自行车 电动车 失物招领 二手 出售 求购 拼车 组队 约饭 聊天 吐槽 求助 分享"
).split(" ");
const RARE = "量子纠缠";
/** mulberry32: a small seeded generator, so every run builds the same texts. */
function generator(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function sentence(seed: number) {
  const words: string[] = [];
  const random = generator(seed);
  const length = 8 + (seed % 20);
  for (let i = 0; i < length; i += 1) {
    words.push(WORDS[Math.floor(random() * WORDS.length)]!);
    if (i % 5 === 4) words.push("，");
  }
  if (seed % 5000 === 17) words.splice(3, 0, RARE);
  return `${words.join("")}。`;
}

const database = db();
await migrateToLatest(database);
await seedReferenceData(database);
const at = (i: number) => new Date(Date.UTC(2026, 8, 1) + i * 60_000).toISOString();
const users: number[] = [];
for (let i = 0; i < 500; i += 1) {
  const row = await database.insertInto("users").values({ nickname: `同学${i}`, created_at: at(0), updated_at: at(0) }).returning("id").executeTakeFirstOrThrow();
  users.push(row.id);
}
const started = Date.now();
for (let i = 0; i < POSTS; i += 1000) {
  const rows = Array.from({ length: Math.min(1000, POSTS - i) }, (_, k) => {
    const n = i + k;
    return {
      user_id: users[n % users.length]!,
      category_id: 1 + (n % 6),
      title: n % 3 === 0 ? sentence(n + 7).slice(0, 12) : null,
      content: sentence(n),
      visibility: "public",
      is_anonymous: n % 4 === 0 ? 1 : 0,
      view_count: 0,
      comment_count: 0,
      like_count: 0,
      moderation: n % 50 === 0 ? ("hidden" as const) : ("visible" as const),
      created_at: at(n),
      updated_at: at(n),
      hot_score: 0,
    };
  });
  await database.insertInto("posts").values(rows).execute();
}
const { max } = await database.selectFrom("posts").select((eb) => eb.fn.max("id").as("max")).executeTakeFirstOrThrow();
for (let i = 0; i < COMMENTS; i += 1000) {
  const rows = Array.from({ length: Math.min(1000, COMMENTS - i) }, (_, k) => {
    const n = i + k;
    return {
      post_id: Number(max) - (n % POSTS),
      user_id: users[(n * 7) % users.length]!,
      content: sentence(n + 1_000_003).slice(0, 40),
      is_anonymous: n % 3 === 0 ? 1 : 0,
      like_count: 0,
      moderation: "visible" as const,
      created_at: at(POSTS + n),
    };
  });
  await database.insertInto("comments").values(rows).execute();
}
if (dialectName === "postgres") await sql`ANALYZE`.execute(database);
const filled = Date.now() - started;

const QUERIES: [string, string][] = [
  ["3+ chars, common (图书馆)", "图书馆"],
  ["3+ chars, rare (量子纠缠)", RARE],
  ["3+ chars, no match (不存在的词)", "不存在的词"],
  ["two terms (图书馆 自习)", "图书馆 自习"],
  ["2 chars, common (食堂)", "食堂"],
  ["2 chars, rare (量子)", "量子"],
  ["2 chars, no match (火星)", "火星"],
];
console.log(`\n${dialectName}: ${POSTS} posts, ${COMMENTS} comments (filled in ${(filled / 1000).toFixed(0)} s), ${RUNS} runs each\n`);
/** CPU time (ms) the server processes of the bench database have used so far (0 on SQLite: it runs in this process). */
async function serverCpuMs() {
  if (dialectName !== "postgres") return 0;
  const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(database);
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on Linux, or the server is on another machine: the column then counts this process only.
    }
  }
  return (ticks * 1000) / 100;
}
console.log(`load average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")}`);
console.log("| query | results (page 1) | median ms | slowest ms | CPU ms per search |");
console.log("|---|---|---|---|---|");
const viewerId = users[0]!;
for (const [label, text] of QUERIES) {
  const query = normalizeSearchQuery(text);
  if (!query.ok) throw new Error(label);
  await searchCircle({ terms: query.terms, viewerId });
  const times: number[] = [];
  let count = 0;
  const cpuBefore = process.cpuUsage();
  const serverBefore = await serverCpuMs();
  for (let run = 0; run < RUNS; run += 1) {
    const t = performance.now();
    const page = await searchCircle({ terms: query.terms, viewerId });
    times.push(performance.now() - t);
    count = page.hits.length;
  }
  const server = (await serverCpuMs()) - serverBefore;
  const own = process.cpuUsage(cpuBefore);
  const cpu = ((own.user + own.system) / 1000 + server) / RUNS;
  times.sort((a, b) => a - b);
  console.log(`| ${label} | ${count} | ${times[Math.floor(times.length / 2)]!.toFixed(1)} | ${times[times.length - 1]!.toFixed(1)} | ${cpu.toFixed(1)} |`);
}

await closeDb();
if (process.argv.includes("--keep")) {
  console.log(`kept: ${process.env.DATABASE_URL}`);
} else if (dialectName === "postgres") {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${pgName}`);
  await client.end();
} else {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(sqliteFile + suffix, { force: true });
}
