// /schedule/mutual-help and /post/:id/help on a real database: the class comes from the student's
// own (demo school) timetable by its place in it, never from text in the URL; the contact stays
// off the post and is swapped through both inboxes by 我来帮忙.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as msg from "~/lib/messages";
import { helpCourseHref } from "~/lib/mutual-help";
import { termForDate } from "~/lib/term";
import { action as offerAction, loader as offerLoader } from "~/routes/post.$id.help/route";
import { action, loader } from "~/routes/schedule.mutual-help";
import { resetConfig } from "~/server/config.server";
import { seal } from "~/server/crypto.server";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";

// The clock is Wednesday 2026-10-14 10:30 in Shanghai, week 6 of term 2026-2027-1 (week 1 starts
// Monday 2026-09-07): Monday's 数据结构 (08:10) of this week is over, next week's (2026-10-19) is to come.
const TODAY = new Date("2026-10-14T10:30:00+08:00");
const TERM = termForDate(TODAY).code;
const NEXT = "7";
const NEXT_DATE = "2026-10-19";

beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(TODAY);
  resetConfig();
});
afterAll(() => vi.useRealTimers());

/** A demo-school student with stored credentials, so the demo timetable loads. */
async function demoStudent(studentId: "20230001" | "20230002", fields: Record<string, unknown> = {}) {
  await db().deleteFrom("users").where("school_code", "=", "demo").where("student_id", "=", studentId).execute();
  const user = await createStudent({ school_code: "demo", student_id: studentId, real_name: "张明", class_name: "计科2301班", college: "计算机学院", password_enc: seal("demo1234"), ...fields });
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** The timetable index of 数据结构 on Monday, read from the /schedule page's own link. */
async function dataStructuresRef(cookie: string) {
  const { loader: scheduleLoader } = await import("~/routes/schedule._index/route");
  const view = await scheduleLoader({ request: request(`/schedule?term=${TERM}&week=1`, { cookie }), params: {}, context: {} });
  const course = view.courses.find((c) => c.name === "数据结构" && c.weekday === "周一")!;
  return { term: TERM, week: 1, course: course.index };
}

async function publish(cookie: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  return (await action({ request: request("/schedule/mutual-help", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
}

const postsOf = (userId: number) => db().selectFrom("posts").selectAll().where("user_id", "=", userId).execute();

describe("/schedule/mutual-help", () => {
  it("shows the class from the student's own timetable and their profile", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const data = await loader({ request: request(helpCourseHref({ ...ref, week: 7 }), { cookie }), params: {}, context: {} });
    expect(data.course).toEqual({ courseName: "数据结构", location: "信息楼A301", teacher: "王建华", weeks: "1-16周", period: "1-2", date: NEXT_DATE, dayOfWeek: "1" });
    expect(data.time).toBe(`${NEXT_DATE} 周一 08:10-09:40`);
    expect(data).toMatchObject({ chosenWeek: 7, moved: false });
    expect(data.profile).toEqual({ studentId: user.student_id, name: "张明", className: "计科2301班", college: "计算机学院" });
  });

  it("offers the next meeting of a class already over this week (the week the link names), never one gone by", async () => {
    const { cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const data = await loader({ request: request(helpCourseHref({ ...ref, week: 6 }), { cookie }), params: {}, context: {} });
    expect(data).toMatchObject({ chosenWeek: 7, moved: true });
    expect(data.occurrences.map((occurrence) => occurrence.time)).toEqual(
      ["2026-10-19", "2026-10-26", "2026-11-02", "2026-11-09", "2026-11-16", "2026-11-23"].map((date) => `${date} 周一 08:10-09:40`),
    );
  });

  it.each([
    ["this morning's class (begun)", "6"],
    ["week 1 (a month ago)", "1"],
  ])("refuses %s on the server, beside the date, and publishes nothing", async (_name, week) => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const response = await publish(cookie, { term: ref.term, week, course: String(ref.course), kind: "normal", note: "留着" });
    expect(response.status).toBe(400);
    const reply = (await response.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.error.week).toEqual([msg.helpDates.pastDate]);
    expect(reply.initialValue.note).toBe("留着");
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("opens with what was typed before the back arrow, until the request is published", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const left = await publish(cookie, { intent: "leave", term: ref.term, week: NEXT, course: String(ref.course), note: "坐第三排", contact: "wx_keepme", kind: "experiment" });
    expect(left.headers.get("Location")).toBe("/schedule");
    const withDraft = `${cookie}; ${left.headers.getSetCookie().find((value) => value.startsWith("__draft="))!.split(";")[0]}`;
    for (let visit = 0; visit < 2; visit += 1) {
      const data = await loader({ request: request(helpCourseHref({ ...ref, week: 9 }), { cookie: withDraft }), params: {}, context: {} });
      expect(data.draft).toEqual({ note: "坐第三排", contact: "wx_keepme", kind: "experiment" });
    }
    expect((await publish(withDraft, { term: ref.term, week: NEXT, course: String(ref.course), kind: "normal" })).status).toBe(302);
    const after = await loader({ request: request(helpCourseHref({ ...ref, week: 9 }), { cookie: withDraft }), params: {}, context: {} });
    expect(after.draft).toBeNull();
    expect(await postsOf(user.id)).toHaveLength(1);
  });

  it("refuses a class of last year's term (a link edited by hand)", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const lastYear = await publish(cookie, { term: "2025-2026-1", week: "12", course: String(ref.course), kind: "normal" });
    expect(lastYear.status).toBe(400);
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("refuses an author the forum banned with its reason and publishes nothing", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    await db().insertInto("forum_bans").values({ user_id: user.id, operator_id: null, reason: null, created_at: new Date().toISOString() }).execute();
    const refused = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "normal" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: Record<string, string[]> }).error[""]).toEqual(["发布失败: 你已被禁止发帖"]);
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("refuses the same class and date twice, beside the date, and offers the next free date after it", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const first = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "normal" });
    expect(first.status).toBe(302);
    const twice = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "experiment" });
    expect(twice.status).toBe(409);
    expect(((await twice.json()) as { error: Record<string, string[]> }).error.week).toEqual([msg.helpDates.duplicateDate]);
    expect(await postsOf(user.id)).toHaveLength(1);
    const data = await loader({ request: request(helpCourseHref({ ...ref, week: 7 }), { cookie }), params: {}, context: {} });
    expect(data.occurrences[0]).toMatchObject({ week: 7, postId: (await postsOf(user.id))[0]!.id });
    expect(data.chosenWeek).toBe(8);
    // Another date of the same class is another request.
    expect((await publish(cookie, { term: ref.term, week: "8", course: String(ref.course), kind: "normal" })).status).toBe(302);
  });

  it.each([
    ["the product rules' free-text query", "?courseName=数据结构&period=99&date=abc&location=" + "楼".repeat(300)],
    ["a week the class does not meet", "?term=TERM&week=20&course=0"],
    ["a course the timetable does not have", "?term=TERM&week=1&course=999"],
    ["a malformed term", "?term=2025&week=1&course=0"],
  ])("shows no class for %s", async (_name, query) => {
    const { cookie } = await demoStudent("20230001");
    const data = await loader({ request: request(`/schedule/mutual-help${query.replace("TERM", TERM)}`, { cookie }), params: {}, context: {} });
    expect(data.course).toBeNull();
    expect(data.ref).toBeNull();
  });

  it("publishes a post in category 3 titled with the course, in progress, without the contact in its text", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const response = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "experiment", contact: "wx_zhangming", note: "  坐第三排，老师会点名  " });
    expect(response.status).toBe(302);
    const [post] = await postsOf(user.id);
    expect(response.headers.get("Location")).toBe(`/post/${post.id}`);
    expect(post).toMatchObject({ category_id: 3, title: "数据结构", status: "ongoing", is_anonymous: 0, visibility: "public" });
    expect(post.content.split("\n")).toEqual([
      "【互助代签】",
      "课程：数据结构",
      `时间：${NEXT_DATE} 周一 08:10-09:40`,
      "地点：信息楼A301",
      "节次：第1-2节",
      "课程类型：实验课",
      "费用：30元",
      `联系方式：${msg.mutualHelp.contactInPost}`,
      "备注：坐第三排，老师会点名",
    ]);
    expect(post.content).not.toContain("wx_zhangming");
    const stored = await db().selectFrom("mutual_help_requests").selectAll().where("post_id", "=", post.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ user_id: user.id, contact: "wx_zhangming" });
  });

  it.each(["abc", "1380000111", "微信号zhang", "wx zhang ming", "12345678901"])("refuses the contact %s with a clear message, keeping what was typed", async (contact) => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    const response = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "normal", contact, note: "留着" });
    expect(response.status).toBe(400);
    const reply = (await response.json()) as { error: Record<string, string[]>; initialValue: Record<string, string> };
    expect(reply.error.contact).toEqual([msg.mutualHelp.contactInvalid]);
    expect(reply.initialValue.note).toBe("留着");
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("refuses a class that is not in the student's timetable, whatever text comes with it", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const response = await publish(cookie, { term: TERM, week: "1", course: "999", kind: "normal", courseName: "编造的课", period: "99" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: Record<string, string[]> }).error[""]).toEqual([msg.mutualHelp.courseNotFound]);
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("asks for a course type: '请选择课程类型'", async () => {
    const { user, cookie } = await demoStudent("20230001");
    const ref = await dataStructuresRef(cookie);
    for (const kind of [undefined, "lab"]) {
      const response = await publish(cookie, { term: ref.term, week: NEXT, course: String(ref.course), ...(kind ? { kind } : {}) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: Record<string, string[]> }).error.kind).toEqual([msg.mutualHelp.chooseKind]);
    }
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("refuses an incomplete profile: '用户信息不完整，请重新登录'", async () => {
    const { user, cookie } = await demoStudent("20230001", { real_name: null });
    const response = await publish(cookie, { term: TERM, week: NEXT, course: "0", kind: "normal" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: Record<string, string[]> }).error[""]).toEqual([msg.mutualHelp.userIncomplete]);
    expect(await postsOf(user.id)).toHaveLength(0);
  });
});

