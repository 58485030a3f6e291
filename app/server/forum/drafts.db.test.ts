import { describe, expect, it } from "vitest";
import { action as publishAction, loader as publishLoader } from "~/routes/publish-post/route";
import { action as commentAction, loader as commentLoader } from "~/routes/post.$id.comment/route";
import { endUserSessions } from "~/server/auth/session.server";
import { visitCookieHeader } from "~/server/auth/visit.server";
import { db } from "~/server/db/db.server";
import { call, cookieValue, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { createPost } from "./posts.server";

// Nothing typed is lost: a post or comment sent after the session ended is kept on the
// server for this browser and this student, and the page's loader gives it back once after the login.

type PublishData = { draft: { content: string; categoryId: number | null; isAnonymous: boolean; images: unknown[] } | null };
type CommentData = { draft: { content: string; isAnonymous: boolean } | null };

function draftCookieOf(response: Response) {
  const setCookie = response.headers.getSetCookie().find((value) => value.startsWith("__draft="));
  return setCookie ? cookieValue(setCookie) : undefined;
}

async function studentWithEndedSession(reason: "replaced" | "expired" = "replaced") {
  const user = await createStudent({ nickname: `草稿同学${Math.random().toString(36).slice(2, 7)}` });
  // The browser was shown our pages before: it holds the pre-login cookie (auth/visit.server).
  const cookie = `${await sessionCookieFor(user.id)}; ${cookieValue(await visitCookieHeader())}`;
  if (reason === "replaced") await endUserSessions(user.id, "replaced");
  else await db().updateTable("sessions").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("user_id", "=", user.id).execute();
  return { user, cookie };
}

function publishForm(fields: Record<string, string>, cookie: string, data = false) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return request(`/publish-post${data ? "?_data=routes%2Fpublish-post" : ""}`, { method: "POST", body, cookie });
}

