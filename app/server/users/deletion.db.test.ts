import { beforeAll, describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as settingsAction } from "~/routes/backpack.settings";
import { action as scheduleAction, loader as scheduleLoader } from "~/routes/schedule._index/route";
import { action as gradesAction, loader as gradesLoader } from "~/routes/backpack.grades/route";
import { loader as examsLoader } from "~/routes/backpack.exams/route";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { cookieValue, request } from "../../../tests/setup/helpers";
import { inviteLinkOf, recordPendingInvite } from "../coupons/campaign.server";
import { notify } from "../notify/notify.server";
import { createOrderFromCheckout, reviewOrder } from "../orders/orders.server";
import { runAccountDeletionJob } from "./deletion.server";
import { accountKey, accountThrottlePrefix } from "~/server/auth/rate-limit.server";

const STUDENT = { school: "demo", studentId: "20230002", password: "demo1234" };
const OPENID = "oDeleteMe_openid_123456";

beforeAll(() => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  resetConfig();
});

async function login() {
  const data = (await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } };
  const body = new URLSearchParams({ ...STUDENT, captcha: "AB23", captchaId: data.captcha.id });
  const response = (await loginAction({ request: request("/crLogin", { method: "POST", body }), params: {}, context: { clientIp: "198.51.100.7" } })) as Response;
  expect(response.status).toBe(302);
  return cookieValue(response.headers.get("Set-Cookie")!);
}

function settings(cookie: string, fields: Record<string, string>) {
  return settingsAction({ request: request("/backpack/settings", { method: "POST", body: new URLSearchParams(fields), cookie }), params: {}, context: {} }) as Promise<Response>;
}

/** Every value of every row of every table, as text: what "identifying" is checked against. */
async function everything() {
  const tables = await db().introspection.getTables();
  const dump: string[] = [];
  for (const table of tables) {
    if (table.name.startsWith("kysely_")) continue;
    const rows = await db().selectFrom(table.name as never).selectAll().execute();
    dump.push(`${table.name}: ${JSON.stringify(rows)}`);
  }
  return dump.join("\n");
}

