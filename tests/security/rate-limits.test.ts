// (and finding 2's flood of replies): the costly actions are limited per
// user and per address. Each limited action class is shown here on a server whose limits are
// lowered by configuration (RATE_LIMIT_<ACTION>=per-user,per-address/seconds): the attempts up to
// the limit go through, the next one gets 429 with Retry-After and the Chinese message in the
// caller's own shape (the endpoint's JSON, or the page's error with what was typed kept), and
// nothing more is stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { orderBody } from "../support/app-process";
import { rawRequest, type RawAnswer } from "./http";
import { CAPTCHA_ANSWER, captchaToken, insertStudent, makeMessengerUser, solvedProof, sql, startServer, type Server, type Student } from "./server";
import { actionAnswer, dataPath } from "../support/single-fetch";

const LIMITS = {
  RATE_LIMIT_POST: "2,1000/600",
  RATE_LIMIT_COMMENT: "3,1000/60",
  RATE_LIMIT_LIKE: "3,1000/60",
  RATE_LIMIT_UPLOAD: "2,1000/600",
  RATE_LIMIT_RECOGNIZE_TEXT: "3,1000/60",
  RATE_LIMIT_RECOGNIZE_IMAGE: "1,1000/600",
  RATE_LIMIT_ORDER: "2,1000/600",
  RATE_LIMIT_INVITE_REGISTER: "1,1000/3600",
  RATE_LIMIT_FEATURE_REQUEST: "2,5/600",
};

let server: Server;
let students: Student[];
let postId: number;
let categoryId: number;
const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const JSON_TYPE = { "Content-Type": "application/json" };
/** "操作太频繁，请" — the start of the message, whatever the wait. */
const LIMITED_TEXT = refusalMessages.rateLimited.split("{wait}")[0]!;

