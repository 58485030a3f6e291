// The invite campaign on both dialects: links and codes, pending invites, the invite-register
// dialog (profile, new-user grant and assist in one transaction), the assist rules (self, twice,
// old user, unknown inviter, empty code) including 20 parallel assists by one user, the login
// path performing an invited user's assist, milestones at 5 and 10 (once, also in parallel),
// the records only their inviter sees, and the person's data on deletion and merge.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { loader as recordsLoaderRoute } from "~/routes/api.coupon.assist.records.openid.$openid";
import { action as assistAction } from "~/routes/market.assist";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as promoAction, loader as promoLoader } from "~/routes/market.promo-activity/route";
import { mergeUserRows } from "~/server/auth/messenger.server";
import { db } from "~/server/db/db.server";
import { deleteUserData } from "~/server/users/deletion.server";
import { call, routeArgs as args, createMessengerUser, createStudent, request, sessionCookieFor, type TestUser } from "../../../tests/setup/helpers";
import { resetConfig } from "~/server/config.server";
import { loader as loginLoader } from "~/routes/crLogin";
import { grantAtStudentLogin, inviteLinkOf, inviteRecords, recordPendingInvite, registerAndAssist as register, resolveInviter, type RegisterInput, type SchoolLogin } from "./campaign.server";
import { isNewUser } from "./wallet.server";

const e = couponMessages.errors;
async function inviter() {
  const user = await createMessengerUser({ wechat_nickname: "邀请人小明", wechat_avatar: "https://thirdwx.qlogo.cn/inviter.png" });
  const link = (await inviteLinkOf(user))!;
  return { user, link };
}

const CAPTCHA = "AB23";
beforeAll(() => {
  process.env.CAPTCHA_FIXED_VALUE = CAPTCHA;
  resetConfig();
});
afterAll(() => {
  delete process.env.CAPTCHA_FIXED_VALUE;
  resetConfig();
});

let phone = 13900000000;
let studentNumber = 24_000_000;
function profile(link: { code: string; token: string }, extra: Partial<RegisterInput> = {}): RegisterInput {
  phone += 1;
  studentNumber += 1;
  // One name per campus: each registration brings its own.
  return { nickname: `新同学${studentNumber}`, phone: String(phone), school: "demo", studentId: String(studentNumber), password: "pw", captcha: CAPTCHA, invite: link.code, inviter: link.token, ...extra };
}

/**
 * The school's verdict stands in for the academic system here (the route tests below use the
 * real /crLogin login): the student account is bound to the messenger row and the login's grant
 * runs, as loginStudent does after a successful login.
 */
const acceptedBySchool =
  (user: TestUser): SchoolLogin =>
  async (login) => {
    const bound = await db().selectFrom("users").select(["student_id"]).where("id", "=", user.id).executeTakeFirstOrThrow();
    if (!bound.student_id) await db().updateTable("users").set({ school_code: login.school, student_id: login.studentId }).where("id", "=", user.id).execute();
    await grantAtStudentLogin(user.id);
    return { ok: true, userId: user.id, setCookie: "__session=test" };
  };

const registerAndAssist = (user: TestUser, input: RegisterInput) => register(user, input, acceptedBySchool(user));

async function couponNames(userId: number) {
  const rows = await db().selectFrom("user_coupons").select("name").where("user_id", "=", userId).orderBy("id").execute();
  return rows.map((row) => row.name);
}

async function assistOnce(host: { user: TestUser; link: { code: string; token: string } }) {
  const invitee = await createMessengerUser();
  const outcome = await registerAndAssist(invitee, profile(host.link));
  expect(outcome.ok).toBe(true);
  return invitee;
}

describe("invite links", () => {
  it("the code is the openid's last 8 characters uppercased; the link carries an opaque id, never the openid", async () => {
    const user = await createMessengerUser({ openid: "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o" });
    const link = (await inviteLinkOf(user))!;
    expect(link.code).toBe("ZNJWES6O");
    expect(link.path).toBe(`/market/promo-activity?invite=ZNJWES6O&inviter=${link.token}`);
    expect(link.path).not.toContain(user.openid!);
    expect((await inviteLinkOf(user))!.token).toBe(link.token);
    expect(await inviteLinkOf(await createStudent())).toBeNull();
  });

  it("resolves a link, a typed code (any case) and refuses a code that does not match its link", async () => {
    const { user, link } = await inviter();
    expect((await resolveInviter(link.code, link.token))?.id).toBe(user.id);
    expect((await resolveInviter(` ${link.code.toLowerCase()} `, null))?.id).toBe(user.id);
    expect(await resolveInviter("NOSUCH00", null)).toBeNull();
    expect(await resolveInviter("NOSUCH00", link.token)).toBeNull();
    expect(await resolveInviter("", link.token)).toBeNull();
  });
});