describe("account deletion", () => {
  it("asks for the password again, keeps the account on a wrong one", async () => {
    const cookie = await login();
    const refused = await settings(cookie, { intent: "delete", password: "nope" });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain(msg.settings.deletePasswordWrong);
    expect(await db().selectFrom("users").select("id").where("student_id", "=", STUDENT.studentId).executeTakeFirst()).toBeDefined();
  });

  it("after repeated wrong passwords answers 429 with the wait, even for the right one, and keeps the account", async () => {
    const cookie = await login();
    // A client of its own, so the throttle it builds stays out of the other tests.
    const attempt = (password: string) =>
      settingsAction({ request: request("/backpack/settings", { method: "POST", body: new URLSearchParams({ intent: "delete", password }), cookie }), params: {}, context: { clientIp: "203.0.113.44" } }) as Promise<Response>;
    for (let i = 0; i < 4; i++) expect((await attempt(`wrong-${i}`)).status).toBe(400);
    const limited = await attempt("wrong-4");
    expect(limited.status).toBe(429);
    const waitMessage = msg.login.tooManyAttempts.replace("{wait}", "30 秒");
    expect(await limited.json()).toMatchObject({ error: { password: [waitMessage] } });
    const rightButWaiting = await attempt(STUDENT.password);
    expect(rightButWaiting.status).toBe(429);
    expect(await rightButWaiting.json()).toMatchObject({ error: { password: [waitMessage] } });
    expect(await db().selectFrom("users").select("deletion_requested_at").where("student_id", "=", STUDENT.studentId).executeTakeFirstOrThrow()).toEqual({ deletion_requested_at: null });
  });

  it("ends the session at once and the job leaves nothing identifying", async () => {
    const cookie = await login();
    const user = await db().selectFrom("users").selectAll().where("student_id", "=", STUDENT.studentId).executeTakeFirstOrThrow();
    await db().updateTable("users").set({ openid: OPENID, wechat_nickname: "小西瓜abc123", phone: "13812345678", nickname: "删除测试" }).where("id", "=", user.id).execute();
    // The timetable: a cached timetable, the reminder switches and a calendar-feed token.
    await scheduleLoader({ request: request("/schedule", { cookie }), params: {}, context: {} });
    await scheduleAction({ request: request("/schedule?index", { method: "POST", body: new URLSearchParams({ intent: "reminders", courseReminder: "on" }), cookie }), params: {}, context: {} });
    await scheduleAction({ request: request("/schedule?index", { method: "POST", body: new URLSearchParams({ intent: "calendar" }), cookie }), params: {}, context: {} });
    const { calendar_token: calendarToken } = await db().selectFrom("schedule_settings").select("calendar_token").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(await db().selectFrom("timetable_cache").select("term").where("user_id", "=", user.id).execute()).toHaveLength(1);
    // Grades and exams: the sealed grades, the term's exams and the new-grade switch.
    await gradesLoader({ request: request("/backpack/grades", { cookie }), params: {}, context: {} });
    await examsLoader({ request: request("/backpack/exams", { cookie }), params: {}, context: {} });
    await gradesAction({ request: request("/backpack/grades", { method: "POST", body: new URLSearchParams({ intent: "notify", notifyNewGrades: "on" }), cookie }), params: {}, context: {} });
    const { data_enc: sealedGrades } = await db().selectFrom("grades_cache").select("data_enc").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const { data: examsData } = await db().selectFrom("exams_cache").select("data").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(examsData).toContain("文学概论");
    expect(await db().selectFrom("grade_settings").select("notify_new_grades").where("user_id", "=", user.id).executeTakeFirst()).toEqual({ notify_new_grades: 1 });
    // The market: a saved address, the checkout (pasted SMS, parcels, remark) and a feature request.
    const stamp = new Date().toISOString();
    const address = await db()
      .insertInto("addresses")
      .values({ user_id: user.id, name: "收件人甲乙", phone: "13900001111", campus_code: "jinpenling", building: "西苑1栋", room: "520", is_default: 1, created_at: stamp, updated_at: stamp })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db()
      .insertInto("checkouts")
      .values({ user_id: user.id, sms_text: "取件码 9-9-4242", entries: JSON.stringify([{ id: "a", pickupCode: "9-9-4242" }]), remark: "放在门卫甲乙处", address_id: address.id, created_at: stamp, updated_at: stamp })
      .execute();
    await db().insertInto("feature_requests").values({ user_id: user.id, feature_type: "online", user_agent: "UA-删除测试-甲乙", platform: "web", created_at: stamp }).execute();
    // Notifications: an order event (inbox item, the customer's message and a NEW_ORDER with the
    // dorm to an operator), a subscribe consent and a snooze, a course reminder, and a like of
    // theirs in another student's inbox (it names them).
    await db().insertInto("operators").values({ username: "deletion-op", display_name: "值班员", password_hash: "x", role: "admin", openid: "oOperatorKeeps0000000000001", disabled: 0, created_at: stamp, last_login_at: null }).execute();
    await notify({ kind: "order_status", recipientUserId: user.id, data: { status: "paid", orderNumber: "E20260302999001", amountFen: 300, parcelCount: 1, campusName: "瑶湖校区", dorm: "西苑9栋甲乙", room: "909", at: stamp } });
    await db().insertInto("subscribe_consents").values({ user_id: user.id, template_key: "ORDER_STATUS", confirmed_at: stamp, expires_at: stamp, used_at: null, outbox_id: null, reserved: "r-删除测试", updated_at: stamp }).execute();
    await db().insertInto("subscribe_snoozes").values({ user_id: user.id, template_key: "EXPRESS_DELIVERY", until: stamp }).execute();
    await db()
      .insertInto("course_reminders")
      .values({ user_id: user.id, occurrence_key: "k-删除测试", course_name: "古代汉语", place: "逸夫楼甲乙305", time_text: "3月2日 周一 08:10-09:40", starts_at: stamp, ends_at: stamp, remind_at: stamp, state: "scheduled", outbox_id: null, created_at: stamp, updated_at: stamp })
      .execute();
    const neighbour = await db().insertInto("users").values({ nickname: "邻居", created_at: stamp, updated_at: stamp }).returning("id").executeTakeFirstOrThrow();
    await notify({ kind: "post_liked", recipientUserId: neighbour.id, data: { postId: 1, actorUserId: user.id, actorName: "删除测试", excerpt: "邻居的帖子" } });
    // Mutual help: the student's own request with a contact, and 我来帮忙 on the neighbour's request.
    const post = (owner: number, title: string) =>
      db()
        .insertInto("posts")
        .values({ user_id: owner, category_id: 3, title, content: "【互助代签】", status: "ongoing", visibility: "public", is_anonymous: 0, view_count: 0, comment_count: 0, like_count: 0, moderation: "visible", reviewed_at: null, created_at: stamp, updated_at: stamp })
        .returning("id")
        .executeTakeFirstOrThrow();
    const ownRequest = await post(user.id, "线性代数");
    await db().insertInto("mutual_help_requests").values({ post_id: ownRequest.id, user_id: user.id, contact: "wx_shanchu01", created_at: stamp }).execute();
    const neighboursRequest = await post(neighbour.id, "大学物理");
    await db().insertInto("mutual_help_offers").values({ post_id: neighboursRequest.id, helper_user_id: user.id, helper_contact: "wx_bangmang01", created_at: stamp }).execute();
    await notify({ kind: "help_offered", recipientUserId: neighbour.id, data: { postId: neighboursRequest.id, actorUserId: user.id, actorName: "删除测试", course: "大学物理", contact: "wx_bangmang01" } });
    expect(await db().selectFrom("outbox_messages").select("id").where("user_id", "=", user.id).execute()).toHaveLength(2);
    // Coupons and invites: the login granted the new-user coupons; an invite link (its
    // opaque id) and an invite they sent to the neighbour.
    expect(await db().selectFrom("user_coupons").select("id").where("user_id", "=", user.id).execute()).toHaveLength(5);
    const invite = await inviteLinkOf({ id: user.id, openid: OPENID });
    await recordPendingInvite(user.id, neighbour.id);

    // Orders: one made from that checkout (address, pickup code, remark), its payment by this
    // openid, and a review with a comment. The order stays as an anonymised accounting row.
    const orderUser = await db().selectFrom("users").selectAll().where("id", "=", user.id).executeTakeFirstOrThrow();
    const checkout = await db().selectFrom("checkouts").select(["id", "version"]).where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const created = await createOrderFromCheckout(orderUser, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
    if (!created.ok) throw new Error(created.reason);
    const order = await db().selectFrom("orders").selectAll().where("order_number", "=", created.orderNumber).executeTakeFirstOrThrow();
    await db().insertInto("payments").values({ order_id: order.id, provider: "simulated", out_trade_no: order.order_number, amount_fen: order.amount_fen, prepay_id: "wx_sim", prepay_at: stamp, state: "paid", transaction_id: "SIM1", payer_openid: OPENID, success_time: stamp, created_at: stamp, updated_at: stamp }).execute();
    await db().updateTable("orders").set({ status: "completed", payment_status: "paid" }).where("id", "=", order.id).execute();
    expect(await reviewOrder(user.id, order.order_number, { rating: 4, comment: "评价甲乙删除" })).toMatchObject({ ok: true });

    // Login throttles (decision 015): a failed login of the account and a failed deletion check.
    const failedLogin = await loginAction({
      request: request("/crLogin", { method: "POST", body: new URLSearchParams({ ...STUDENT, password: "wrong", captcha: "AB23", captchaId: ((await loginLoader({ request: request("/crLogin"), params: {}, context: {} })) as { captcha: { id: string } }).captcha.id }) }),
      params: {},
      context: { clientIp: "198.51.100.8" },
    });
    expect((failedLogin as Response).status).toBe(401);
    expect((await settings(cookie, { intent: "delete", password: "still-wrong" })).status).toBe(400);
    const throttlesOf = async () =>
      (await db().selectFrom("login_throttles").select("key").execute()).filter(
        ({ key }) => key.startsWith(accountThrottlePrefix("student", accountKey(STUDENT.school, STUDENT.studentId))) || key.startsWith(accountThrottlePrefix("delete", String(user.id))),
      );
    expect((await throttlesOf()).length).toBeGreaterThanOrEqual(2);

    const response = await settings(cookie, { intent: "delete", password: STUDENT.password });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/crLogin?reason=deleted");
    const open = await db().selectFrom("sessions").select("id").where("user_id", "=", user.id).where("ended_at", "is", null).execute();
    expect(open).toHaveLength(0);

    expect(await runAccountDeletionJob()).toBe(1);
    expect(await throttlesOf()).toEqual([]);
    const dump = await everything();
    for (const table of ["user_coupons", "coupon_grants", "invite_links", "invites", "grades_cache", "exams_cache", "grade_settings"] as const) {
      expect(await db().selectFrom(table).selectAll().execute()).toEqual([]);
    }
    for (const identifying of [invite!.token, STUDENT.studentId, user.real_name!, OPENID, "13812345678", "删除测试", "小西瓜abc123", user.password_enc!, calendarToken!, "古代汉语", "收件人甲乙", "13900001111", "9-9-4242", "放在门卫甲乙处", "UA-删除测试-甲乙", "西苑9栋甲乙", "E20260302999001", "r-删除测试", "k-删除测试", "逸夫楼甲乙305", "评价甲乙删除", "wx_shanchu01", "wx_bangmang01", sealedGrades, examsData]) {
      expect(dump).not.toContain(identifying);
    }
    // The order's accounting row: number, amounts and status, nobody's.
    expect(await db().selectFrom("orders").select(["order_number", "user_id", "amount_fen", "status", "recipient_name"]).where("id", "=", order.id).executeTakeFirst()).toEqual({
      order_number: order.order_number,
      user_id: null,
      amount_fen: order.amount_fen,
      status: "completed",
      recipient_name: null,
    });
    // Promotions once per person: the new-user grant stays marked under keyed hashes of
    // the school account and the openid (in the dump above, so they name nobody); logging in
    // again with the same school account grants nothing.
    const marks = await db().selectFrom("promotion_marks").select(["mark"]).execute();
    expect(marks.map((mark) => mark.mark)).toEqual(["new_user", "new_user"]);
    await login();
    const again = await db().selectFrom("users").select("id").where("student_id", "=", STUDENT.studentId).executeTakeFirstOrThrow();
    expect(await db().selectFrom("user_coupons").select("id").where("user_id", "=", again.id).execute()).toEqual([]);
    // The operator keeps their own link; the neighbour keeps their account, not the like's item.
    expect(dump).toContain("oOperatorKeeps0000000000001");
    expect(await db().selectFrom("inbox_items").select("id").where("user_id", "=", neighbour.id).execute()).toHaveLength(0);
  });

  it("lets a deleted student log in afresh before the job has run", async () => {
    const cookie = await login();
    await settings(cookie, { intent: "delete", password: STUDENT.password });
    await login();
    const rows = await db().selectFrom("users").selectAll().where("student_id", "=", STUDENT.studentId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].deletion_requested_at).toBeNull();
  });
});
