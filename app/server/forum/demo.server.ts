import type { DB } from "../db/db.server";
import { recountComment, recountPost } from "./posts.server";

// A few posts for trying the circle on an empty database (SEED_DEMO_DATA, the default outside
// tests). Their authors are demo people without a student account: nobody can log in as them.

const HOUR = 60 * 60 * 1000;

type DemoComment = { by: number; text: string; ago: number; reply?: number; anonymous?: boolean };
type DemoPost = {
  by: number;
  category: number;
  content: string;
  ago: number;
  title?: string;
  status?: "ongoing" | "completed";
  anonymous?: boolean;
  likes: number[];
  comments: DemoComment[];
};

const PEOPLE = ["图书馆占座王", "小西瓜同学", "二手小能手", "食堂测评员"];

const POSTS: DemoPost[] = [
  {
    by: 2,
    category: 5,
    content: "出一台九成新的小米台灯，宿舍用了一学期，无划痕，带原装充电线。30 元自提，云塘校区 3 栋楼下。",
    ago: 72 * HOUR,
    likes: [0],
    comments: [{ by: 0, text: "还在吗？明天下午可以去拿", ago: 70 * HOUR }, { by: 2, text: "在的，下午三点后都可以", ago: 69 * HOUR, reply: 0 }],
  },
  {
    by: 0,
    category: 2,
    content: "期末复习小建议：高数先把历年真题做两遍，错题按章节整理。图书馆三楼东侧自习室插座多，早上 8 点前去基本有位置。",
    ago: 26 * HOUR,
    likes: [1, 2, 3],
    comments: [
      { by: 3, text: "感谢分享！请问线代有推荐的资料吗？", ago: 25 * HOUR },
      { by: 0, text: "@食堂测评员 推荐学校教材配套的习题册，课后题吃透就够了", ago: 24 * HOUR, reply: 0 },
      { by: 1, text: "三楼东侧确实好，就是空调有点冷，记得带外套", ago: 20 * HOUR },
    ],
  },
  {
    by: 3,
    category: 6,
    content: "避雷东门外新开的那家奶茶店，等了四十分钟，奶茶还是温的……大家别冲了。",
    ago: 9 * HOUR,
    anonymous: true,
    likes: [0, 1],
    comments: [{ by: 2, text: "同感，上周也踩雷了", ago: 8 * HOUR }],
  },
  {
    by: 1,
    category: 3,
    title: "大学英语（二）",
    status: "ongoing",
    content: "课程：大学英语（二）\n时间：周三 第3-4节（10:00-11:40）\n地点：教学楼 A201\n类型：普通课程\n费用：25 元\n联系方式：点帖子里的“我来帮忙”，双方互换联系方式\n备注：只需要签到，谢谢！",
    ago: 3 * HOUR,
    likes: [],
    comments: [],
  },
  {
    by: 0,
    category: 1,
    content: "今天二食堂的糖醋里脊终于回来了！！排队的人超多，建议十一点半前去。",
    ago: 40 * 60 * 1000,
    likes: [3],
    comments: [{ by: 3, text: "冲！", ago: 30 * 60 * 1000 }],
  },
];

export async function seedCircleDemo(database: DB, at = new Date()) {
  const iso = (ago: number) => new Date(at.getTime() - ago).toISOString();
  const people: number[] = [];
  for (const nickname of PEOPLE) {
    const row = await database
      .insertInto("users")
      .values({ nickname, created_at: iso(90 * 24 * HOUR), updated_at: iso(90 * 24 * HOUR) })
      .returning("id")
      .executeTakeFirstOrThrow();
    people.push(row.id);
  }
  for (const post of POSTS) {
    const created = await database
      .insertInto("posts")
      .values({
        user_id: people[post.by]!,
        category_id: post.category,
        title: post.title ?? null,
        content: post.content,
        status: post.status ?? null,
        visibility: "public",
        is_anonymous: post.anonymous ? 1 : 0,
        view_count: 12 + post.likes.length * 7 + post.comments.length * 5,
        comment_count: 0,
        like_count: 0,
        moderation: "visible",
        reviewed_at: null,
        created_at: iso(post.ago),
        updated_at: iso(post.ago),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const by of post.likes) {
      await database.insertInto("post_likes").values({ post_id: created.id, user_id: people[by]!, created_at: iso(post.ago / 2) }).execute();
    }
    const commentIds: number[] = [];
    for (const comment of post.comments) {
      const row = await database
        .insertInto("comments")
        .values({
          post_id: created.id,
          user_id: people[comment.by]!,
          parent_id: comment.reply === undefined ? null : commentIds[comment.reply]!,
          content: comment.text,
          is_anonymous: comment.anonymous ? 1 : 0,
          like_count: 0,
          moderation: "visible",
          reviewed_at: null,
          created_at: iso(comment.ago),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      commentIds.push(row.id);
    }
    if (commentIds[0] !== undefined) {
      await database.insertInto("comment_likes").values({ comment_id: commentIds[0], user_id: people[post.by]!, created_at: iso(post.ago / 2) }).execute();
      await recountComment(database, commentIds[0]);
    }
    await recountPost(database, created.id);
  }
}
