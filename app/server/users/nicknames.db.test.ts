// Names people go by, through the forms a browser without JavaScript posts, on both dialects:
// no abuse, nobody passing for staff, one name per campus whatever its width, case or spaces
// (also when two students choose it at the same moment), and a student whose messenger name is
// only the placeholder is asked for a name once before they first post or comment.
import { describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { nicknameKey } from "~/lib/nickname-words";
import { action as commentAction } from "~/routes/post.$id.comment/route";
import { loader as postLoader } from "~/routes/post.$id/route";
import { action as profileAction } from "~/routes/backpack.profile";
import { loader as publishLoader } from "~/routes/publish-post/route";
import { db } from "~/server/db/db.server";
import { saveCampusChoice } from "~/server/campus/campus.server";
import { call, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { createPost } from "../forum/posts.server";

const save = (cookie: string, fields: Record<string, string>) =>
  call(profileAction, request("/backpack/profile", { method: "POST", body: new URLSearchParams({ intent: "nickname", ...fields }), cookie }));

async function student(campus: string | null, nickname: string | null = null) {
  const user = await createStudent({ campus_code: campus, nickname, nickname_key: nickname ? nicknameKey(nickname) : null });
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function fieldError(response: Response) {
  return ((await response.json()) as { error: Record<string, string[]> }).error.nickname;
}

// Digits only: random letters made an abusive name now and then ("Lily酱nm7n": "nm"), refused with 400.
const tag = () => String(Math.floor(Math.random() * 1e6)).padStart(6, "0");
const CAMPUS = "main";
const OTHER = "east";

describe("a nickname", () => {
  it.each([
    ["傻 Ｂ同学", msg.profile.nicknameAbusive],
    ["草泥马", msg.profile.nicknameAbusive],
    ["ｃｎｍ", msg.profile.nicknameAbusive],
    ["管 理 员", msg.profile.nicknameReserved],
    ["微信用户", msg.profile.nicknameReserved],
  ])("%j is refused with its message beside the field", async (nickname, message) => {
    const { cookie, user } = await student(CAMPUS);
    const response = await save(cookie, { nickname });
    expect(response.status).toBe(400);
    expect(await fieldError(response)).toEqual([message]);
    expect((await db().selectFrom("users").select("nickname").where("id", "=", user.id).executeTakeFirstOrThrow()).nickname).toBeNull();
  });

  it("another student's exact name in the same campus is refused, whatever its width, case or spaces; another campus may use it", async () => {
    const name = `Lily酱${tag()}`;
    await student(CAMPUS, name);
    const same = await student(CAMPUS);
    for (const lookalike of [name, name.toUpperCase(), ` ${name.replace("Lily", "Ｌｉｌｙ")} `, name.replace("酱", " 酱")]) {
      const response = await save(same.cookie, { nickname: lookalike });
      expect(response.status, lookalike).toBe(409);
      expect(await fieldError(response)).toEqual([msg.profile.nicknameTaken]);
    }
    const elsewhere = await student(OTHER);
    expect((await save(elsewhere.cookie, { nickname: name })).status).toBe(302);
    // Keeping one's own name (saved again) is fine.
    expect((await save(elsewhere.cookie, { nickname: name.toLowerCase() })).status).toBe(302);
  });

  it("two students choosing the same name at the same moment: one gets it", async () => {
    const name = `同名${tag()}`;
    const people = await Promise.all(Array.from({ length: 6 }, () => student(CAMPUS)));
    const answers = await Promise.all(people.map(({ cookie }) => save(cookie, { nickname: name })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 409, 409, 409, 409, 409]);
    const holders = await db().selectFrom("users").select("id").where("nickname_key", "=", nicknameKey(name)).execute();
    expect(holders).toHaveLength(1);
  });

  it("moving to a campus where the name is taken clears it (asked again); where it is free it goes along", async () => {
    const name = `搬家${tag()}`;
    await student(OTHER, name);
    const mover = await student(CAMPUS, name);
    await saveCampusChoice(mover.user, OTHER);
    expect(await db().selectFrom("users").select(["nickname", "nickname_key", "campus_code"]).where("id", "=", mover.user.id).executeTakeFirstOrThrow()).toEqual({
      nickname: null,
      nickname_key: null,
      campus_code: OTHER,
    });
    const free = `新名${tag()}`;
    const other = await student(CAMPUS, free);
    await saveCampusChoice(other.user, OTHER);
    expect((await db().selectFrom("users").select("nickname").where("id", "=", other.user.id).executeTakeFirstOrThrow()).nickname).toBe(free);
  });
});

describe("a messenger placeholder is no name: asked once before the first post or comment", () => {
  it("the placeholder student is sent to name themself, and comes back to write", async () => {
    const { user, cookie } = await student(CAMPUS);
    await db().updateTable("users").set({ openid: `o${tag()}placeholder`, wechat_nickname: "微信用户" }).where("id", "=", user.id).execute();
    const { id: postId } = await createPost({ userId: user.id, categoryId: 1, content: "有人一起去自习吗" });

    // The post page offers the prompt instead of the comment box; a comment sent anyway is refused.
    const page = (await (await call(postLoader, request(`/post/${postId}`, { cookie }), { id: String(postId) })).json()) as { canComment: boolean };
    expect(page.canComment).toBe(false);
    const refused = await call(commentAction, request(`/post/${postId}/comment`, { method: "POST", body: new URLSearchParams({ intent: "comment", content: "我来" }), cookie }), { id: String(postId) });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: msg.postDetail.commentNeedsProfile });

    // Publishing asks first.
    const publish = await call(publishLoader, request("/publish-post?category=2", { cookie }));
    expect(publish.status).toBe(302);
    expect(publish.headers.get("Location")).toBe(`/backpack/profile?redirectTo=${encodeURIComponent("/publish-post?category=2")}`);

    const named = await save(cookie, { nickname: `自习搭子${tag()}`, redirectTo: `/post/${postId}/comment` });
    expect(named.headers.get("Location")).toBe(`/post/${postId}/comment`);
    const sent = await call(commentAction, request(`/post/${postId}/comment`, { method: "POST", body: new URLSearchParams({ intent: "comment", content: "我来" }), cookie }), { id: String(postId) });
    expect(sent.status).toBe(302);
    // A later page load (the session lookup of the first one is shared until the next turn).
    await new Promise((resolve) => setImmediate(resolve));
    const again = await call(publishLoader, request("/publish-post", { cookie }));
    expect(again.headers.get("Location")).toBeNull();
    expect(again.status).toBe(200);
  });
});
