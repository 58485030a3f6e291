// / must-hold 7 (uploads) against the production build: a client's file name
// never reaches a header or a path; storage failures answer with the page's own error (the JSON
// the publish page's script expects, or the publish page with the typed post kept); an image, its
// thumbnail and its row are stored together or not at all; readiness fails when uploads cannot be
// written. Three servers: local disk, an uploads folder that cannot exist (its parent is a regular
// file, which stops root too, unlike chmod), and the fake S3 refusing thumbnail writes.
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publish as publishMessages } from "~/lib/messages/publish";
import { s3Env, startFakeS3, storedKeys, type FakeS3 } from "../fakes/s3-server";
import { scratchDir } from "../support/app-process";
import { insertStudent, looksLikeStackTrace, sql, startServer, type Server, type Student } from "./server";

const TYPED = "期末复习资料互换，带上你的笔记";
let png: Buffer;
let s3: FakeS3;
let local: Server;
let unwritable: Server;
let onS3: Server;
let signedS3: Server;
let blockedDir: string;
let localDir: string;
const servers: Server[] = [];

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#3366cc" } }).png().toBuffer();
  s3 = await startFakeS3();
  const regularFile = path.join(scratchDir("security"), `not-a-folder-${process.pid}`);
  fs.writeFileSync(regularFile, "uploads cannot live under a regular file");
  blockedDir = path.join(regularFile, "uploads");
  localDir = path.join(scratchDir("security"), `uploads-local-${process.pid}`);
  fs.rmSync(localDir, { recursive: true, force: true });
  [local, unwritable, onS3, signedS3] = await Promise.all([
    startServer({ UPLOADS_DIR: localDir }),
    startServer({ UPLOADS_DIR: blockedDir }),
    startServer(s3Env(s3)),
    startServer({ ...s3Env(s3, { prefix: "signed" }), UPLOADS_S3_SIGNED_URLS: "true" }),
  ]);
  servers.push(local, unwritable, onS3, signedS3);
}, 90_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  await s3?.close();
});

function uploadForm(filename: string, extra: Record<string, string> = {}, field = "file") {
  const form = new FormData();
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  form.append(field, new Blob([new Uint8Array(png)], { type: "image/png" }), filename);
  return form;
}

