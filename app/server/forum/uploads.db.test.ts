import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { action as publishAction } from "~/routes/publish-post/route";
import { action as uploadAction } from "~/routes/api.upload.image";
import { loader as fileLoader } from "~/routes/uploads.$file";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor, useTemporaryUploads } from "../../../tests/setup/helpers";
import { MAX_PENDING_UPLOADS, sniffImageType } from "../storage/images.server";

// POST /api/upload/image and the publish form's files: the content decides, not the name or type.

const uploadsDir = useTemporaryUploads("circle-uploads-");

function upload(cookie: string | undefined, file: Blob, name: string) {
  const form = new FormData();
  form.append("file", file, name);
  return uploadAction({ request: request("/api/upload/image", { method: "POST", body: form, cookie }), params: {}, context: {} }) as Promise<Response>;
}

async function photo(width: number, height: number) {
  // A JPEG with EXIF (camera owner and GPS position) the way phones write them.
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } } })
    .jpeg()
    .withExif({ IFD0: { Artist: "Secret Photographer", Copyright: "Secret" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "28/1 11/1 0/1" } })
    .toBuffer();
}

describe("image upload", () => {
  it("re-encodes a real image: longest side 1600, no EXIF or GPS, a thumbnail; answers the product rules' shape", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const original = await photo(3000, 1500);
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const response = await upload(cookie, new Blob([new Uint8Array(original)], { type: "image/jpeg" }), "IMG_0001.jpg");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({ success: true, data: { width: 1600, height: 800 } });
    expect(body.data.file_url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.jpg$/);

    const name = body.data.file_url.slice("/uploads/".length);
    const served = (await fileLoader({ request: request(body.data.file_url, { cookie }), params: { file: name }, context: {} })) as Response;
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=3600");
    const stored = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(stored).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([1600, 800, "jpeg"]);
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from("Secret Photographer"))).toBe(false);
    const thumb = await sharp(fs.readFileSync(path.join(uploadsDir(), name.replace(".jpg", ".t.jpg")))).metadata();
    expect(Math.max(thumb.width!, thumb.height!)).toBe(480);

    const row = await db().selectFrom("uploads").selectAll().where("user_id", "=", student.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ post_id: null, width: 1600, height: 800 });
  });

  it("refuses a non-image renamed .jpg (and sent as image/jpeg)", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const fake = new Blob(["#!/bin/sh\necho this is not a picture\n"], { type: "image/jpeg" });
    const response = await upload(cookie, fake, "holiday.jpg");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: "只能上传图片文件" });
    // A file that starts like a JPEG but is not one is refused by the decoder.
    const truncated = new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6])], { type: "image/jpeg" });
    const broken = await upload(cookie, truncated, "broken.jpg");
    expect(broken.status).toBe(400);
    expect((await broken.json()).message).toBe("无法识别的图片，请换一张");
    expect(await db().selectFrom("uploads").select("id").where("user_id", "=", student.id).execute()).toHaveLength(0);
  });

  it("refuses an oversized file without keeping it", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const big = new Uint8Array(10 * 1024 * 1024 + 1);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    const response = await upload(cookie, new Blob([big], { type: "image/jpeg" }), "huge.jpg");
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("图片不能超过 10 MB");
    expect(await db().selectFrom("uploads").select("id").where("user_id", "=", student.id).execute()).toHaveLength(0);
  });

  it("refuses another image while the student holds as many unpublished uploads as allowed (429)", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const created_at = new Date().toISOString();
    const held = Array.from({ length: MAX_PENDING_UPLOADS }, (_, index) => ({ key: `held-${student.id}-${index}`, user_id: student.id, post_id: null, position: 0, width: 1, height: 1, bytes: 1, created_at }));
    await db().insertInto("uploads").values(held).execute();
    const response = await upload(cookie, new Blob([await photo(40, 30)], { type: "image/jpeg" }), "one-more.jpg");
    expect(response.status).toBe(429);
    expect((await response.json()).message).toBe("待发布的图片太多了，请先发布或稍后再试");
    expect(await db().selectFrom("uploads").select("id").where("user_id", "=", student.id).execute()).toHaveLength(MAX_PENDING_UPLOADS);
  });

  it("needs a student session (401) and refuses a banned author (403)", async () => {
    const anonymous = await upload(undefined, new Blob([new Uint8Array(await photo(10, 10))]), "a.jpg");
    expect(anonymous.status).toBe(401);
    expect((await anonymous.json()).message).toBe("用户未登录，请先登录");
    const banned = await createStudent();
    await db().insertInto("forum_bans").values({ user_id: banned.id, operator_id: null, reason: null, created_at: new Date().toISOString() }).execute();
    const refused = await upload(await sessionCookieFor(banned.id), new Blob([new Uint8Array(await photo(10, 10))]), "a.jpg");
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe("你没有发帖权限");
  });

  it("sniffs types by their first bytes", async () => {
    expect(sniffImageType(await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } }).png().toBuffer())).toBe("png");
    expect(sniffImageType(await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } }).webp().toBuffer())).toBe("webp");
    expect(sniffImageType(await sharp({ create: { width: 2, height: 2, channels: 3, background: "#fff" } }).gif().toBuffer())).toBe("gif");
    expect(sniffImageType(Buffer.from("GIF87a"))).toBe("gif");
    expect(sniffImageType(Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(sniffImageType(Buffer.from("%PDF-1.7"))).toBeNull();
  });
});