describe("/post/:id/help (我来帮忙)", () => {
  async function requestWithContact(contact: string | null) {
    const requester = await demoStudent("20230001");
    const ref = await dataStructuresRef(requester.cookie);
    await publish(requester.cookie, { term: ref.term, week: NEXT, course: String(ref.course), kind: "normal", ...(contact ? { contact } : {}) });
    const [post] = await postsOf(requester.user.id);
    return { requester, postId: post.id };
  }

  const offer = (cookie: string, postId: number, contact?: string) =>
    offerAction({
      request: request(`/post/${postId}/help`, { method: "POST", body: new URLSearchParams(contact === undefined ? {} : { contact }), cookie }),
      params: { id: String(postId) },
      context: {},
    }) as Promise<Response>;

  const inboxOf = (userId: number) => db().selectFrom("inbox_items").select(["kind", "data", "link"]).where("user_id", "=", userId).execute();

  it("records the offer once and gives each side the other's contact in the inbox", async () => {
    const { requester, postId } = await requestWithContact("13800001111");
    const helper = await demoStudent("20230002", { nickname: "热心同学" });

    const view = await offerLoader({ request: request(`/post/${postId}/help`, { cookie: helper.cookie }), params: { id: String(postId) }, context: {} });
    expect(view).toMatchObject({ isOwner: false, requesterContact: "13800001111", myOffer: null, offers: [] });

    const first = await offer(helper.cookie, postId, "helper_wx1");
    expect(first.status).toBe(302);
    const again = await offer(helper.cookie, postId, "helper_wx1");
    expect(again.status).toBe(409);
    expect(await db().selectFrom("mutual_help_offers").selectAll().where("post_id", "=", postId).execute()).toHaveLength(1);

    const [toRequester] = await inboxOf(requester.user.id);
    expect(toRequester).toMatchObject({ kind: "help_offered", link: `/post/${postId}/help` });
    expect(JSON.parse(toRequester!.data)).toMatchObject({ actorName: "热心同学", course: "数据结构", contact: "helper_wx1" });
    const [toHelper] = await inboxOf(helper.user.id);
    expect(toHelper).toMatchObject({ kind: "help_contact" });
    expect(JSON.parse(toHelper!.data)).toMatchObject({ course: "数据结构", contact: "13800001111" });

    // The requester sees who offered, with the contact.
    const ownerView = await offerLoader({ request: request(`/post/${postId}/help`, { cookie: requester.cookie }), params: { id: String(postId) }, context: {} });
    expect(ownerView).toMatchObject({ isOwner: true, offers: [{ name: "热心同学", contact: "helper_wx1" }] });
  });

  it("asks the helper for a contact and refuses the requester's own post and a completed one", async () => {
    const { requester, postId } = await requestWithContact(null);
    const helper = await demoStudent("20230002");
    const missing = await offer(helper.cookie, postId);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: Record<string, string[]> }).error.contact).toEqual([msg.mutualHelp.offerContactRequired]);

    const own = await offer(requester.cookie, postId, "wx_self01");
    expect(own.status).toBe(400);
    expect(((await own.json()) as { error: Record<string, string[]> }).error[""]).toEqual([msg.mutualHelp.ownRequest]);

    await db().updateTable("posts").set({ status: "completed" }).where("id", "=", postId).execute();
    const closed = await offer(helper.cookie, postId, "helper_wx1");
    expect(closed.status).toBe(400);
    expect(await db().selectFrom("mutual_help_offers").selectAll().execute()).toHaveLength(0);
  });

  it("tells the helper before they give their contact when the requester left none", async () => {
    const { requester, postId } = await requestWithContact(null);
    const [post] = await postsOf(requester.user.id);
    expect(post!.content).toContain(`联系方式：${msg.mutualHelp.noContactInPost}`);
    expect(post!.content).not.toContain("双方互换");
    const helper = await demoStudent("20230002");
    const view = await offerLoader({ request: request(`/post/${postId}/help`, { cookie: helper.cookie }), params: { id: String(postId) }, context: {} });
    // The sheet shows oneSidedWarning instead of the promise of a swap when this is null.
    expect(view).toMatchObject({ requesterContact: null, myOffer: null });
  });

  it("takes no offer once the class has begun, though the request still says 进行中", async () => {
    const { postId } = await requestWithContact("13800001111");
    const helper = await demoStudent("20230002");
    vi.setSystemTime(new Date(`${NEXT_DATE}T08:10:00+08:00`));
    try {
      const late = await offer(helper.cookie, postId, "helper_wx1");
      expect(late.status).toBe(400);
      expect(((await late.json()) as { error: Record<string, string[]> }).error[""]).toEqual([msg.helpDates.classBegun]);
      expect(await db().selectFrom("mutual_help_offers").selectAll().where("post_id", "=", postId).execute()).toHaveLength(0);
    } finally {
      vi.setSystemTime(TODAY);
    }
  });

  it("is a 404 on a post that is not a mutual-help request", async () => {
    const helper = await demoStudent("20230002");
    const other = await createStudent();
    const post = await db()
      .insertInto("posts")
      .values({ user_id: other.id, category_id: 1, title: null, content: "闲聊", status: null, visibility: "public", is_anonymous: 0, view_count: 0, comment_count: 0, like_count: 0, moderation: "visible", reviewed_at: null, created_at: new Date().toISOString(), updated_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const thrown = await offerLoader({ request: request(`/post/${post.id}/help`, { cookie: helper.cookie }), params: { id: String(post.id) }, context: {} }).catch((error: unknown) => error);
    expect((thrown as Response).status).toBe(404);
  });
});