const rows = async () => Number((await db().selectFrom("draft_stash").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);

describe("the post draft after a forced login", () => {
  it("without JS: the login page with the draft's cookie; after the login the page has the text once, then publishes", async () => {
    const { user, cookie } = await studentWithEndedSession();
    const content = "被挤下线前写好的帖子，一个字都不能丢";
    const sent = await call(publishAction, publishForm({ content, categoryId: "2", isAnonymous: "on" }, cookie));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/crLogin?redirectTo=%2Fpublish-post&reason=replaced");
    const draft = draftCookieOf(sent);
    expect(draft).toMatch(/^__draft=/);
    expect(sent.headers.getSetCookie().find((value) => value.startsWith("__draft="))).toMatch(/HttpOnly/i);

    const fresh = `${await sessionCookieFor(user.id)}; ${draft}`;
    const page = (await (await call(publishLoader, request("/publish-post", { cookie: fresh }))).json()) as PublishData;
    expect(page.draft).toEqual({ content, categoryId: 2, isAnonymous: true, images: [] });
    // Taken once: a reload shows the browser's own draft (or nothing), and the row is gone.
    const again = (await (await call(publishLoader, request("/publish-post", { cookie: fresh }))).json()) as PublishData;
    expect(again.draft).toBeNull();

    const published = await call(publishAction, publishForm({ content, categoryId: "2" }, fresh));
    expect(published.headers.get("Location")).toBe("/circle?notice=published");
    expect(await db().selectFrom("posts").select("id").where("user_id", "=", user.id).where("content", "=", content).execute()).toHaveLength(1);
  });

  it("with JS (single fetch: the same answer for every caller): the login page with the cookie; an expired session keeps the draft the same way", async () => {
    const { user, cookie } = await studentWithEndedSession("expired");
    const sent = await call(publishAction, publishForm({ content: "过期前写的", categoryId: "1" }, cookie, true));
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toMatch(/^\/crLogin\?redirectTo=%2Fpublish-post/);
    const draft = draftCookieOf(sent);
    expect(draft).toBeDefined();
    const fresh = `${await sessionCookieFor(user.id)}; ${draft}`;
    const page = (await (await call(publishLoader, request("/publish-post", { cookie: fresh }))).json()) as PublishData;
    expect(page.draft?.content).toBe("过期前写的");
  });

  it("never another student's: a different login on the same browser gets nothing, the owner still gets it", async () => {
    const { user, cookie } = await studentWithEndedSession();
    const sent = await call(publishAction, publishForm({ content: "只给自己看的草稿", categoryId: "1" }, cookie));
    const draft = draftCookieOf(sent)!;
    const other = await createStudent({ nickname: "别的同学" });
    const theirs = (await (await call(publishLoader, request("/publish-post", { cookie: `${await sessionCookieFor(other.id)}; ${draft}` }))).json()) as PublishData;
    expect(theirs.draft).toBeNull();
    const mine = (await (await call(publishLoader, request("/publish-post", { cookie: `${await sessionCookieFor(user.id)}; ${draft}` }))).json()) as PublishData;
    expect(mine.draft?.content).toBe("只给自己看的草稿");
    // Without the cookie (another browser) there is nothing to find, and a forged cookie is refused.
    const forged = draft.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const none = (await (await call(publishLoader, request("/publish-post", { cookie: `${await sessionCookieFor(user.id)}; ${forged}` }))).json()) as PublishData;
    expect(none.draft).toBeNull();
  });

  it("bounded: text cut at the form's limit, files never kept, a stash older than 30 minutes is gone", async () => {
    const { user, cookie } = await studentWithEndedSession();
    const body = new FormData();
    body.append("content", "长".repeat(5000));
    body.append("categoryId", "1");
    body.append("images", "https://evil.example/x.jpg");
    body.append("files", new Blob([new Uint8Array(1024)], { type: "image/jpeg" }), "a.jpg");
    const sent = await call(publishAction, request("/publish-post", { method: "POST", body, cookie }));
    const draft = draftCookieOf(sent)!;
    const row = await db().selectFrom("draft_stash").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    // The file itself is never kept; how many were chosen is, for the page to say so.
    expect(JSON.parse(row.payload)).toEqual({ content: "长".repeat(500), isAnonymous: false, categoryId: 1, images: [], droppedImages: 1 });
    await db().updateTable("draft_stash").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", row.id).execute();
    const page = (await (await call(publishLoader, request("/publish-post", { cookie: `${await sessionCookieFor(user.id)}; ${draft}` }))).json()) as PublishData;
    expect(page.draft).toBeNull();
    expect(await db().selectFrom("draft_stash").select("id").where("id", "=", row.id).execute()).toHaveLength(0);
  });

  it("without JS, pictures chosen before the forced login are named after it: the page says how many to add again", async () => {
    const { user, cookie } = await studentWithEndedSession();
    const body = new FormData();
    body.append("content", "带图的帖子");
    body.append("categoryId", "2");
    for (const name of ["a.jpg", "b.jpg"]) body.append("files", new Blob([new Uint8Array(2048)], { type: "image/jpeg" }), name);
    body.append("files", new Blob([], { type: "application/octet-stream" }), "");
    const sent = await call(publishAction, request("/publish-post", { method: "POST", body, cookie }));
    const draft = draftCookieOf(sent)!;
    const page = (await (await call(publishLoader, request("/publish-post", { cookie: `${await sessionCookieFor(user.id)}; ${draft}` }))).json()) as {
      draft: { content: string; droppedImages: number } | null;
    };
    expect(page.draft).toMatchObject({ content: "带图的帖子", droppedImages: 2 });
  });

  it("an empty form keeps nothing: the login page without a cookie", async () => {
    const { cookie } = await studentWithEndedSession();
    const before = await rows();
    const sent = await call(publishAction, publishForm({ content: "  " }, cookie));
    expect(sent.status).toBe(302);
    expect(draftCookieOf(sent)).toBeUndefined();
    expect(await rows()).toBe(before);
  });
});

describe("the comment draft after a forced login", () => {
  it("without JS: back to the comment sheet (with its reply) with the text; a sent comment drops the draft", async () => {
    const author = await createStudent({ nickname: "楼主同学" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "求推荐自习室" });
    const { user, cookie } = await studentWithEndedSession();
    const fields = new URLSearchParams({ intent: "comment", content: "图书馆四楼很安静", isAnonymous: "on" });
    const sent = await call(commentAction, request(`/post/${id}/comment`, { method: "POST", body: fields, cookie }), { id: String(id) });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/crLogin?redirectTo=%2Fpost%2F${id}%2Fcomment&reason=replaced`);
    const draft = draftCookieOf(sent)!;
    expect(draft).toBeDefined();

    // Another post's sheet does not take it; this one does, once.
    const fresh = `${await sessionCookieFor(user.id)}; ${draft}`;
    const elsewhere = (await (await call(commentLoader, request(`/post/${id + 1000}/comment`, { cookie: fresh }), { id: String(id + 1000) })).json()) as CommentData;
    expect(elsewhere.draft).toBeNull();
    const sheet = (await (await call(commentLoader, request(`/post/${id}/comment`, { cookie: fresh }), { id: String(id) })).json()) as CommentData;
    expect(sheet.draft).toMatchObject({ content: "图书馆四楼很安静", isAnonymous: true });
    const again = (await (await call(commentLoader, request(`/post/${id}/comment`, { cookie: fresh }), { id: String(id) })).json()) as CommentData;
    expect(again.draft).toBeNull();

    const posted = await call(commentAction, request(`/post/${id}/comment`, { method: "POST", body: fields, cookie: fresh }), { id: String(id) });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toMatch(new RegExp(`^/post/${id}`));
  });

  it("with JS (single fetch: the same answer for every caller): the login page, with the draft's cookie", async () => {
    const author = await createStudent({ nickname: "楼主二号" });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "周末一起打球" });
    const { user, cookie } = await studentWithEndedSession();
    const fields = new URLSearchParams({ intent: "comment", content: "算我一个" });
    const sent = await call(commentAction, request(`/post/${id}/comment`, { method: "POST", body: fields, cookie }), { id: String(id) });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(`/crLogin?redirectTo=%2Fpost%2F${id}%2Fcomment&reason=replaced`);
    const draft = draftCookieOf(sent)!;
    const sheet = (await (await call(commentLoader, request(`/post/${id}/comment`, { cookie: `${await sessionCookieFor(user.id)}; ${draft}` }), { id: String(id) })).json()) as CommentData;
    expect(sheet.draft?.content).toBe("算我一个");
  });
});

describe("a comment sheet closed with text in it (backdrop, ×: intent=dismiss, as JS's Back sends too)", () => {
  async function studentAndPost() {
    const author = await createStudent({ nickname: `楼主${Math.random().toString(36).slice(2, 7)}` });
    const { id } = await createPost({ userId: author.id, categoryId: 1, content: "食堂哪个窗口好吃" });
    const user = await createStudent({ nickname: `评论者${Math.random().toString(36).slice(2, 7)}` });
    return { id, user, cookie: await sessionCookieFor(user.id) };
  }
  const sheetOf = async (id: number, cookie: string, query = "") =>
    (await (await call(commentLoader, request(`/post/${id}/comment${query}`, { cookie }), { id: String(id) })).json()) as CommentData;

  it("goes back to the post, and the sheet opens with the text each time until it is sent", async () => {
    const { id, cookie } = await studentAndPost();
    const closed = await call(
      commentAction,
      request(`/post/${id}/comment`, { method: "POST", body: new URLSearchParams({ intent: "dismiss", content: "二楼的麻辣烫", isAnonymous: "on" }), cookie }),
      { id: String(id) },
    );
    expect(closed.status).toBe(302);
    expect(closed.headers.get("Location")).toBe(`/post/${id}`);
    const withDraft = `${cookie}; ${draftCookieOf(closed)}`;
    expect((await sheetOf(id, withDraft)).draft).toMatchObject({ content: "二楼的麻辣烫", isAnonymous: true });
    // Still there after a second opening (a Back without JavaScript sends nothing).
    expect((await sheetOf(id, withDraft)).draft).toMatchObject({ content: "二楼的麻辣烫" });
    // A reply sheet of the same post is another sheet.
    expect((await sheetOf(id, withDraft, "?reply=12345")).draft).toBeNull();

    const posted = await call(commentAction, request(`/post/${id}/comment`, { method: "POST", body: new URLSearchParams({ intent: "comment", content: "二楼的麻辣烫" }), cookie: withDraft }), {
      id: String(id),
    });
    expect(posted.status).toBe(302);
    expect((await sheetOf(id, withDraft)).draft).toBeNull();
  });

  it("a reply closed with only its @mention, or emptied, keeps nothing (and drops what was kept)", async () => {
    const { id, user, cookie } = await studentAndPost();
    const keep = await call(commentAction, request(`/post/${id}/comment`, { method: "POST", body: new URLSearchParams({ intent: "dismiss", content: "写了一半" }), cookie }), { id: String(id) });
    const withDraft = `${cookie}; ${draftCookieOf(keep)}`;
    const emptied = await call(
      commentAction,
      request(`/post/${id}/comment?reply=7`, { method: "POST", body: new URLSearchParams({ intent: "dismiss", content: "@楼主同学 ", parentId: "7" }), cookie: withDraft }),
      { id: String(id) },
    );
    expect(emptied.headers.get("Location")).toBe(`/post/${id}`);
    expect(draftCookieOf(emptied)).toBeUndefined();
    expect(await db().selectFrom("draft_stash").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });
});

describe("the mutual-help form left by its back arrow (intent=leave)", () => {
  it("keeps the note, contact and type for that class, for this student", async () => {
    const { action: helpAction } = await import("~/routes/schedule.mutual-help");
    const user = await createStudent({ nickname: "互助同学" });
    const cookie = await sessionCookieFor(user.id);
    const body = new URLSearchParams({ intent: "leave", term: "2026-2027-1", week: "7", course: "0", note: "坐第三排", contact: "wx_keepme", kind: "experiment" });
    const left = await call(helpAction, request("/schedule/mutual-help", { method: "POST", body, cookie }));
    expect(left.status).toBe(302);
    expect(left.headers.get("Location")).toBe("/schedule");
    const row = await db().selectFrom("draft_stash").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: "help", path: "/schedule/mutual-help?term=2026-2027-1&course=0" });
    expect(JSON.parse(row.payload)).toMatchObject({ content: "坐第三排", contact: "wx_keepme", courseKind: "experiment", kept: true });
  });
});

describe("the access guard", () => {
  it("lets a POST through to a route whose handle keeps drafts (the post and comment forms); pages stay guarded", async () => {
    const { accessRedirect } = await import("~/server/auth/guard.server");
    const { routeTable } = await import("~/server/http/routes");
    const publish = await import("~/routes/publish-post/route");
    const comment = await import("~/routes/post.$id.comment/route");
    const post = await import("~/routes/post.$id/route");
    const report = await import("~/routes/post.$id.report/route");
    const route = (id: string, parentId: string | undefined, path: string | undefined, module: object) => ({ id, parentId, path, module });
    const table = routeTable({
      routes: {
        root: route("root", undefined, "", {}),
        "routes/publish-post": route("routes/publish-post", "root", "publish-post", publish),
        "routes/post.$id": route("routes/post.$id", "root", "post/:id", post),
        "routes/post.$id.comment": route("routes/post.$id.comment", "routes/post.$id", "comment", comment),
        "routes/post.$id.report": route("routes/post.$id.report", "routes/post.$id", "report", report),
      },
    } as never);
    const { cookie } = await studentWithEndedSession();
    const guard = (path: string, method = "POST") => accessRedirect(request(path, { method, cookie }), table.routeOf(path));
    expect(table.routeOf("/post/12/comment")).toEqual({ exists: true, template: "/post/:id/comment", keepsDraft: true });
    expect(await guard("/publish-post")).toBeNull();
    expect(await guard("/publish-post.data")).toBeNull();
    expect(await guard("/post/12/comment")).toBeNull();
    expect(await guard("/publish-post", "GET")).toBe("/crLogin?redirectTo=%2Fpublish-post&reason=replaced");
    expect(await guard("/post/12/report")).toMatch(/^\/crLogin/);
    expect(await guard("/post/12")).toMatch(/^\/crLogin/);
  });
});

describe("the stash refuses what no browser of ours sent", () => {
  it("a POST without the pre-login cookie keeps nothing (a script posting straight at the form)", async () => {
    const user = await createStudent({ nickname: "脚本草稿" });
    const cookie = await sessionCookieFor(user.id);
    await endUserSessions(user.id, "replaced");
    const before = await rows();
    const sent = await call(publishAction, publishForm({ content: "没有看过页面的请求", categoryId: "1" }, cookie));
    expect(sent.status).toBe(302);
    expect(draftCookieOf(sent)).toBeUndefined();
    expect(await rows()).toBe(before);
  });
});
