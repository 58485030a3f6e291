// Fair use of screenshot recognition through the real endpoint and the real worker: one user's
// images wait their turn and the page can see each one's place; a full queue is answered 503
// with Retry-After and a message that says the server is busy (never "upload failed"); one user
// cannot put more than one upload's worth of images in the queue.
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { marketMessages } from "~/lib/messages/market-answers";
import { RECOGNITION_PER_USER_LIMIT, RECOGNITION_QUEUE_LIMIT, type QueuedImage } from "~/lib/screenshot-recognition";
import { action as recognizeImageAction } from "~/routes/errands.pickup-code.recognize-image";
import { loader as queueLoader } from "~/routes/errands.pickup-code.recognize-queue";
import { call, createMessengerUser, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { stopOcr } from "./ocr.server";

afterAll(async () => {
  await stopOcr();
});

/** A 1080 px wide screenshot of one pickup SMS, drawn by sharp from SVG text in the CJK font. */
async function screenshot(lines: string[]) {
  const text = lines.map((line, i) => `<text x="60" y="${300 + i * 70}" font-family="Noto Sans CJK SC" font-size="46" fill="#111">${line}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1600"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64")}`;
}

async function messenger() {
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  return { user, cookie: await sessionCookieFor(user.id) };
}

function upload(cookie: string, image: string, uploadId: string, signal?: AbortSignal) {
  return call(
    recognizeImageAction as never,
    request("/errands/pickup-code/recognize-image", {
      method: "POST",
      cookie,
      signal,
      body: JSON.stringify({ base64_data: image, upload_id: uploadId }),
      headers: { "Content-Type": "application/json", Accept: "application/json" },
    }),
  );
}

async function places(cookie: string): Promise<QueuedImage[]> {
  const response = await call(queueLoader as never, request("/errands/pickup-code/recognize-queue", { cookie, headers: { Accept: "application/json" } }));
  expect(response.status).toBe(200);
  return (await response.json()).data;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe("screenshot recognition queue", () => {
  it("reads one user's two concurrent uploads one after the other, the second knowing its place", async () => {
    const { cookie } = await messenger();
    const first = upload(cookie, await screenshot(["【菜鸟驿站】您的中通快递包裹已到东区", "菜鸟驿站，请凭取件码 3-4-1208 取件。"]), "first");
    const second = upload(cookie, await screenshot(["【丰巢】取件码：41702953，请至南湖", "家园2号楼丰巢柜取件。"]), "second");

    const queued = await until(() => places(cookie), (list) => list.length === 2);
    expect(queued).toEqual([
      { uploadId: "first", state: "reading", ahead: 0 },
      { uploadId: "second", state: "waiting", ahead: 1 },
    ]);

    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect((await a.json()).data.map((entry: { pickupCode: string }) => entry.pickupCode)).toEqual(["3-4-1208"]);
    expect((await b.json()).data.map((entry: { pickupCode: string }) => entry.pickupCode)).toEqual(["41702953"]);
    expect(await places(cookie)).toEqual([]);
  }, 60_000);

  it("answers a full queue 503 with Retry-After in plain words, and one user's fourth image 429", async () => {
    const image = await screenshot(["【菜鸟驿站】您的包裹已到达西区菜鸟驿站，", "取件码 A09-2215，请凭码取件。"]);
    const users = await Promise.all(Array.from({ length: RECOGNITION_QUEUE_LIMIT / RECOGNITION_PER_USER_LIMIT }, () => messenger()));
    const controllers: AbortController[] = [];
    const pending: Promise<Response>[] = [];
    for (const [u, { cookie }] of users.entries()) {
      for (let n = 0; n < RECOGNITION_PER_USER_LIMIT; n += 1) {
        const controller = new AbortController();
        controllers.push(controller);
        pending.push(upload(cookie, image, `u${u}-${n}`, controller.signal));
      }
    }
    // Every one of them is in: reading or waiting.
    const lastUser = users[users.length - 1]!;
    await until(() => places(lastUser.cookie), (list) => list.length === RECOGNITION_PER_USER_LIMIT);

    // Fair turns: everyone's first image before anyone's second.
    expect(await places(users[0]!.cookie)).toEqual([
      { uploadId: "u0-0", state: "reading", ahead: 0 },
      { uploadId: "u0-1", state: "waiting", ahead: 4 },
      { uploadId: "u0-2", state: "waiting", ahead: 8 },
    ]);
    expect((await places(users[1]!.cookie)).map((place) => place.ahead)).toEqual([1, 5, 9]);

    const own = await upload(users[0]!.cookie, image, "one-too-many");
    expect(own.status).toBe(429);
    expect(Number(own.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await own.json()).message).toBe(marketMessages.recognize.userBusy);

    const latecomer = await messenger();
    const refused = await upload(latecomer.cookie, image, "late");
    expect(refused.status).toBe(503);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(2);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = await refused.json();
    expect(body).toMatchObject({ success: false, data: [] });
    expect(body.message).toBe(marketMessages.recognize.busy.replace("{seconds}", String(retryAfter)));
    expect(body.message).not.toMatch(/上传失败/);

    // Users that go away leave the queue; the image being read finishes.
    for (const controller of controllers) controller.abort();
    const answers = await Promise.all(pending);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 499)).toBe(true);
    expect(await places(users[1]!.cookie)).toEqual([]);
  }, 60_000);
});
