import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as msg from "../messages";
import { CommentSchema, ModerationActionSchema, PostPageActionSchema, PublishPostSchema, ReportSchema } from "./forum";

const IMG = (n: number) => `/uploads/${String(n).padStart(22, "A")}.jpg`;

function form(entries: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of entries) data.append(name, value);
  return data;
}

function publish(entries: [string, string][]) {
  return parseWithZod(form(entries), { schema: PublishPostSchema });
}

describe("publish post schema", () => {
  it("accepts content, category, the anonymous switch and images", () => {
    const result = publish([
      ["content", "  图书馆三楼有空位  "],
      ["categoryId", "2"],
      ["isAnonymous", "on"],
      ["images", IMG(1)],
      ["images", IMG(2)],
    ]);
    expect(result.status).toBe("success");
    if (result.status !== "success") return;
    expect(result.value).toEqual({ content: "图书馆三楼有空位", categoryId: 2, isAnonymous: true, images: [IMG(1), IMG(2)], visibility: "public" });
  });

  it("defaults: not anonymous, no images, public", () => {
    const result = publish([["content", "x"], ["categoryId", "1"]]);
    expect(result.status === "success" && result.value).toEqual({ content: "x", categoryId: 1, isAnonymous: false, images: [], visibility: "public" });
  });

  it.each<[string, [string, string][], string, string]>([
    ["empty content", [["content", ""], ["categoryId", "1"]], "content", msg.publish.contentRequired],
    ["blank content", [["content", "   \n "], ["categoryId", "1"]], "content", msg.publish.contentRequired],
    ["no content field", [["categoryId", "1"]], "content", msg.publish.contentRequired],
    ["501 characters", [["content", "字".repeat(501)], ["categoryId", "1"]], "content", msg.publish.contentTooLong],
    ["no category", [["content", "hi"]], "categoryId", msg.publish.categoryRequired],
    ["a non-numeric category", [["content", "hi"], ["categoryId", "abc"]], "categoryId", msg.publish.categoryRequired],
    ["10 images", [["content", "hi"], ["categoryId", "1"], ...Array.from({ length: 10 }, (_, i): [string, string] => ["images", IMG(i)])], "images", msg.publish.tooManyImages],
    ["a foreign image URL", [["content", "hi"], ["categoryId", "1"], ["images", "https://evil.example/a.jpg"]], "images[0]", msg.publish.imageNotYours],
    ["another visibility", [["content", "hi"], ["categoryId", "1"], ["visibility", "friends"]], "visibility", ""],
  ])("refuses %s", (_name, entries, field, message) => {
    const result = publish(entries);
    expect(result.status).toBe("error");
    const errors = result.reply().error ?? {};
    expect(errors[field]).toBeDefined();
    if (message) expect(errors[field]).toContain(message);
  });

  it("500 characters after trimming pass", () => {
    expect(publish([["content", ` ${"字".repeat(500)} `], ["categoryId", "1"]]).status).toBe("success");
  });
});

// Each route of the post holds its own intents: the page (likes), the comment sheet, the report sheet.
const schemaOf = (entries: [string, string][]) => {
  const intent = entries.find(([name]) => name === "intent")?.[1];
  return intent === "comment" ? CommentSchema : intent === "report" ? ReportSchema : PostPageActionSchema;
};

describe("post detail actions", () => {
  it.each<[string, [string, string][], unknown]>([
    ["like", [["intent", "like"]], { intent: "like" }],
    ["comment", [["intent", "comment"], ["content", " 同问 "]], { intent: "comment", content: "同问", isAnonymous: false }],
    ["reply", [["intent", "comment"], ["content", "@小明 好的"], ["parentId", "7"], ["isAnonymous", "on"]], { intent: "comment", content: "@小明 好的", parentId: 7, isAnonymous: true }],
    ["comment like", [["intent", "commentLike"], ["commentId", "3"]], { intent: "commentLike", commentId: 3 }],
    ["report a post", [["intent", "report"], ["reason", "spam"]], { intent: "report", reason: "spam" }],
    ["report a comment", [["intent", "report"], ["reason", "other"], ["commentId", "4"]], { intent: "report", reason: "other", commentId: 4 }],
  ])("parses %s", (_name, entries, value) => {
    const result = parseWithZod(form(entries), { schema: schemaOf(entries) });
    expect(result.status === "success" && result.value).toEqual(value);
  });

  it.each<[string, [string, string][], string, string]>([
    ["an empty comment", [["intent", "comment"], ["content", "  "]], "content", msg.postSheets.commentRequired],
    ["a too long comment", [["intent", "comment"], ["content", "a".repeat(501)]], "content", msg.postSheets.commentTooLong],
    ["a report without reason", [["intent", "report"]], "reason", msg.postSheets.reportReasonRequired],
    ["a report with an unknown reason", [["intent", "report"], ["reason", "boring"]], "reason", msg.postSheets.reportReasonRequired],
    ["a comment like without id", [["intent", "commentLike"], ["commentId", "x"]], "commentId", ""],
  ])("refuses %s", (_name, entries, field, message) => {
    const result = parseWithZod(form(entries), { schema: schemaOf(entries) });
    expect(result.status).toBe("error");
    const errors = result.reply().error ?? {};
    expect(errors[field]).toBeDefined();
    if (message) expect(errors[field]).toContain(message);
  });

  it("refuses an unknown intent", () => {
    expect(parseWithZod(form([["intent", "edit"]]), { schema: PostPageActionSchema }).status).toBe("error");
  });
});

describe("moderation actions", () => {
  it("parses an intent on a target", () => {
    const result = parseWithZod(form([["intent", "ban"], ["target", "user"], ["id", "12"]]), { schema: ModerationActionSchema });
    expect(result.status === "success" && result.value).toEqual({ intent: "ban", target: "user", id: 12 });
  });
  it("refuses an unknown intent", () => {
    expect(parseWithZod(form([["intent", "promote"], ["target", "post"], ["id", "1"]]), { schema: ModerationActionSchema }).status).toBe("error");
  });
});