describe("the invite-register dialog", () => {
  it("stores the profile on the invitee's row (student id as the school proved it), grants both sides in one go", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    const outcome = await registerAndAssist(invitee, profile(host.link, { nickname: "小红", phone: "13800138000", studentId: "S2024007" }));
    expect(outcome.ok).toBe(true);
    const row = await db().selectFrom("users").selectAll().where("id", "=", invitee.id).executeTakeFirstOrThrow();
    expect([row.nickname, row.phone, row.student_id, row.school_code]).toEqual(["小红", "13800138000", "S2024007", "demo"]);
    expect((await couponNames(invitee.id)).sort()).toEqual(["5折券", "5折券", "8折券", "8折券", "8折券"]);
    expect((await couponNames(host.user.id)).sort()).toEqual(["5折券", "8折券"]);
    expect(await isNewUser(invitee.id)).toBe(false);
  });

  it("works through the promo page's form with the real school login: field errors, an invented student id refused, then a redirect", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    const cookie = await sessionCookieFor(invitee.id);
    const captchaId = async () => ((await loginLoader(args(request("/crLogin")))) as { captcha: { id: string } }).captcha.id;
    const post = async (fields: Record<string, string>, session = cookie) =>
      call(
        promoAction,
        request(`/market/promo-activity?invite=${host.link.code}&inviter=${host.link.token}&dialog=register`, {
          method: "POST",
          cookie: session,
          body: new URLSearchParams({ intent: "register", invite: host.link.code, inviter: host.link.token, captchaId: await captchaId(), ...fields }),
        }),
      );
    const bad = await post({ nickname: "a", phone: "12345", studentId: "123" });
    expect(bad.status).toBe(400);
    const reply = await bad.json();
    expect(reply.error).toMatchObject({ nickname: ["昵称长度为2-20个字符"], phone: ["请输入正确的手机号"], studentId: ["学号长度为6-20个字符"], password: ["请输入密码"] });
    const empty = await (await post({})).json();
    expect(empty.error).toMatchObject({ nickname: ["请输入昵称"], phone: ["请输入手机号"], studentId: ["请输入学号"] });

    // An invented student id: the school does not know it — nothing granted, no assist, still new.
    const invented = await post({ nickname: "小刚", phone: "13700137000", school: "demo", studentId: "20239998", password: "demo1234", captcha: CAPTCHA });
    expect(invented.status).toBe(400);
    // The same answer as a wrong password: the login never confirms which ids exist (decision 015).
    expect(Object.values((await invented.json()).error).flat().join()).toContain(msg.login.wrongPassword);
    expect(await couponNames(invitee.id)).toEqual([]);
    expect(await couponNames(host.user.id)).toEqual([]);
    expect(await isNewUser(invitee.id)).toBe(true);

    const done = await post({ nickname: "小刚", phone: "13700137000", school: "demo", studentId: "20230002", password: "demo1234", captcha: CAPTCHA });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/market/promo-activity?notice=registered");
    expect(done.headers.get("Set-Cookie")).toContain("__session=");
    expect((await couponNames(host.user.id)).sort()).toEqual(["5折券", "8折券"]);
    const loggedIn = done.headers.get("Set-Cookie")!.split(";")[0]!;
    const again = await post({ nickname: "小刚", phone: "13700137000", school: "demo", studentId: "20230002", password: "demo1234", captcha: CAPTCHA }, loggedIn);
    expect((await again.json()).error[""]).toEqual([e.already]);
    expect(await couponNames(host.user.id)).toHaveLength(2);
  });
});

