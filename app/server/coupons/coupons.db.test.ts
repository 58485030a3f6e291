// Coupons on both dialects: the seeded templates and rules, the new-user grant (once, even under
// 20 parallel requests; at the real student login), the /coupon and /api/coupon calls, the
// quote, and a coupon used by an order: reserved, used when paid, returned when cancelled,
// never shared by two parallel orders.
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PACKAGE_TYPES } from "~/lib/catalog";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { PackageCounts, PricedType } from "~/lib/package-counts";
import { action as calculateAction } from "~/routes/api.coupon.calculate-discount";
import { action as checkNewUserAction } from "~/routes/coupon.express-pickup.check-new-user";
import { action as userCouponsAction } from "~/routes/coupon.express-pickup.user-coupons";
import { action as loginAction, loader as loginLoader } from "~/routes/crLogin";
import { action as choiceAction } from "~/routes/market.coupon-choice";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as pageAction } from "~/routes/market._shell._index/route";
import { action as checkoutAction } from "~/routes/market._shell.checkout/route";
import { loader as couponDialogLoader } from "~/routes/market._shell.checkout.coupon/route";
import { saveAddress } from "~/server/market/addresses.server";
import { cancelOrder } from "~/server/orders/cancel.server";
import { applyPaid } from "~/server/orders/transitions.server";
import { resetConfig } from "~/server/config.server";
import { db } from "~/server/db/db.server";
import { loader as promoLoader } from "~/routes/market.promo-activity/route";
import { call, routeArgs as args, postJson as json, cookieValue, createMessengerUser, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { grantAtStudentLogin, recordPendingInvite } from "./campaign.server";
import { consumeOrderCoupon, orderCouponDiscount, releaseOrderCoupon, reserveOrderCoupon } from "./order-hook.server";
import { NEW_USER_KEY, loadRules, quoteFor, walletOf } from "./wallet.server";

const TYPES: PricedType[] = DEFAULT_PACKAGE_TYPES.map(({ type, name, priceFen }) => ({ type, name, priceFen }));
const c = (pocket: number, small: number, medium: number, large: number): PackageCounts => ({ pocket, small, medium, large });
async function messenger(overrides: Parameters<typeof createMessengerUser>[0] = {}) {
  const user = await createMessengerUser({ campus_code: "jinpenling", ...overrides });
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function couponsOf(userId: number) {
  return db().selectFrom("user_coupons").selectAll().where("user_id", "=", userId).orderBy("id").execute();
}

/** A bare unpaid order row of this user (what insertOrder writes), for the coupon hooks. */
async function orderRow(userId: number, couponId: number | null, number: string) {
  const at = new Date().toISOString();
  return db()
    .insertInto("orders")
    .values({
      order_number: number,
      user_id: userId,
      campus_code: "jinpenling",
      campus_name: "金盆岭校区",
      package_counts: "{}",
      parcel_count: 1,
      original_fen: 120,
      amount_fen: 60,
      coupon_id: couponId,
      status: "created",
      payment_status: "pending",
      refund_state: null,
      refund_reason: null,
      cancel_reason: null,
      estimated_delivery_at: at,
      expires_at: at,
      created_at: at,
      updated_at: at,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
}

beforeAll(() => {
  process.env.CAPTCHA_FIXED_VALUE = "AB23";
  resetConfig();
});

describe("templates and grant rules are data", () => {
  it("the seed follows the promo copy: 2 × 5折 + 3 × 8折; 1 + 1 per assist; 1 × 5折 at 5, 2 × 5折 at 10; 30 days", async () => {
    const rules = await loadRules();
    expect(rules.map((rule) => [rule.event, rule.threshold, rule.template.name, rule.quantity, rule.template.minAmountFen, rule.template.validDays])).toEqual([
      ["new_user", 0, "5折券", 2, 0, 30],
      ["new_user", 0, "8折券", 3, 0, 30],
      ["assist", 0, "5折券", 1, 0, 30],
      ["assist", 0, "8折券", 1, 0, 30],
      ["milestone", 5, "5折券", 1, 0, 30],
      ["milestone", 10, "5折券", 2, 0, 30],
    ]);
  });
});

describe("the new-user grant", () => {
  it("happens exactly once under 20 parallel requests", async () => {
    const { user } = await messenger();
    const results = await Promise.all(Array.from({ length: 20 }, () => grantAtStudentLogin(user.id)));
    expect(results.filter((result) => result.granted > 0)).toHaveLength(1);
    const coupons = await couponsOf(user.id);
    expect(coupons.map((coupon) => coupon.name).sort()).toEqual(["5折券", "5折券", "8折券", "8折券", "8折券"]);
    expect(coupons.every((coupon) => coupon.status === "unused" && coupon.min_amount_fen === 0)).toBe(true);
    const markers = await db().selectFrom("coupon_grants").select("grant_key").where("user_id", "=", user.id).execute();
    expect(markers).toEqual([{ grant_key: NEW_USER_KEY }]);
  });

  it("happens at the first real student-id login, never again", async () => {
    const { user, cookie } = await messenger();
    const loginOnce = async () => {
      const data = (await loginLoader(args(request("/crLogin")))) as { captcha: { id: string } };
      const body = new URLSearchParams({ school: "demo", studentId: "20230003", password: "demo1234", captcha: "AB23", captchaId: data.captcha.id });
      const response = (await loginAction({ ...args(request("/crLogin", { method: "POST", body, cookie })), context: { clientIp: "198.51.100.9" } })) as Response;
      expect(response.status).toBe(302);
      return cookieValue(response.headers.get("Set-Cookie")!);
    };
    const before = await (await call(checkNewUserAction, json("/coupon/express-pickup/check-new-user", { openid: user.openid }, cookie))).json();
    expect(before).toEqual({ success: true, data: { is_new_user: true } });

    const session = await loginOnce();
    expect(await couponsOf(user.id)).toHaveLength(5);
    const after = await (await call(checkNewUserAction, json("/coupon/express-pickup/check-new-user", {}, session))).json();
    expect(after.data.is_new_user).toBe(false);
    await loginOnce();
    expect(await couponsOf(user.id)).toHaveLength(5);
  });

  it("an invited new user's first student-id login also performs the assist of the invite they opened", async () => {
    const inviter = await createMessengerUser({ wechat_nickname: "邀请人" });
    const { user, cookie } = await messenger();
    await recordPendingInvite(inviter.id, user.id);
    const data = (await loginLoader(args(request("/crLogin")))) as { captcha: { id: string } };
    const body = new URLSearchParams({ school: "demo", studentId: "20230001", password: "demo1234", captcha: "AB23", captchaId: data.captcha.id });
    const response = (await loginAction({ ...args(request("/crLogin", { method: "POST", body, cookie })), context: { clientIp: "198.51.100.10" } })) as Response;
    expect(response.status).toBe(302);
    expect(await couponsOf(user.id)).toHaveLength(5);
    expect((await couponsOf(inviter.id)).map((coupon) => coupon.name).sort()).toEqual(["5折券", "8折券"]);
    const assist = await db().selectFrom("assists").select(["inviter_user_id", "assistant_user_id"]).where("assistant_user_id", "=", user.id).executeTakeFirst();
    expect(assist).toEqual({ inviter_user_id: inviter.id, assistant_user_id: user.id });
  });

  it("the promo page says 'claimed, go order' once granted, also to a student without the messenger identity", async () => {
    const student = await createStudent();
    const cookie = await sessionCookieFor(student.id);
    const before = (await promoLoader(args(request("/market/promo-activity", { cookie, headers: { Accept: "text/html" } })))) as { granted: boolean; loggedIn: boolean; records: unknown };
    expect([before.granted, before.loggedIn, before.records]).toEqual([false, false, null]);
    await grantAtStudentLogin(student.id);
    const after = (await promoLoader(args(request("/market/promo-activity", { cookie, headers: { Accept: "text/html" } })))) as { granted: boolean };
    expect(after.granted).toBe(true);
  });

    it("check-new-user answers only for the signed-in messenger identity", async () => {
    const { cookie } = await messenger();
    expect((await call(checkNewUserAction, json("/coupon/express-pickup/check-new-user", {}))).status).toBe(401);
    expect((await call(checkNewUserAction, json("/coupon/express-pickup/check-new-user", { openid: "someone-else" }, cookie))).status).toBe(403);
  });
});

describe("the coupon summary (POST /coupon/express-pickup/user-coupons)", () => {
  it("groups available coupons per template, flags those expiring within 3 days, counts used and expired", async () => {
    const { user, cookie } = await messenger();
    await grantAtStudentLogin(user.id);
    const [first, second, third] = await couponsOf(user.id);
    const soon = new Date(Date.now() + 2 * 86_400_000).toISOString();
    await db().updateTable("user_coupons").set({ expires_at: soon }).where("id", "=", first!.id).execute();
    await db().updateTable("user_coupons").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", second!.id).execute();
    await db().updateTable("user_coupons").set({ status: "used" }).where("id", "=", third!.id).execute();

    const body = await (await call(userCouponsAction, json("/coupon/express-pickup/user-coupons", { openid: user.openid }, cookie))).json();
    expect(body.success).toBe(true);
    expect(body.data.coupons).toHaveLength(5);
    expect(body.data.coupons[0]).toMatchObject({ name: "5折券", type: "percentage", discount_value: 0.5, min_amount: 0, status: "unused" });
    expect(body.data.coupon_summary.map((group: Record<string, unknown>) => [group.coupon_name, group.available_count, group.expiring_soon])).toEqual([
      ["5折券", 1, true],
      ["8折券", 2, false],
    ]);
    expect(body.data.total_stats).toEqual({ available: 3, reserved: 0, used: 1, expired: 1, expiring_soon: 1 });
  });

  it("says '暂无可用优惠券' when there is none", async () => {
    const { cookie } = await messenger();
    const body = await (await call(userCouponsAction, json("/coupon/express-pickup/user-coupons", {}, cookie))).json();
    expect(body).toMatchObject({ success: true, message: couponMessages.row.none, data: { coupons: [], coupon_summary: [] } });
  });
});

describe("POST /api/coupon/calculate-discount", () => {
  it("'请先完成微信登录' without a messenger identity", async () => {
    const response = await call(calculateAction, json("/api/coupon/calculate-discount", { package_counts: { pocket: 1 } }));
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, message: "请先完成微信登录" });
  });

  it("answers the product rules' result: 5折 on one parcel of the most expensive type, in yuan and fen", async () => {
    const { user, cookie } = await messenger();
    await grantAtStudentLogin(user.id);
    const body = await (await call(calculateAction, json("/api/coupon/calculate-discount", { openid: user.openid, package_counts: { pocket: 2, large: 1 } }, cookie))).json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      original_total: 6.4,
      total_discount: 2,
      final_total: 4.4,
      final_total_fen: 440,
      used_coupons_count: 1,
      coupon_usage: [{ coupon_name: "5折券", applied_to: "大件", original_price: 4, discount_amount: 2, final_price: 2 }],
    });
    expect(body.data.express_items).toHaveLength(3);

    const none = await (await call(calculateAction, json("/api/coupon/calculate-discount", { package_counts: { pocket: 1 }, coupon_id: "none" }, cookie))).json();
    expect(none.data).toMatchObject({ total_discount: 0, final_total: 1.2, used_coupons_count: 0 });
  });

  it("'暂无可用优惠券' and no discount without coupons; another user's openid is refused", async () => {
    const { cookie } = await messenger();
    const body = await (await call(calculateAction, json("/api/coupon/calculate-discount", { package_counts: { small: 1 } }, cookie))).json();
    expect(body).toMatchObject({ success: true, message: "暂无可用优惠券", data: { original_total: 2, total_discount: 0, final_total: 2 } });
    expect((await call(calculateAction, json("/api/coupon/calculate-discount", { openid: "not-mine", package_counts: {} }, cookie))).status).toBe(403);
  });

  it("follows the choice made in the coupon dialog", async () => {
    const { user, cookie } = await messenger();
    await grantAtStudentLogin(user.id);
    const eighty = (await couponsOf(user.id)).find((coupon) => coupon.name === "8折券")!;
    const form = (choice: string) => request("/market/coupon-choice", { method: "POST", cookie, body: new URLSearchParams({ choice }) });
    expect((await call(choiceAction, form(String(eighty.id)))).headers.get("Location")).toBe("/market/checkout");
    const chosen = await (await call(calculateAction, json("/api/coupon/calculate-discount", { package_counts: { pocket: 1 } }, cookie))).json();
    expect(chosen.data.coupon_usage[0]).toMatchObject({ coupon_id: eighty.id, discount_amount: 0.24 });
    await call(choiceAction, form("none"));
    expect((await quoteFor(user.id, c(1, 0, 0, 0), TYPES)).coupon).toBeNull();
    await call(choiceAction, form("best"));
    expect((await quoteFor(user.id, c(1, 0, 0, 0), TYPES)).coupon?.name).toBe("5折券");
  });
});