beforeAll(async () => {
  server = await startServer(LIMITS);
  students = [];
  for (const name of ["限流甲", "限流乙", "限流丙", "限流丁", "限流戊", "限流己", "限流庚", "限流辛", "限流壬", "限流癸"]) {
    const student = await insertStudent(server, name);
    makeMessengerUser(server, student.userId);
    students.push(student);
  }
  categoryId = sql<{ id: number }>(server, "SELECT id FROM forum_categories ORDER BY id LIMIT 1")[0]!.id;
  const iso = new Date().toISOString();
  postId = sql<{ id: number }>(
    server,
    "INSERT INTO posts (user_id, category_id, title, content, created_at, updated_at) VALUES (?, ?, '限流', '限流测试的帖子', ?, ?) RETURNING id",
    students[0]!.userId,
    categoryId,
    iso,
    iso,
  )[0]!.id;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
// The page's fetchers send single fetch's data requests (/page.data, decision 027).
const dataUrl = (path: string) => dataPath(path);

function expectLimited(answer: RawAnswer) {
  expect(answer.status).toBe(429);
  const retryAfter = Number(answer.headers["retry-after"]);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(answer.body).toContain(LIMITED_TEXT);
  return retryAfter;
}

/** A page action's 429 as its fetcher gets it: the action's data in turbo-stream, with Retry-After. */
async function expectLimitedData(answer: RawAnswer) {
  expectLimited(answer);
  const { data } = await actionAnswer<{ success: boolean; intent?: string; message: string; result?: { error?: Record<string, string[]> } }>(answer.body);
  expect(data?.success).toBe(false);
  expect(data?.message).toMatch(new RegExp(`^${LIMITED_TEXT}\\d+ (秒|分钟)后再试$`));
  return data!;
}

function expectLimitedJson(answer: RawAnswer) {
  expectLimited(answer);
  const body = JSON.parse(answer.body);
  expect(body.success).toBe(false);
  expect(body.message).toMatch(new RegExp(`^${LIMITED_TEXT}\\d+ (秒|分钟)后再试$`));
  return body;
}

describe("rate limits, per user and per address", () => {
  it("comments (the flood of replies of finding 2): the 4th in a minute is a 429 in the sheet's data, and without JS the sheet keeps the typed comment", async () => {
    const [student] = students;
    const url = dataUrl(`/post/${postId}/comment`);
    let parent: number | undefined;
    for (let i = 0; i < 3; i++) {
      const answer = await rawRequest(server.base, url, {
        headers: FORM,
        cookie: student!.cookie,
        body: form({ intent: "comment", content: `回复 ${i}`, ...(parent ? { parentId: String(parent) } : {}) }),
      });
      // A sent comment moves on to itself (single fetch's redirect: 202 with the target).
      expect(answer.status, answer.body).toBe(202);
      const { redirect } = await actionAnswer(answer.body);
      parent = Number(/#comment-(\d+)$/.exec(redirect!.redirect)?.[1]);
    }
    const fourth = await rawRequest(server.base, url, { headers: FORM, cookie: student!.cookie, body: form({ intent: "comment", content: "第四条", parentId: String(parent) }) });
    const body = await expectLimitedData(fourth);
    expect(body.intent).toBe("comment");
    // A form without JavaScript: the comment sheet again, its error shown, the text kept.
    const page = await rawRequest(server.base, `/post/${postId}/comment`, { headers: FORM, cookie: student!.cookie, body: form({ intent: "comment", content: "没有脚本的第五条" }) });
    expect(page.status).toBe(429);
    expect(page.headers["retry-after"]).toBeDefined();
    expect(page.body).toContain(LIMITED_TEXT);
    expect(page.body).toContain("没有脚本的第五条");
    expect(sql(server, "SELECT id FROM comments WHERE post_id = ?", postId)).toHaveLength(3);
  });

  it("likes of posts and comments share one limit: the 4th toggle is a 429", async () => {
    const student = students[1]!;
    const url = dataUrl(`/post/${postId}`);
    for (let i = 0; i < 3; i++) {
      const answer = await rawRequest(server.base, url, { headers: FORM, cookie: student.cookie, body: form({ intent: "like", via: "fetcher" }) });
      expect(answer.status, answer.body).toBe(200);
    }
    await expectLimitedData(await rawRequest(server.base, url, { headers: FORM, cookie: student.cookie, body: form({ intent: "like", via: "fetcher" }) }));
    // Three toggles: liked, unliked, liked.
    expect(sql(server, "SELECT user_id FROM post_likes WHERE post_id = ? AND user_id = ?", postId, student.userId)).toHaveLength(1);
  });

  it("posting: the 3rd post in ten minutes comes back on the publish page with the message and the typed text", async () => {
    const student = students[2]!;
    for (let i = 0; i < 2; i++) {
      const answer = await rawRequest(server.base, "/publish-post", { headers: FORM, cookie: student.cookie, body: form({ content: `第${i}篇`, categoryId: String(categoryId) }) });
      expect(answer.status, answer.body.slice(0, 200)).toBe(302);
    }
    const third = await rawRequest(server.base, "/publish-post", { headers: FORM, cookie: student.cookie, body: form({ content: "第三篇不该发出", categoryId: String(categoryId) }) });
    expectLimited(third);
    expect(third.headers["content-type"]).toMatch(/text\/html/);
    expect(third.body).toContain("第三篇不该发出");
    expect(sql(server, "SELECT id FROM posts WHERE user_id = ?", student.userId)).toHaveLength(2);
  });

  it("uploads: the 3rd image in ten minutes is a 429 in the upload endpoint's JSON", async () => {
    const student = students[3]!;
    const boundary = "----limits";
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nnot really an image\r\n--${boundary}--\r\n`);
    const headers = { "Content-Type": `multipart/form-data; boundary=${boundary}` };
    for (let i = 0; i < 2; i++) {
      const answer = await rawRequest(server.base, "/api/upload/image", { headers, cookie: student.cookie, body });
      expect(answer.status).not.toBe(429);
    }
    expectLimitedJson(await rawRequest(server.base, "/api/upload/image", { headers, cookie: student.cookie, body }));
  });

  it("text recognition: the 4th in a minute is a 429 with the endpoint's { success, message, data }", async () => {
    const student = students[4]!;
    const body = JSON.stringify({ text_data: "【菜鸟驿站】您的包裹已到站，取件码 8-2-1234" });
    for (let i = 0; i < 3; i++) {
      const answer = await rawRequest(server.base, "/errands/pickup-code/recognize-text", { headers: JSON_TYPE, cookie: student.cookie, body });
      expect(answer.status).toBe(200);
    }
    const limited = expectLimitedJson(await rawRequest(server.base, "/errands/pickup-code/recognize-text", { headers: JSON_TYPE, cookie: student.cookie, body }));
    expect(limited.data).toEqual([]);
  });

  it("image recognition: the 2nd in ten minutes is a 429 before any OCR runs", async () => {
    const student = students[5]!;
    const body = JSON.stringify({ base64_data: `data:image/png;base64,${Buffer.from("not an image at all").toString("base64")}` });
    const first = await rawRequest(server.base, "/errands/pickup-code/recognize-image", { headers: JSON_TYPE, cookie: student.cookie, body });
    expect(first.status).not.toBe(429);
    expectLimitedJson(await rawRequest(server.base, "/errands/pickup-code/recognize-image", { headers: JSON_TYPE, cookie: student.cookie, body }));
  });

  it("order creation: the 3rd order in ten minutes is a 429, and no third order is stored", async () => {
    const student = students[6]!;
    for (let i = 0; i < 2; i++) {
      const answer = await rawRequest(server.base, "/api/express/order_create", { headers: JSON_TYPE, cookie: student.cookie, body: JSON.stringify(orderBody("jinpenling", "西苑1栋", i)) });
      expect(answer.status).not.toBe(429);
    }
    const before = sql(server, "SELECT id FROM orders WHERE user_id = ?", student.userId).length;
    expectLimitedJson(
      await rawRequest(server.base, "/api/express/order_create", { headers: JSON_TYPE, cookie: student.cookie, body: JSON.stringify(orderBody("jinpenling", "西苑1栋", 2)) }),
    );
    expect(sql(server, "SELECT id FROM orders WHERE user_id = ?", student.userId)).toHaveLength(before);
  });

  it("invite registration: the 2nd in an hour is a 429 in the dialog's form errors", async () => {
    const student = students[7]!;
    // A complete form (invite registration is a school-account login): the limit counts once the form is valid.
    // With its proof of work solved (one without counts double, decision 042).
    const fields = { intent: "register", nickname: "新同学", phone: "13800138000", school: "demo", studentId: "20249999", password: "not-the-password", captcha: CAPTCHA_ANSWER, captchaId: captchaToken() };
    const first = await rawRequest(server.base, dataUrl("/market/promo-activity"), { headers: FORM, cookie: student.cookie, body: form({ ...fields, altcha: await solvedProof() }) });
    expect(first.status).not.toBe(429);
    const second = await rawRequest(server.base, dataUrl("/market/promo-activity"), { headers: FORM, cookie: student.cookie, body: form({ ...fields, altcha: await solvedProof() }) });
    expectLimited(second);
    const { data } = await actionAnswer<{ error: Record<string, string[]> }>(second.body);
    expect(data!.error[""]![0]).toContain(LIMITED_TEXT);
  });

  it("feature requests: per user (the 3rd of one student) and per address (the 6th from one address, whoever sends it)", async () => {
    const [a, b] = [students[8]!, students[9]!];
    const tap = async (cookie?: string) =>
      rawRequest(server.base, "/api/feature-request", { headers: JSON_TYPE, cookie, body: JSON.stringify({ featureType: "online", altcha: await solvedProof() }) });
    expect((await tap(a.cookie)).status).toBe(200);
    expect((await tap(a.cookie)).status).toBe(200);
    expectLimitedJson(await tap(a.cookie));
    // Another student on the same address still has room until the address's 5 are used.
    expect((await tap(b.cookie)).status).toBe(200);
    expect((await tap(b.cookie)).status).toBe(200);
    expectLimitedJson(await tap());
    expect(sql(server, "SELECT id FROM feature_requests")).toHaveLength(4);
  });
});