describe("assist rules", () => {
  it("不能助力自己哦！", async () => {
    const host = await inviter();
    const outcome = await registerAndAssist(host.user, profile(host.link));
    expect(outcome).toMatchObject({ ok: false, reason: "self" });
    expect(await couponNames(host.user.id)).toEqual([]);
  });

  it("once in a life: the second assist (even for someone else) is '已经助力'", async () => {
    const first = await inviter();
    const second = await inviter();
    const invitee = await createMessengerUser();
    expect((await registerAndAssist(invitee, profile(first.link))).ok).toBe(true);
    const again = await registerAndAssist(invitee, profile(second.link));
    expect(again).toMatchObject({ ok: false, reason: "already" });
    expect(await couponNames(second.user.id)).toEqual([]);
  });

  it("an old user (already granted) cannot assist, and nothing changes", async () => {
    const host = await inviter();
    const old = await createMessengerUser({ nickname: "老用户" });
    await grantAtStudentLogin(old.id);
    const outcome = await registerAndAssist(old, profile(host.link, { nickname: "改名了" }));
    expect(outcome).toMatchObject({ ok: false, reason: "old_user" });
    expect((await db().selectFrom("users").select("nickname").where("id", "=", old.id).executeTakeFirstOrThrow()).nickname).toBe("老用户");
    expect(await couponNames(host.user.id)).toEqual([]);
  });

  it("'邀请人不存在' for an unknown code or a link of nobody; '请输入邀请码' for an empty code", async () => {
    const invitee = await createMessengerUser();
    expect(await registerAndAssist(invitee, profile({ code: "ZZZZZZZZ", token: "nobody" }))).toMatchObject({ ok: false, reason: "inviter_missing" });
    expect(await registerAndAssist(invitee, profile({ code: "", token: "" }))).toMatchObject({ ok: false, reason: "code_required" });
    expect(await isNewUser(invitee.id)).toBe(true);
  });

  it("the promo page's register form words each refusal as the dialog's error, and refuses before the school login", async () => {
    const host = await inviter();
    const post = async (user: TestUser, link: { code: string; token: string }) => {
      const response = await call(
        promoAction,
        request(`/market/promo-activity?invite=${link.code}&inviter=${link.token}&dialog=register`, {
          method: "POST",
          cookie: await sessionCookieFor(user.id),
          body: new URLSearchParams({ intent: "register", nickname: "小刚", phone: "13700137000", school: "demo", studentId: "20239997", password: "demo1234", captcha: CAPTCHA, invite: link.code, inviter: link.token }),
        }),
      );
      return { status: response.status, errors: ((await response.json()) as { error: Record<string, string[]> }).error[""] };
    };
    expect(await post(host.user, host.link)).toEqual({ status: 409, errors: ["不能助力自己哦！"] });
    expect(await post(await createMessengerUser(), { code: "ZZZZZZZZ", token: "nobody" })).toEqual({ status: 409, errors: [e.inviterMissing] });
    expect(await post(await createMessengerUser(), { code: "", token: "" })).toEqual({ status: 409, errors: ["请输入邀请码"] });
    const old = await createMessengerUser();
    await grantAtStudentLogin(old.id);
    expect(await post(old, host.link)).toEqual({ status: 409, errors: [e.oldUser] });
    expect(await couponNames(host.user.id)).toEqual([]);
  });

  it("20 parallel assists by one user: exactly one goes through, one grant each side", async () => {
    const hosts = await Promise.all(Array.from({ length: 4 }, () => inviter()));
    const invitee = await createMessengerUser();
    const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => registerAndAssist(invitee, profile(hosts[i % hosts.length]!.link, { studentId: "24999999" }))));
    // Every success names the one assist the single grant performed.
    const succeeded = outcomes.filter((outcome) => outcome.ok);
    expect(succeeded.length).toBeGreaterThan(0);
    expect(new Set(succeeded.map((outcome) => (outcome.ok ? outcome.assistId : 0))).size).toBe(1);
    // A loser either finds the assist already made or, once the winner committed, a user who is
    // no longer new: both refusals are right; which one depends on timing.
    for (const outcome of outcomes.filter((item) => !item.ok)) expect(["already", "old_user"]).toContain((outcome as { reason: string }).reason);
    expect(await couponNames(invitee.id)).toHaveLength(5);
    const assists = await db().selectFrom("assists").selectAll().where("assistant_user_id", "=", invitee.id).execute();
    expect(assists).toHaveLength(1);
    const rewarded = await db().selectFrom("user_coupons").select("user_id").where("user_id", "in", hosts.map((host) => host.user.id)).execute();
    expect(rewarded).toHaveLength(2);
  });
});

