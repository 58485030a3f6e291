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
  action({ request: request("/backpack/profile", { method: "POST", body: new URLSearchParams(fields), cookie }), params: {}, context: {} }) as Promise<Response>;

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
    expect(response.headers.get("Location")).toBe("/backpack/profile?saved=1");
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

  it("goes on to the comment the student was about to write, and never off the site", async () => {
    const user = await createStudent({ nickname: null, wechat_nickname: null });
    const cookie = await sessionCookieFor(user.id);
    const onward = await save(cookie, { nickname: "评论的人", redirectTo: "/post/7/comment" });
    expect(onward.headers.get("Location")).toBe("/post/7/comment");
    const offsite = await save(cookie, { nickname: "评论的人", redirectTo: "//evil.example/x" });
    expect(offsite.headers.get("Location")).toBe("/backpack/profile?saved=1");
  });
});