describe("the publish form without JavaScript", () => {
  function publish(cookie: string, form: FormData) {
    return publishAction({ request: request("/publish-post", { method: "POST", body: form, cookie }), params: {}, context: {} }).then(
      (value) => value as Response,
      (thrown) => thrown as Response,
    );
  }

  it("takes chosen files with the post, names a refused file, and keeps what was typed and stored", async () => {
    // A post needs a name to be signed with.
    const student = await createStudent({ nickname: "拍照的同学" });
    const cookie = await sessionCookieFor(student.id);
    const form = new FormData();
    form.append("content", "两张照片的帖子");
    form.append("categoryId", "1");
    form.append("files", new Blob([new Uint8Array(await photo(800, 600))], { type: "image/jpeg" }), "a.jpg");
    form.append("files", new Blob(["not an image"], { type: "image/png" }), "notes.png");
    const refused = await publish(cookie, form);
    expect(refused.status).toBe(400);
    const body = await refused.json();
    expect(body.result.error[""]).toEqual(["notes.png: 只能上传图片文件"]);
    expect(body.result.initialValue.content).toBe("两张照片的帖子");
    expect(body.images).toHaveLength(1); // the good one is stored and comes back to the form

    const retry = new FormData();
    retry.append("content", "两张照片的帖子");
    retry.append("categoryId", "1");
    retry.append("images", body.images[0].url);
    retry.append("files", new Blob([new Uint8Array(await photo(600, 800))], { type: "image/jpeg" }), "b.jpg");
    const published = await publish(cookie, retry);
    expect(published.status).toBe(302);
    expect(published.headers.get("Location")).toBe("/circle?notice=published");
    const post = await db().selectFrom("posts").selectAll().where("user_id", "=", student.id).executeTakeFirstOrThrow();
    const images = await db().selectFrom("uploads").select(["key", "position"]).where("post_id", "=", post.id).orderBy("position").execute();
    expect(images).toHaveLength(2);
    expect(`/uploads/${images[0]!.key}.jpg`).toBe(body.images[0].url);
  });

  it("answers the product rules' validation messages and 403 for a banned author", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const empty = new FormData();
    empty.append("content", "   ");
    const refused = await publish(cookie, empty);
    expect(refused.status).toBe(400);
    const { result } = await refused.json();
    expect(result.error.content).toEqual(["请输入帖子内容"]);
    expect(result.error.categoryId).toEqual(["请选择帖子分类"]);

    const unknownCategory = new FormData();
    unknownCategory.append("content", "x");
    unknownCategory.append("categoryId", "99");
    expect((await (await publish(cookie, unknownCategory)).json()).result.error.categoryId).toEqual(["请选择帖子分类"]);

    await db().insertInto("forum_bans").values({ user_id: student.id, operator_id: null, reason: null, created_at: new Date().toISOString() }).execute();
    const ok = new FormData();
    ok.append("content", "被禁言后发帖");
    ok.append("categoryId", "1");
    const banned = await publish(cookie, ok);
    expect(banned.status).toBe(403);
    expect((await banned.json()).result.error[""]).toEqual(["你没有发帖权限"]);
  });
});