describe("a coupon and its order", () => {
  it("is reserved by the unpaid order, used when paid, and the sheet's choice is forgotten", async () => {
    const { user } = await messenger();
    await grantAtStudentLogin(user.id);
    const discount = await db().transaction().execute((trx) => orderCouponDiscount(trx, { userId: user.id, counts: c(1, 0, 0, 0), types: TYPES }));
    expect(discount.discountFen).toBe(60);
    const order = await orderRow(user.id, discount.couponId, "E20260310000001");
    await reserveOrderCoupon(db(), { id: order.id, couponId: discount.couponId, userId: user.id });
    const reserved = await db().selectFrom("user_coupons").selectAll().where("id", "=", discount.couponId!).executeTakeFirstOrThrow();
    expect([reserved.status, reserved.order_id]).toEqual(["reserved", order.id]);
    // A reserved coupon is not offered again.
    expect((await quoteFor(user.id, c(1, 0, 0, 0), TYPES)).coupon?.id).not.toBe(discount.couponId);

    await db().insertInto("coupon_choices").values({ user_id: user.id, coupon_id: null, updated_at: new Date().toISOString() }).execute();
    await consumeOrderCoupon(db(), { id: order.id, couponId: discount.couponId });
    const used = await db().selectFrom("user_coupons").selectAll().where("id", "=", discount.couponId!).executeTakeFirstOrThrow();
    expect(used.status).toBe("used");
    expect(used.used_at).not.toBeNull();
    expect(await db().selectFrom("coupon_choices").selectAll().where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("comes back when the order is cancelled or refunded, unless it expired meanwhile", async () => {
    const { user } = await messenger();
    await grantAtStudentLogin(user.id);
    const [a, b] = await couponsOf(user.id);
    const first = await orderRow(user.id, a!.id, "E20260310000002");
    await reserveOrderCoupon(db(), { id: first.id, couponId: a!.id, userId: user.id });
    await releaseOrderCoupon(db(), { id: first.id, couponId: a!.id });
    expect(await db().selectFrom("user_coupons").select(["status", "order_id"]).where("id", "=", a!.id).executeTakeFirst()).toEqual({ status: "unused", order_id: null });

    // Paid then refunded: back too.
    const second = await orderRow(user.id, a!.id, "E20260310000003");
    await reserveOrderCoupon(db(), { id: second.id, couponId: a!.id, userId: user.id });
    await consumeOrderCoupon(db(), { id: second.id, couponId: a!.id });
    await releaseOrderCoupon(db(), { id: second.id, couponId: a!.id });
    expect(await db().selectFrom("user_coupons").select(["status", "used_at"]).where("id", "=", a!.id).executeTakeFirst()).toEqual({ status: "unused", used_at: null });

    // Expired while reserved: it stays spent.
    const third = await orderRow(user.id, b!.id, "E20260310000004");
    await reserveOrderCoupon(db(), { id: third.id, couponId: b!.id, userId: user.id });
    await db().updateTable("user_coupons").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", b!.id).execute();
    await releaseOrderCoupon(db(), { id: third.id, couponId: b!.id });
    expect((await db().selectFrom("user_coupons").select("status").where("id", "=", b!.id).executeTakeFirstOrThrow()).status).toBe("reserved");
    expect((await quoteFor(user.id, c(1, 0, 0, 0), TYPES, { choice: b!.id })).coupon?.id).not.toBe(b!.id);
  });

  it("an expired coupon never applies and cannot be reserved", async () => {
    const { user } = await messenger();
    await grantAtStudentLogin(user.id);
    await db().updateTable("user_coupons").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("user_id", "=", user.id).execute();
    const discount = await orderCouponDiscount(db(), { userId: user.id, counts: c(0, 0, 0, 2), types: TYPES });
    expect(discount).toEqual({ discountFen: 0, couponId: null });
    const [expired] = await couponsOf(user.id);
    const order = await orderRow(user.id, expired!.id, "E20260310000005");
    await expect(reserveOrderCoupon(db(), { id: order.id, couponId: expired!.id, userId: user.id })).rejects.toThrow(/no longer available/);
  });

  it("with one coupon, of two parallel orders exactly one gets it", async () => {
    const { user } = await messenger();
    await grantAtStudentLogin(user.id);
    const [keep] = await couponsOf(user.id);
    await db().deleteFrom("user_coupons").where("user_id", "=", user.id).where("id", "!=", keep!.id).execute();

    const place = (number: string) =>
      db()
        .transaction()
        .execute(async (trx) => {
          const discount = await orderCouponDiscount(trx, { userId: user.id, counts: c(1, 0, 0, 0), types: TYPES });
          const row = await trx
            .insertInto("orders")
            .values({
              order_number: number,
              user_id: user.id,
              campus_code: "jinpenling",
              campus_name: "金盆岭校区",
              package_counts: "{}",
              parcel_count: 1,
              original_fen: 120,
              amount_fen: 120 - discount.discountFen,
              discount_fen: discount.discountFen,
              coupon_id: discount.couponId,
              status: "created",
              payment_status: "pending",
              estimated_delivery_at: new Date().toISOString(),
              expires_at: new Date().toISOString(),
              created_at: new Date().toISOString(),
              updated_at: new Date().toISOString(),
            } as never)
            .returning(["id", "coupon_id"])
            .executeTakeFirstOrThrow();
          await reserveOrderCoupon(trx, { id: row.id, couponId: row.coupon_id, userId: user.id });
          return row;
        })
        .then(
          (row) => ({ ok: true as const, couponId: row.coupon_id }),
          (error: Error) => ({ ok: false as const, error: error.message }),
        );
    const results = await Promise.all([place("E20260310000011"), place("E20260310000012")]);
    const withCoupon = results.filter((result) => result.ok && result.couponId === keep!.id);
    expect(withCoupon).toHaveLength(1);
    // The other order was made without it (or, at worst, refused): never two orders on one coupon.
    const orders = await db().selectFrom("orders").select(["coupon_id", "discount_fen"]).where("user_id", "=", user.id).execute();
    expect(orders.filter((order) => order.coupon_id === keep!.id)).toHaveLength(1);
    const coupon = await db().selectFrom("user_coupons").select(["status", "order_id"]).where("id", "=", keep!.id).executeTakeFirstOrThrow();
    expect(coupon.status).toBe("reserved");
    expect((await walletOf(user.id)).filter((item) => item.status === "unused")).toHaveLength(0);
  });
});

describe("on the market sheet and at order creation", () => {
  const SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";
  const form = (fields: Record<string, string>, cookie: string, path = "/market?index") =>
    request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { Accept: "text/html" } });
  const page = async (cookie: string, path = "/market/checkout") => (await call(marketLoader, request(path, { cookie, headers: { Accept: "text/html" } }))).json();

  it("the sheet shows the best coupon, the order is created with it and pays the discounted amount", async () => {
    const { user, cookie } = await messenger();
    await grantAtStudentLogin(user.id);
    await call(pageAction, form({ intent: "recognize", text: SMS }, cookie));
    await call(checkoutAction, form({ intent: "count", type: "large", direction: "increase" }, cookie, "/market/checkout"));
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });

    const sheet = await page(cookie);
    expect(sheet.summary).toEqual({ parcels: 2, originalFen: 520, paidFen: 320, priceVersion: expect.any(String) });
    expect(sheet.coupon).toEqual({ href: "/market/checkout/coupon", text: "5折券 -¥2.00", discounted: true });
    // The promo card is on the express tab, rendered from the rules.
    expect(sheet.promo.priceFrom).toContain("取件低至0.6元");
    expect(sheet.promo.tickets.map((ticket: { label: string }) => ticket.label)).toContain("5折");
    // The coupon detail dialog (its own route): totals, the usage, one row per parcel, the choice.
    const detail = await (await call(couponDialogLoader, request("/market/checkout/coupon", { cookie, headers: { Accept: "text/html" } }))).json();
    expect(detail.panel.title).toBe("优惠券明细");
    for (const text of ["¥5.20", "-¥2.00", "¥3.20", "用于1件大件", "不使用优惠券"]) expect(JSON.stringify(detail.panel)).toContain(text);

    const paid = await call(checkoutAction, form({ intent: "pay", checkoutId: String(sheet.checkout.id), version: String(sheet.checkout.version) }, cookie, "/market/checkout"));
    expect(paid.status).toBe(302);
    const number = /\/market\/pay\/(E\d+)/.exec(paid.headers.get("Location")!)![1]!;
    const order = await db().selectFrom("orders").selectAll().where("order_number", "=", number).executeTakeFirstOrThrow();
    expect([order.original_fen, order.discount_fen, order.amount_fen]).toEqual([520, 200, 320]);
    const coupon = await db().selectFrom("user_coupons").selectAll().where("id", "=", order.coupon_id!).executeTakeFirstOrThrow();
    expect([coupon.name, coupon.status, coupon.order_id]).toEqual(["5折券", "reserved", order.id]);

    await db().transaction().execute((trx) => applyPaid(trx, order.id, { actor: "provider", at: new Date().toISOString() }));
    expect((await db().selectFrom("user_coupons").select("status").where("id", "=", coupon.id).executeTakeFirstOrThrow()).status).toBe("used");
  });

  it("a cancelled unpaid order gives its coupon back", async () => {
    const { user, cookie } = await messenger();
    await grantAtStudentLogin(user.id);
    await call(pageAction, form({ intent: "recognize", text: SMS }, cookie));
    await saveAddress(user.id, { name: "李四", phone: "13800138001", campus: "jinpenling", building: "西苑3栋", room: "303", isDefault: true });
    const sheet = await page(cookie);
    const paid = await call(checkoutAction, form({ intent: "pay", checkoutId: String(sheet.checkout.id), version: String(sheet.checkout.version) }, cookie, "/market/checkout"));
    const number = /\/market\/pay\/(E\d+)/.exec(paid.headers.get("Location")!)![1]!;
    const order = await db().selectFrom("orders").selectAll().where("order_number", "=", number).executeTakeFirstOrThrow();
    expect(order.amount_fen).toBe(180);
    expect((await cancelOrder(user.id, number, "")).ok).toBe(true);
    expect(await db().selectFrom("user_coupons").select(["status", "order_id"]).where("id", "=", order.coupon_id!).executeTakeFirst()).toEqual({ status: "unused", order_id: null });
  });
});