describe("the express tab's assist dialog (POST /market/assist)", () => {
  it("the market page words the refusal it sent back, and nothing for a name that is no refusal", async () => {
    const host = await inviter();
    const dialogError = async (assistError: string) => {
      const page = (await (await call(marketLoader as never, request(`/market?invite=${host.link.code}&assistError=${assistError}`, { headers: { Accept: "text/html" } }))).json()) as { assist: { error: unknown } | null };
      return page.assist?.error;
    };
    expect(await dialogError("self")).toBe("不能助力自己哦！");
    expect(await dialogError("old_user")).toBe(e.oldUser);
    expect(await dialogError("nonsense")).toBeNull();
    // A name every object answers to is no refusal either.
    expect(await dialogError("constructor")).toBeNull();
  });

  const post = (fields: Record<string, string>, cookie?: string) => call(assistAction, request("/market/assist", { method: "POST", cookie, body: new URLSearchParams(fields) }));

  it("checks the code and the user, keeps the invite pending and opens the register dialog", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    const cookie = await sessionCookieFor(invitee.id);
    const empty = await post({ invite: "" }, cookie);
    expect(empty.headers.get("Location")).toContain("assistError=code_required");
    const unknown = await post({ invite: "ZZZZZZZZ" }, cookie);
    expect(unknown.headers.get("Location")).toBe("/market?invite=ZZZZZZZZ&assistError=inviter_missing");
    const self = await post({ invite: host.link.code, inviter: host.link.token }, await sessionCookieFor(host.user.id));
    expect(self.headers.get("Location")).toContain("assistError=self");

    const ok = await post({ invite: host.link.code.toLowerCase(), inviter: host.link.token }, cookie);
    expect(ok.headers.get("Location")).toBe(`/market/promo-activity?invite=${host.link.code}&inviter=${host.link.token}&dialog=register`);
    const pending = await db().selectFrom("invites").selectAll().where("invitee_user_id", "=", invitee.id).execute();
    expect(pending.map((row) => [row.inviter_user_id, row.status])).toEqual([[host.user.id, "pending"]]);
  });

  it("without a messenger identity it goes through the authorization first", async () => {
    const host = await inviter();
    const response = await post({ invite: host.link.code, inviter: host.link.token });
    expect(response.headers.get("Location")).toMatch(/^\/api\/wechat\/auth\?redirect_url=/);
  });
});

describe("the student login of an invited new user", () => {
  it("performs the pending invite's assist in the same transaction as the grant", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    await recordPendingInvite(host.user.id, invitee.id);
    expect(await grantAtStudentLogin(invitee.id)).toEqual({ granted: 5, assisted: true });
    expect((await couponNames(host.user.id)).sort()).toEqual(["5折券", "8折券"]);
    expect((await inviteRecords(host.user.id)).records.map((record) => record.status)).toEqual(["completed"]);
  });

  it("ignores an invite pending for more than 7 days", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    await recordPendingInvite(host.user.id, invitee.id, new Date(Date.now() - 8 * 86_400_000));
    expect(await grantAtStudentLogin(invitee.id)).toEqual({ granted: 5, assisted: false });
    expect(await couponNames(host.user.id)).toEqual([]);
    expect((await inviteRecords(host.user.id)).records.map((record) => record.status)).toEqual(["expired"]);
  });

  it("opening the link on the promo page records the pending invite (only for a new user, never oneself)", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser();
    const url = `/market/promo-activity?invite=${host.link.code}&inviter=${host.link.token}`;
    const data = (await promoLoader(args(request(url, { cookie: await sessionCookieFor(invitee.id), headers: { Accept: "text/html" } })))) as { dialog: string; invite: { refusal: string | null } };
    expect(data.dialog).toBe("assist");
    expect(data.invite.refusal).toBeNull();
    const own = (await promoLoader(args(request(url, { cookie: await sessionCookieFor(host.user.id), headers: { Accept: "text/html" } })))) as { invite: { refusal: string | null } };
    expect(own.invite.refusal).toBe("不能助力自己哦！");
    const rows = await db().selectFrom("invites").select(["invitee_user_id", "status"]).where("inviter_user_id", "=", host.user.id).execute();
    expect(rows).toEqual([{ invitee_user_id: invitee.id, status: "pending" }]);
  });
});

