// Back to /circle after 加载更多 (with JavaScript): the page's address carries how far the list
// was loaded (?until=, the last card's id), so the server renders the same cards again.
import { describe, expect, it } from "vitest";
import { PAGE_SIZE } from "~/lib/forum";
import { loader as circleLoader } from "~/routes/circle._index/route";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { db } from "../db/db.server";
import { createPost } from "./posts.server";

type Circle = { page: { posts: { id: number }[]; more: Record<string, string> | null } };

const open = async (query: string, cookie: string) => (await (await call(circleLoader, request(`/circle${query}`, { cookie }))).json()) as Circle;

describe("the circle's list as far as it was loaded", () => {
  it("?until= renders every card down to that one, then 加载更多 goes on from it", async () => {
    const author = await createStudent();
    const cookie = await sessionCookieFor(author.id);
    for (let i = 1; i <= PAGE_SIZE * 3 + 2; i++) await createPost({ userId: author.id, categoryId: 1, content: `第${i}条` });
    const all = (await db().selectFrom("posts").select("id").where("moderation", "=", "visible").orderBy("id", "desc").execute()).map((row) => row.id);

    const first = await open("", cookie);
    expect(first.page.posts.map((post) => post.id)).toEqual(all.slice(0, PAGE_SIZE));
    // Two pages loaded: the second page's last card.
    const until = all[PAGE_SIZE * 2 - 1]!;
    const restored = await open(`?until=${until}`, cookie);
    expect(restored.page.posts.map((post) => post.id)).toEqual(all.slice(0, PAGE_SIZE * 2));
    expect(restored.page.more).toEqual({ before: String(until) });
    expect((await open(`?before=${restored.page.more!.before}`, cookie)).page.posts.map((post) => post.id)).toEqual(all.slice(PAGE_SIZE * 2, PAGE_SIZE * 3));

    // Everything loaded: no 加载更多.
    const last = await open(`?until=${all.at(-1)}`, cookie);
    expect(last.page.posts).toHaveLength(Math.min(all.length, PAGE_SIZE * 10));
    // A made-up cursor above the first page still shows a full page; a bad one is ignored.
    expect((await open(`?until=${all[0]}`, cookie)).page.posts.map((post) => post.id)).toEqual(all.slice(0, PAGE_SIZE));
    expect((await open("?until=abc", cookie)).page.posts.map((post) => post.id)).toEqual(all.slice(0, PAGE_SIZE));
  });
});