async function post(server: Server, pathname: string, student: Student, body: FormData) {
  const response = await fetch(server.base + pathname, {
    method: "POST",
    headers: { Cookie: student.cookie, Origin: server.base, Accept: "text/html" },
    body,
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const publishFields = { categoryId: "1", content: TYPED };

function uploadRows(server: Server, userId: number) {
  return sql<{ key: string }>(server, "SELECT key FROM uploads WHERE user_id = ?", userId);
}

describe("a file name is only a name", () => {
  it("a;b.jpg through the upload endpoint is stored under a random name, nothing of the name in any header", async () => {
    const student = await insertStudent(local, "分号同学");
    const answer = await post(local, "/api/upload/image", student, uploadForm("a;b.jpg"));
    expect(answer.status, answer.text.slice(0, 300)).toBe(200);
    const body = JSON.parse(answer.text);
    expect(body.success).toBe(true);
    expect(body.data.file_url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.jpg$/);
    for (const [, value] of answer.headers) expect(value).not.toContain("a;b");
  });

  it("a;b.jpg (and a name with quotes, slashes and a newline) chosen in the publish form without JavaScript: the post is published", async () => {
    for (const filename of ["a;b.jpg", 'x";.jpg', "../../etc/passwd.jpg", "c\r\nd.jpg"]) {
      const student = await insertStudent(local, "无脚本同学");
      const answer = await post(local, "/publish-post", student, uploadForm(filename, publishFields, "files"));
      expect(answer.status, `${JSON.stringify(filename)}: ${answer.text.slice(0, 300)}`).toBe(302);
      expect(answer.headers.get("Location")).toBe("/circle?notice=published");
      const rows = sql<{ content: string; images: number }>(
        local,
        "SELECT p.content, (SELECT COUNT(*) FROM uploads u WHERE u.post_id = p.id) AS images FROM posts p WHERE p.user_id = ?",
        student.userId,
      );
      expect(rows).toEqual([{ content: TYPED, images: 1 }]);
    }
  });
});

describe("uploads that cannot be written (the uploads folder cannot exist)", () => {
  it("the upload endpoint answers the JSON error the page's script shows, not a raw 500", async () => {
    const student = await insertStudent(unwritable, "只读同学");
    const answer = await post(unwritable, "/api/upload/image", student, uploadForm("photo.png"));
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.text)).toEqual({ success: false, message: publishMessages.storageUnavailable });
    expect(uploadRows(unwritable, student.userId)).toEqual([]);
  });

  it("the publish form without JavaScript shows the error on the page and keeps the typed post", async () => {
    const student = await insertStudent(unwritable, "只读同学二");
    const answer = await post(unwritable, "/publish-post", student, uploadForm("a;b.jpg", publishFields, "files"));
    expect(answer.status).toBeLessThan(500);
    expect(answer.headers.get("Content-Type")).toMatch(/text\/html/);
    expect(answer.text).toContain(publishMessages.storageUnavailable);
    expect(answer.text).toContain(TYPED);
    expect(looksLikeStackTrace(answer.text)).toBe(false);
    expect(sql(unwritable, "SELECT id FROM posts WHERE user_id = ?", student.userId)).toEqual([]);
    expect(uploadRows(unwritable, student.userId)).toEqual([]);
  });

  it("readiness fails naming the storage, while liveness stays ok", async () => {
    const ready = await fetch(`${unwritable.base}/readyz`);
    expect(ready.status).toBe(503);
    const body = await ready.json();
    expect(body.failed).toEqual(["storage"]);
    expect(body.checks.database).toBe("ok");
    expect((await fetch(`${unwritable.base}/healthz`)).status).toBe(200);
    expect((await fetch(`${local.base}/readyz`)).status).toBe(200);
  });
});

describe("storage failing half-way (the store refuses the thumbnail: a full disk behind it)", () => {
  it("no orphan: the stored image is removed again, no row, the page gets its JSON error", async () => {
    const student = await insertStudent(onS3, "对象存储同学");
    s3.failPuts = /\.t\.jpg$/;
    try {
      const answer = await post(onS3, "/api/upload/image", student, uploadForm("half.png"));
      expect(answer.status).toBe(503);
      expect(JSON.parse(answer.text).message).toBe(publishMessages.storageUnavailable);
    } finally {
      s3.failPuts = null;
    }
    expect(s3.requests.some((request) => request.method === "PUT" && /^[A-Za-z0-9_-]{22}\.jpg$/.test(request.key) && request.status === 200)).toBe(true);
    const unprefixed = () => storedKeys(s3).filter((key) => !key.includes("/") && !key.startsWith("readyz-"));
    expect(unprefixed()).toEqual([]);
    expect(uploadRows(onS3, student.userId)).toEqual([]);

    // Once the store takes writes again the same upload works, and the image is served to the student, privately.
    const again = await post(onS3, "/api/upload/image", student, uploadForm("half.png"));
    expect(again.status).toBe(200);
    const url = JSON.parse(again.text).data.file_url as string;
    const image = await fetch(onS3.base + url, { headers: { Cookie: student.cookie } });
    expect(image.status).toBe(200);
    expect(image.headers.get("Cache-Control")).toBe("private, max-age=3600");
    expect(image.headers.get("Content-Type")).toBe("image/jpeg");
    expect(unprefixed()).toHaveLength(2);
    expect(uploadRows(onS3, student.userId)).toHaveLength(1);
  });

  it("the store unreachable: images answer 503 (not an error page), readiness names the storage, both recover", async () => {
    const [stored] = sql<{ key: string }>(onS3, "SELECT key FROM uploads LIMIT 1");
    const student = await insertStudent(onS3, "存储宕机同学");
    s3.down = true;
    try {
      const image = await fetch(`${onS3.base}/uploads/${stored!.key}.jpg`, { headers: { Cookie: student.cookie } });
      expect(image.status).toBe(503);
      expect(image.headers.get("Cache-Control")).toBe("no-store");
      const ready = await fetch(`${onS3.base}/readyz`);
      expect(ready.status).toBe(503);
      expect((await ready.json()).failed).toEqual(["storage"]);
      const upload = await post(onS3, "/api/upload/image", student, uploadForm("down.png"));
      expect(upload.status).toBe(503);
      expect(JSON.parse(upload.text).message).toBe(publishMessages.storageUnavailable);
    } finally {
      s3.down = false;
    }
    expect((await fetch(`${onS3.base}/uploads/${stored!.key}.jpg`, { headers: { Cookie: student.cookie } })).status).toBe(200);
    // Readiness answers are reused for 2 s (each check writes to the store): ready again soon after.
    let ready = 0;
    for (let i = 0; i < 40 && ready !== 200; i++) {
      ready = (await fetch(`${onS3.base}/readyz`)).status;
      if (ready !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(ready).toBe(200);
    expect(uploadRows(onS3, student.userId)).toEqual([]);
  });

  it("with signed URLs an image is a redirect to a presigned address of the private bucket", async () => {
    const student = await insertStudent(signedS3, "签名地址同学");
    const answer = await post(signedS3, "/api/upload/image", student, uploadForm("signed.png"));
    expect(answer.status).toBe(200);
    const url = JSON.parse(answer.text).data.file_url as string;
    const redirect = await fetch(signedS3.base + url, { headers: { Cookie: student.cookie }, redirect: "manual" });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get("Cache-Control")).toBe("private, max-age=1800");
    const location = redirect.headers.get("Location")!;
    expect(location.startsWith(`${s3.url}/${s3.bucket}/signed/`)).toBe(true);
    const image = await fetch(location);
    expect(image.status).toBe(200);
    expect(image.headers.get("Content-Type")).toBe("image/jpeg");
    expect((await fetch(location.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${"0".repeat(64)}`))).status).toBe(403);
  });

  it("no temporary or stray files are left in the local uploads folder: two files per stored upload", async () => {
    const names = fs.readdirSync(localDir);
    expect(names.filter((name) => name.endsWith(".tmp") || name.startsWith("."))).toEqual([]);
    const keys = sql<{ key: string }>(local, "SELECT key FROM uploads");
    expect(names.sort()).toEqual(keys.flatMap(({ key }) => [`${key}.jpg`, `${key}.t.jpg`]).sort());
  });
});