describe("milestones", () => {
  it("the fifth completed invite adds 1 × 5折, the tenth 2 × 5折, each once", async () => {
    const host = await inviter();
    for (let i = 0; i < 4; i += 1) await assistOnce(host);
    expect(await couponNames(host.user.id)).toHaveLength(8);
    await assistOnce(host);
    const five = await couponNames(host.user.id);
    expect(five).toHaveLength(11);
    expect(five.filter((name) => name === "5折券")).toHaveLength(6);
    for (let i = 0; i < 5; i += 1) await assistOnce(host);
    const ten = await couponNames(host.user.id);
    expect(ten).toHaveLength(10 * 2 + 1 + 2);
    const markers = await db().selectFrom("coupon_grants").select("grant_key").where("user_id", "=", host.user.id).where("grant_key", "like", "milestone:%").orderBy("grant_key").execute();
    expect(markers.map((marker) => marker.grant_key)).toEqual(["milestone:10", "milestone:5"]);
  });

  it("parallel assists crossing 5 give the bonus exactly once", async () => {
    const host = await inviter();
    for (let i = 0; i < 3; i += 1) await assistOnce(host);
    const invitees = await Promise.all(Array.from({ length: 4 }, () => createMessengerUser()));
    const outcomes = await Promise.all(invitees.map((invitee) => registerAndAssist(invitee, profile(host.link))));
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    const markers = await db().selectFrom("coupon_grants").select("grant_key").where("user_id", "=", host.user.id).where("grant_key", "=", "milestone:5").execute();
    expect(markers).toHaveLength(1);
    expect(await couponNames(host.user.id)).toHaveLength(7 * 2 + 1);
  });
});

describe("invite records", () => {
  it("list pending, completed (with the reward) and expired, newest first, with the default nickname", async () => {
    const host = await inviter();
    const done = await createMessengerUser({ wechat_nickname: null, nickname: null, wechat_avatar: "https://thirdwx.qlogo.cn/a.png" });
    const waiting = await createMessengerUser({ wechat_nickname: "等等" });
    const stale = await createMessengerUser({ wechat_nickname: "过期了" });
    await recordPendingInvite(host.user.id, stale.id, new Date(Date.now() - 9 * 86_400_000));
    await recordPendingInvite(host.user.id, waiting.id, new Date(Date.now() - 60_000));
    expect((await registerAndAssist(done, profile(host.link, { nickname: "助力者" }))).ok).toBe(true);
    const list = await inviteRecords(host.user.id);
    expect(list.completed).toBe(1);
    expect(list.records.map((record) => [record.nickname, record.status, record.rewards])).toEqual([
      ["助力者", "completed", [{ name: "5折券", count: 1 }, { name: "8折券", count: 1 }]],
      ["等等", "pending", []],
      ["过期了", "expired", []],
    ]);
    const anonymous = await createMessengerUser({ wechat_nickname: null, nickname: null });
    await recordPendingInvite(host.user.id, anonymous.id);
    expect((await inviteRecords(host.user.id, { limit: 1 })).records[0]!.nickname).toBe("用户");
  });

  it("GET /api/coupon/assist/records/openid/{openid} answers only the inviter's own records", async () => {
    const host = await inviter();
    await assistOnce(host);
    const cookie = await sessionCookieFor(host.user.id);
    const own = await call(recordsLoaderRoute as never, request(`/api/coupon/assist/records/openid/${host.user.openid}`, { cookie }), { openid: host.user.openid! });
    const body = await own.json();
    expect(body).toMatchObject({ success: true, completed_count: 1 });
    expect(body.data[0]).toMatchObject({ status: "completed", assistant_nickname: expect.stringMatching(/^新同学\d+$/), reward_coupon_name: "5折券、8折券" });
    const other = await inviter();
    const refused = await call(recordsLoaderRoute as never, request(`/api/coupon/assist/records/openid/${other.user.openid}`, { cookie }), { openid: other.user.openid! });
    expect(refused.status).toBe(403);
  });
});

