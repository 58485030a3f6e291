// Circle images are private: /uploads/<file> answers a signed-in student or operator, or a signed
// address until it expires, with cache headers that keep it out of shared caches. A post's share
// card has a public thumbnail of its own (/share-card/<key>.jpg) while the post is visible.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { action as uploadAction } from "~/routes/api.upload.image";
import { loader as postLoader } from "~/routes/post.$id/route";
import { loader as shareLoader } from "~/routes/share-card.$file";
import { loader as fileLoader } from "~/routes/uploads.$file";
import { createOperator, createOperatorSession } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { cookieValue, createMessengerUser, createStudent, request, sessionCookieFor, useTemporaryUploads } from "../../../tests/setup/helpers";
import { signedUploadUrl } from "../storage/upload-access.server";
import { createPost } from "./posts.server";

useTemporaryUploads("image-access-");

async function uploaded(cookie: string): Promise<{ url: string; key: string }> {
  const png = await sharp({ create: { width: 120, height: 90, channels: 3, background: "#cc6633" } }).png().toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "p.png");
  const response = (await uploadAction({ request: request("/api/upload/image", { method: "POST", body: form, cookie }), params: {}, context: {} })) as Response;
  const url = (await response.json()).data.file_url as string;
  return { url, key: url.slice("/uploads/".length, -".jpg".length) };
}

async function fetchFile(pathWithQuery: string, cookie?: string): Promise<Response> {
  const url = new URL(pathWithQuery, "http://localhost");
  try {
    return (await fileLoader({ request: request(pathWithQuery, { cookie }), params: { file: url.pathname.slice("/uploads/".length) }, context: {} })) as Response;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

async function fetchShare(file: string): Promise<Response> {
  return (await shareLoader({ request: request(`/share-card/${file}`), params: { file }, context: {} })) as Response;
}

async function publishedWithTwoImages() {
  const author = await createStudent();
  const cookie = await sessionCookieFor(author.id);
  const first = await uploaded(cookie);
  const second = await uploaded(cookie);
  const { id } = await createPost({ userId: author.id, categoryId: 1, content: "带图的帖子", images: [first.url, second.url] });
  return { author, cookie, first, second, postId: id };
}

describe("circle images", () => {
  it("are refused without a session (401), and to a messenger identity without a student account", async () => {
    const { first } = await publishedWithTwoImages();
    const anonymous = await fetchFile(first.url);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("Cache-Control")).toBe("no-store");
    expect((await fetchFile(first.url.replace(".jpg", ".t.jpg"))).status).toBe(401);
    const messengerOnly = await sessionCookieFor((await createMessengerUser()).id, { platform: "wechat" });
    expect((await fetchFile(first.url, messengerOnly)).status).toBe(401);
  });

  it("are served to a signed-in student and to an operator, privately", async () => {
    const { first } = await publishedWithTwoImages();
    const reader = await sessionCookieFor((await createStudent()).id);
    const served = await fetchFile(first.url, reader);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/jpeg");
    expect(served.headers.get("Cache-Control")).toBe("private, max-age=3600");

    const operator = await createOperator({ username: `mod${Date.now()}`, password: "long-enough-1" });
    const operatorCookie = cookieValue((await createOperatorSession(operator.id)).setCookie);
    expect((await fetchFile(first.url, operatorCookie)).status).toBe(200);
  });

  it("are served to anyone with an unexpired signed address; a tampered or expired one is refused (403)", async () => {
    const { first } = await publishedWithTwoImages();
    const name = `${first.key}.jpg`;
    const signed = signedUploadUrl(name);
    expect(signed).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.jpg\?e=\d+&s=[A-Za-z0-9_-]{32}$/);
    const served = await fetchFile(signed);
    expect(served.status).toBe(200);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(served.headers.get("Cache-Control") ?? "")?.[1]);
    expect(maxAge).toBeGreaterThan(3600 - 5);
    expect(maxAge).toBeLessThanOrEqual(7200);
    // Within the hour it is the same address (the browser keeps the image).
    expect(signedUploadUrl(name, Date.now() + 1000)).toBe(signed) ;

    const signature = new URL(signed, "http://localhost").searchParams.get("s")!;
    const flipped = signed.replace(`s=${signature}`, `s=${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`);
    expect((await fetchFile(flipped)).status).toBe(403);
    const later = signed.replace(/e=(\d+)/, (_match, e: string) => `e=${Number(e) + 3600}`);
    expect((await fetchFile(later)).status).toBe(403);
    const otherFile = signed.replace(`${first.key}.jpg`, `${first.key}.t.jpg`);
    expect((await fetchFile(otherFile)).status).toBe(403);
    const expired = signedUploadUrl(name, Date.now() - 3 * 3600_000);
    const refused = await fetchFile(expired);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("Cache-Control")).toBe("no-store");
    // A bad signature is not rescued by a session.
    expect((await fetchFile(flipped, await sessionCookieFor((await createStudent()).id))).status).toBe(403);
  });
});

describe("a post's share card", () => {
  it("has a public thumbnail of its own: the first image's, while the post is visible", async () => {
    const { cookie, first, second, postId } = await publishedWithTwoImages();
    const data = (await postLoader({ request: request(`/post/${postId}`, { cookie }), params: { id: String(postId) }, context: {} })) as { shareImage?: string };
    expect(data.shareImage).toBe(`/share-card/${first.key}.jpg`);

    const card = await fetchShare(`${first.key}.jpg`);
    expect(card.status).toBe(200);
    expect(card.headers.get("Content-Type")).toBe("image/jpeg");
    expect(card.headers.get("Cache-Control")).toBe("public, max-age=86400");
    const thumb = await fetchFile(`/uploads/${first.key}.t.jpg`, cookie);
    expect(Buffer.from(await card.arrayBuffer()).equals(Buffer.from(await thumb.arrayBuffer()))).toBe(true);

    // Not the other images, not unknown names, and not once the post is hidden.
    expect((await fetchShare(`${second.key}.jpg`)).status).toBe(404);
    expect((await fetchShare("AAAAAAAAAAAAAAAAAAAAAA.jpg")).status).toBe(404);
    expect((await fetchShare(`${first.key}.t.jpg`)).status).toBe(404);
    await db().updateTable("posts").set({ moderation: "hidden" }).where("id", "=", postId).execute();
    expect((await fetchShare(`${first.key}.jpg`)).status).toBe(404);
  });
});
