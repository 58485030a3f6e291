import { beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { helpQuery, type HelpCourse } from "~/lib/mutual-help";
import { action, loader } from "~/routes/schedule.mutual-help";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";

const COURSE: HelpCourse = {
  courseName: "数据结构",
  location: "信息楼A301",
  teacher: "王建华",
  weeks: "1-16周",
  period: "1-2",
  date: "2026-11-23",
  dayOfWeek: "1",
};

beforeAll(() => resetConfig());

async function publish(cookie: string, fields: Record<string, string>) {
  const body = new URLSearchParams({ ...COURSE, ...fields });
  return (await action({ request: request("/schedule/mutual-help", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
}

const postsOf = (userId: number) => db().selectFrom("posts").selectAll().where("user_id", "=", userId).execute();

describe("/schedule/mutual-help", () => {
  it("shows the course from the query and the student's own profile", async () => {
    const user = await createStudent({ real_name: "张明", class_name: "计科2301班", college: "计算机学院", phone: "13800001111" });
    const cookie = await sessionCookieFor(user.id);
    const data = await loader({ request: request(`/schedule/mutual-help?${helpQuery(COURSE)}`, { cookie }), params: {}, context: {} });
    expect(data.course).toEqual(COURSE);
    expect(data.time).toBe("2026-11-23 周一 08:10-09:40");
    expect(data.profile).toEqual({ studentId: user.student_id, name: "张明", className: "计科2301班", college: "计算机学院", contact: "13800001111" });
  });

  it("publishes a post in category 3 titled with the course, in progress, and opens it", async () => {
    const user = await createStudent({ phone: "13800002222" });
    const cookie = await sessionCookieFor(user.id);
    const response = await publish(cookie, { kind: "experiment", note: "  坐第三排，老师会点名  " });
    expect(response.status).toBe(302);
    const [post] = await postsOf(user.id);
    expect(response.headers.get("Location")).toBe(`/post/${post.id}`);
    expect(post).toMatchObject({ category_id: 3, title: "数据结构", status: "ongoing", is_anonymous: 0, visibility: "public" });
    expect(post.content.split("\n")).toEqual([
      "【互助代签】",
      "课程：数据结构",
      "时间：2026-11-23 周一 08:10-09:40",
      "地点：信息楼A301",
      "节次：第1-2节",
      "课程类型：实验课",
      "费用：30元",
      "联系方式：13800002222",
      "备注：坐第三排，老师会点名",
    ]);
  });

  it("uses the messenger nickname as contact when the profile has no phone", async () => {
    const user = await createStudent({ phone: null, wechat_nickname: "小西瓜abc123" });
    const cookie = await sessionCookieFor(user.id);
    await publish(cookie, { kind: "normal" });
    const [post] = await postsOf(user.id);
    expect(post.content).toContain("联系方式：小西瓜abc123");
    expect(post.content).toContain("费用：25元");
    expect(post.content).not.toContain("备注");
  });

  it("asks for a course type: '请选择课程类型'", async () => {
    const user = await createStudent();
    const cookie = await sessionCookieFor(user.id);
    for (const kind of [undefined, "lab"]) {
      const response = await publish(cookie, kind ? { kind } : {});
      expect(response.status).toBe(400);
      const reply = (await response.json()) as { error: Record<string, string[]> };
      expect(reply.error.kind).toEqual([msg.mutualHelp.chooseKind]);
    }
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("allows a note of 200 characters after trimming, not 201", async () => {
    const user = await createStudent();
    const cookie = await sessionCookieFor(user.id);
    const tooLong = await publish(cookie, { kind: "normal", note: "字".repeat(201) });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { error: Record<string, string[]> }).error.note).toEqual(["备注最多 200 个字"]);
    const fits = await publish(cookie, { kind: "normal", note: ` ${"字".repeat(200)}   ` });
    expect(fits.status).toBe(302);
  });

  it("refuses an incomplete profile: '用户信息不完整，请重新登录'", async () => {
    const user = await createStudent({ real_name: null });
    const cookie = await sessionCookieFor(user.id);
    const response = await publish(cookie, { kind: "normal" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: Record<string, string[]> }).error[""]).toEqual([msg.mutualHelp.userIncomplete]);
    expect(await postsOf(user.id)).toHaveLength(0);
  });

  it("refuses a request without a course", async () => {
    const user = await createStudent();
    const cookie = await sessionCookieFor(user.id);
    const body = new URLSearchParams({ kind: "normal" });
    const response = (await action({ request: request("/schedule/mutual-help", { method: "POST", body, cookie }), params: {}, context: {} })) as Response;
    expect(response.status).toBe(400);
    expect(await postsOf(user.id)).toHaveLength(0);
  });
});