describe("personal data", () => {
  it("deletion removes the person's coupons, markers, link and invites; their assist stays with the inviter without them", async () => {
    const host = await inviter();
    const invitee = await createMessengerUser({ wechat_nickname: "要删除的人" });
    expect((await registerAndAssist(invitee, profile(host.link, { nickname: "删我", phone: "13612345678", studentId: "DEL12345" }))).ok).toBe(true);
    await inviteLinkOf(invitee);
    await db().transaction().execute((trx) => deleteUserData(trx, invitee.id));
    for (const table of ["user_coupons", "coupon_grants", "invite_links", "coupon_choices"] as const) {
      expect(await db().selectFrom(table).selectAll().where("user_id", "=", invitee.id).execute()).toEqual([]);
    }
    const list = await inviteRecords(host.user.id);
    expect(list.completed).toBe(1);
    expect(list.records.map((record) => [record.nickname, record.status])).toEqual([["用户", "completed"]]);
    expect(await couponNames(host.user.id)).toHaveLength(2);

    // The inviter's deletion removes what they sent and earned.
    await db().transaction().execute((trx) => deleteUserData(trx, host.user.id));
    expect(await db().selectFrom("invites").selectAll().where("inviter_user_id", "=", host.user.id).execute()).toEqual([]);
    expect(await db().selectFrom("assists").selectAll().where("inviter_user_id", "=", host.user.id).execute()).toEqual([]);
  });

  it("a merge moves coupons, invites and assists to the student's row; one new-user grant per person", async () => {
    const host = await inviter();
    const messengerRow = await createMessengerUser();
    await recordPendingInvite(host.user.id, messengerRow.id);
    expect(await grantAtStudentLogin(messengerRow.id)).toEqual({ granted: 5, assisted: true });
    const student = await createStudent();
    await grantAtStudentLogin(student.id);
    const invited = await createMessengerUser();
    await recordPendingInvite(messengerRow.id, invited.id);
    await db().transaction().execute((trx) => mergeUserRows(messengerRow.id, student.id, trx));

    // Both rows had a new-user grant: the second one's unused coupons went.
    expect(await couponNames(student.id)).toHaveLength(5);
    expect(await db().selectFrom("coupon_grants").select("grant_key").where("user_id", "=", student.id).execute()).toEqual([{ grant_key: "new_user" }]);
    expect((await db().selectFrom("assists").select("assistant_user_id").where("inviter_user_id", "=", host.user.id).executeTakeFirstOrThrow()).assistant_user_id).toBe(student.id);
    expect((await db().selectFrom("invites").select("inviter_user_id").where("invitee_user_id", "=", invited.id).executeTakeFirstOrThrow()).inviter_user_id).toBe(student.id);
    // The messenger identity moved, and its invite link with it.
    const link = await inviteLinkOf((await db().selectFrom("users").selectAll().where("id", "=", student.id).executeTakeFirstOrThrow()));
    expect(link?.code).toBe(messengerRow.openid!.slice(-8).toUpperCase());
  });
});

describe("promotions once per person, not per account row", () => {
  it("a deleted account that logs in again with the same school account gets no second new-user grant", async () => {
    const first = await createStudent({ student_id: "20247001" });
    expect((await grantAtStudentLogin(first.id)).granted).toBe(5);
    await db().transaction().execute((trx) => deleteUserData(trx, first.id));
    const again = await createStudent({ student_id: "20247001" });
    expect(await isNewUser(again.id)).toBe(false);
    expect(await grantAtStudentLogin(again.id)).toEqual({ granted: 0, assisted: false });
    expect(await couponNames(again.id)).toEqual([]);
    // The marks kept are keyed hashes: neither the student id nor the school is in them.
    const marks = await db().selectFrom("promotion_marks").selectAll().execute();
    expect(marks.length).toBeGreaterThan(0);
    expect(JSON.stringify(marks)).not.toContain("20247001");
  });

  it("the same messenger account, re-authorized after deletion, cannot assist the same inviter again", async () => {
    const host = await inviter();
    const helper = await createMessengerUser({ openid: "oFarmLoop000000000000000001" });
    expect((await registerAndAssist(helper, profile(host.link))).ok).toBe(true);
    await db().transaction().execute((trx) => deleteUserData(trx, helper.id));
    const reauthorized = await createMessengerUser({ openid: "oFarmLoop000000000000000001" });
    expect(await isNewUser(reauthorized.id)).toBe(false);
    const outcome = await registerAndAssist(reauthorized, profile(host.link));
    expect(outcome).toMatchObject({ ok: false });
    expect(["already", "old_user"]).toContain((outcome as { reason: string }).reason);
    expect(await couponNames(host.user.id)).toHaveLength(2);
    expect(await db().selectFrom("assists").select("id").where("inviter_user_id", "=", host.user.id).execute()).toHaveLength(1);
  });

  it("a person who assisted under one identity cannot assist again under a new row with their other identity", async () => {
    const host = await inviter();
    const second = await inviter();
    const helper = await createMessengerUser();
    expect((await registerAndAssist(helper, profile(host.link, { studentId: "20247002" }))).ok).toBe(true);
    await db().transaction().execute((trx) => deleteUserData(trx, helper.id));
    // A fresh messenger account, but the same school account proved at registration.
    const fresh = await createMessengerUser();
    const outcome = await registerAndAssist(fresh, profile(second.link, { studentId: "20247002" }));
    expect(outcome.ok).toBe(false);
    expect(await couponNames(second.user.id)).toEqual([]);
    expect(await couponNames(fresh.id)).toEqual([]);
  });
});
