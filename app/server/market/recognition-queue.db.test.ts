// Fair use of screenshot recognition through the real endpoint and the real worker: one user's
// images wait their turn and the page can see each one's place; every student gets a slot, so a
// student arriving after four full uploads is queued with a place, not refused (the line is
// full only when every place is taken: app/lib/recognition-queue, table-tested there); one user
// cannot put more than one upload's worth of images in the queue.
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { marketMessages } from "~/lib/messages/market-answers";
import { RECOGNITION_PER_USER_LIMIT, type QueuedImage } from "~/lib/screenshot-recognition";
import { action as recognizeImageAction } from "~/routes/errands.pickup-code.recognize-image";
import { loader as queueLoader } from "~/routes/errands.pickup-code.recognize-queue";
import { call, createMessengerUser, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { stopOcr } from "./ocr.server";

afterAll(async () => {
  await stopOcr();
});

/**
 * A 1080 px wide screenshot of one pickup SMS, drawn by sharp from SVG text in the CJK font.
 * `filler` lines of plain chat below it make a long screenshot that takes the worker seconds,
 * so the queue behind it holds still while the test looks at it.
 */
async function screenshot(lines: string[], filler = 0) {
  const all = [...lines, ...Array.from({ length: filler }, () => "今天的天气很好，适合出门散步，晚上一起吃饭吧")];
  const height = 400 + all.length * 90;
  const text = all.map((line, i) => `<text x="60" y="${300 + i * 90 + (i >= lines.length ? 200 : 0)}" font-family="Noto Sans CJK SC" font-size="46" fill="#111">${line}</text>`).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="${height + 200}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return `data:image/png;base64,${(await sharp(Buffer.from(svg)).png().toBuffer()).toString("base64")}`;
}

/** Starts an upload and waits until it is in the queue, so arrivals come in a known order. */
async function enqueue(cookie: string, image: string, uploadId: string, signal?: AbortSignal) {
  const answer = upload(cookie, image, uploadId, signal);
  await until(() => places(cookie), (list) => list.some((place) => place.uploadId === uploadId));
  return { answer };
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
  const data: QueuedImage[] = (await response.json()).data;
  // A waiting image carries its estimated wait (its place × the average read): at least a second.
  for (const place of data) {
    if (place.state === "waiting") expect(place.waitSeconds).toBeGreaterThanOrEqual(1);
    else expect(place.waitSeconds).toBeUndefined();
  }
  return data.map(({ waitSeconds: _wait, ...place }) => place);
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
    const firstImage = await screenshot(["【菜鸟驿站】您的中通快递包裹已到东区", "菜鸟驿站，请凭取件码 3-4-1208 取件。"], 15);
    const secondImage = await screenshot(["【丰巢】取件码：41702953，请至南湖", "家园2号楼丰巢柜取件。"]);
    const { answer: first } = await enqueue(cookie, firstImage, "first");
    const { answer: second } = await enqueue(cookie, secondImage, "second");

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

  it("queues a fifth student behind four full uploads with a place before their second images, and refuses one user's fourth image 429", async () => {
    const image = await screenshot(["【菜鸟驿站】您的包裹已到达西区菜鸟驿站，", "取件码 A09-2215，请凭码取件。"]);
    const long = await screenshot(["【菜鸟驿站】您的包裹已到达西区菜鸟驿站，", "取件码 A09-2215，请凭码取件。"], 25);
    const users = await Promise.all(Array.from({ length: 4 }, () => messenger()));
    const controllers: AbortController[] = [];
    const pending: Promise<Response>[] = [];
    const track = (answer: Promise<Response>, controller: AbortController) => {
      controllers.push(controller);
      pending.push(answer);
    };
    for (const [u, { cookie }] of users.entries()) {
      for (let n = 0; n < RECOGNITION_PER_USER_LIMIT; n += 1) {
        const controller = new AbortController();
        const { answer } = await enqueue(cookie, u === 0 && n === 0 ? long : image, `u${u}-${n}`, controller.signal);
        track(answer, controller);
      }
    }

    // Fair turns: every user's first image before anyone's second, and so on; user 0 came first.
    expect(await places(users[0]!.cookie)).toEqual([
      { uploadId: "u0-0", state: "reading", ahead: 0 },
      { uploadId: "u0-1", state: "waiting", ahead: 4 },
      { uploadId: "u0-2", state: "waiting", ahead: 8 },
    ]);
    for (const [u, { cookie }] of users.entries()) {
      if (u > 0) expect((await places(cookie)).map((place) => place.ahead)).toEqual([u, u + 4, u + 8]);
    }

    const own = await upload(users[0]!.cookie, image, "one-too-many");
    expect(own.status).toBe(429);
    expect(Number(own.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await own.json()).message).toBe(marketMessages.recognize.userBusy);

    // The fifth student is not refused: queued behind the first images, before anyone's second.
    const latecomer = await messenger();
    const controller = new AbortController();
    const { answer } = await enqueue(latecomer.cookie, image, "late", controller.signal);
    track(answer, controller);
    expect(await places(latecomer.cookie)).toEqual([{ uploadId: "late", state: "waiting", ahead: 4 }]);
    expect((await places(users[1]!.cookie)).map((place) => place.ahead)).toEqual([1, 6, 10]);

    // Users that go away leave the queue; the image being read finishes.
    for (const each of controllers) each.abort();
    const answers = await Promise.all(pending);
    expect(answers.filter((response) => response.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(answers.every((response) => response.status === 200 || response.status === 499)).toBe(true);
    expect(await places(users[1]!.cookie)).toEqual([]);
  }, 90_000);
});
