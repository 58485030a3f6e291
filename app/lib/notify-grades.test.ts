import { describe, expect, it } from "vitest";
import { inboxText, newGradesCourses, plannedMessages, templateData } from "./notify";

const at = new Date("2026-01-20T02:00:00Z");

describe("the new-grades notice", () => {
  it.each([
    [["数据结构"], 1, "数据结构"],
    [["数据结构", "操作系统", "计算机网络"], 3, "数据结构、操作系统、计算机网络"],
    [["数据结构", "操作系统", "计算机网络", "编译原理"], 5, "数据结构、操作系统、计算机网络等5门"],
  ])("names %j (%i results) as %s", (courses, count, text) => {
    expect(newGradesCourses({ courses, count })).toBe(text);
  });

  it("plans the GRADE_RELEASED template to the student, linking to the grades page, without any score", () => {
    const [message] = plannedMessages({ kind: "new_grades", recipientUserId: 1, data: { courses: ["数据结构"], count: 1, discoveryKey: "k", at: at.toISOString() } }, at);
    expect(message).toEqual({
      to: "recipient",
      templateKey: "GRADE_RELEASED",
      subscribeKey: null,
      fields: { courses: "数据结构", count: "1 门", time: "2026-01-20 10:00" },
      path: "/backpack/grades",
    });
    expect(templateData("GRADE_RELEASED", message.fields)).toEqual({ keyword1: { value: "数据结构" }, keyword2: { value: "1 门" }, keyword3: { value: "2026-01-20 10:00" } });
  });

  it("reads as an inbox item", () => {
    expect(inboxText("new_grades", { courses: "数据结构", count: 1 })).toEqual({ title: "有新成绩发布", body: "数据结构 的成绩已发布，点击查看", icon: "bell" });
  });
});
