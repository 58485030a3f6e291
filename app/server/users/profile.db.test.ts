// /backpack/profile on a real database: the nickname rules on the server, the one display name
// the backpack and the circle show, and the way back to the comment the student was about to write.
import { beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { loader as backpackLoader } from "~/routes/backpack._index";
import { action, loader } from "~/routes/backpack.profile";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";

beforeAll(() => resetConfig());

const save = (cookie: string, fields: Record<string, string>) =>
  action({ request: request("/backpack/profile", { method: "POST", body: new URLSearchParams({ intent: "nickname", ...fields }), cookie }), params: {}, context: {} }) as Promise<Response>;

describe("/backpack/profile", () => {
  it("shows one display name everywhere and the real name to its owner only on this page", async () => {
    const user = await createStudent({ real_name: "张明", nickname: null, wechat_nickname: null });
    const cookie = await sessionCookieFor(user.id);
    const backpack = await backpackLoader({ request: request("/backpack", { cookie }), params: {}, context: {} });
    expect(backpack.profile.nickname).toBe("校园帮同学");
    expect(JSON.stringify(backpack)).not.toContain("张明");
    const profile = await loader({ request: request("/backpack/profile", { cookie }), params: {}, context: {} });
    expect(profile).toMatchObject({ nickname: "", displayName: "校园帮同学", realName: "张明" });
  });

  it("saves a valid nickname, which the backpack then shows", async () => {
    const user = await createStudent({ real_name: "张明", nickname: null });
    const cookie = await sessionCookieFor(user.id);
    const response = await save(cookie, { nickname: "  阿明同学  " });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/backpack/profile?notice=saved");
    expect((await db().selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirstOrThrow()).nickname).toBe("阿明同学");
    const backpack = await backpackLoader({ request: request("/backpack", { cookie }), params: {}, context: {} });
    expect(backpack.profile.nickname).toBe("阿明同学");
  });

  it.each([
    ["明", "昵称至少 2 个字"],
    ["字".repeat(21), "昵称最多 20 个字"],
    ["13812345678", msg.profile.nicknameDigits],
    ["校园帮官方", msg.profile.nicknameReserved],
    ["", msg.profile.nicknameRequired],
  ])("refuses %j with its message beside the field, keeping what was typed and the old name", async (nickname, message) => {
    const user = await createStudent({ nickname: "旧名字" });
    const cookie = await sessionCookieFor(user.id);
    const response = await save(cookie, { nickname });
    expect(response.status).toBe(400);
    const reply = (await response.json()) as { error: Record<string, string[]>; initialValue?: Record<string, string> };
    expect(reply.error.nickname).toEqual([message]);
    if (nickname) expect(reply.initialValue?.nickname).toBe(nickname);
    expect((await db().selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirstOrThrow()).nickname).toBe("旧名字");
  });

  it("changes nothing for a body without the form's intent", async () => {
    const user = await createStudent({ nickname: "旧名字" });
    const cookie = await sessionCookieFor(user.id);
    const response = (await action({ request: request("/backpack/profile", { method: "POST", body: new URLSearchParams({ nickname: "true" }), cookie }), params: {}, context: {} })) as Response;
    expect(response.status).toBe(400);
    expect((await db().selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirstOrThrow()).nickname).toBe("旧名字");
  });

  it("goes on to the comment the student was about to write, and never off the site", async () => {
    const user = await createStudent({ nickname: null, wechat_nickname: null });
    const cookie = await sessionCookieFor(user.id);
    const onward = await save(cookie, { nickname: "评论的人", redirectTo: "/post/7/comment" });
    expect(onward.headers.get("Location")).toBe("/post/7/comment");
    const offsite = await save(cookie, { nickname: "评论的人", redirectTo: "//evil.example/x" });
    expect(offsite.headers.get("Location")).toBe("/backpack/profile?notice=saved");
  });
});

describe("the avatar", () => {
  // A 600×400 JPEG carrying EXIF (a camera model and GPS) and a rotation.
  async function photoWithExif() {
    const sharp = (await import("sharp")).default;
    return sharp({ create: { width: 600, height: 400, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .withMetadata({ orientation: 6, exif: { IFD0: { Model: "CampusPhone X" }, IFD3: { GPSLatitudeRef: "N" } } })
      .jpeg()
      .toBuffer();
  }

  function upload(cookie: string, data: Buffer, filename = "me.jpg") {
    const form = new FormData();
    form.set("avatar", new File([new Uint8Array(data)], filename, { type: "image/jpeg" }));
    return action({ request: request("/backpack/profile", { method: "POST", body: form, cookie }), params: {}, context: {} }) as Promise<Response>;
  }

  it("stores an upright square with no metadata, and replaces the old one", async () => {
    const sharp = (await import("sharp")).default;
    const { fileStorage } = await import("~/server/storage/storage.server");
    const user = await createStudent();
    const cookie = await sessionCookieFor(user.id);
    const first = await upload(cookie, await photoWithExif());
    expect(first.status).toBe(302);
    const { avatar_url: url } = await db().selectFrom("users").select("avatar_url").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{22}\.jpg$/);
    const stored = await fileStorage().get(url!.slice("/uploads/".length));
    const meta = await sharp(stored!.data).metadata();
    expect([meta.width, meta.height]).toEqual([256, 256]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(await fileStorage().get(url!.slice("/uploads/".length).replace(".jpg", ".t.jpg"))).not.toBeNull();

    await upload(cookie, await photoWithExif());
    const { avatar_url: second } = await db().selectFrom("users").select("avatar_url").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(second).not.toBe(url);
    expect(await fileStorage().get(url!.slice("/uploads/".length))).toBeNull();
  });

  it("refuses what is not a picture, whatever its name, and keeps the old avatar", async () => {
    const user = await createStudent({ avatar_url: null });
    const cookie = await sessionCookieFor(user.id);
    const response = await upload(cookie, Buffer.from("just text, named like a photo"), "notes.jpg");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ avatarError: msg.profile.avatarNotImage });
    expect((await db().selectFrom("users").select("avatar_url").where("id", "=", user.id).executeTakeFirstOrThrow()).avatar_url).toBeNull();
  });
});
