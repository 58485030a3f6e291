// The market's endpoints and the page's checkout actions on both dialects: the product rules' JSON
// shapes, the messenger identity they need, the checkout kept per user with its version, the
// package-count steps, the pay placeholder, merges and account deletion.
import { describe, expect, it } from "vitest";
import { loader as activateLoader } from "~/routes/api.express.activate";
import { loader as scheduleLoader } from "~/routes/api.express.delivery-schedule";
import { action as initInfoAction } from "~/routes/api.express.init_info";
import { action as featureAction } from "~/routes/api.feature-request";
import { action as recognizeImageAction } from "~/routes/errands.pickup-code.recognize-image";
import { action as recognizeTextAction } from "~/routes/errands.pickup-code.recognize-text";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as pageAction } from "~/routes/market._shell._index/route";
import { action as addressPickerAction } from "~/routes/market._shell.address._index/route";
import { action as checkoutAction, loader as checkoutLoader } from "~/routes/market._shell.checkout/route";
import { action as payAction } from "~/routes/market.pay.$orderId/route";
import { action as parcelAction, loader as parcelLoader } from "~/routes/market._shell.parcel.$id/route";
import { action as campusAction } from "~/routes/market.campus";
import { loader as backpackLoader } from "~/routes/backpack._index";
import { resetConfig } from "~/server/config.server";
import { db, now } from "~/server/db/db.server";
import { deleteUserData } from "~/server/users/deletion.server";
import { call, createMessengerUser, createStudent, request, sessionCookieFor, solvedProof } from "../../../tests/setup/helpers";
import { saveAddress } from "./addresses.server";
import { moveMarketData } from "./merge.server";

const TWO_SMS = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。\n\n【丰巢】请凭取件码『62093517』至梨园9栋丰巢柜取申通快递的包裹。";

function json(path: string, body: unknown, cookie?: string) {
  return request(path, { method: "POST", cookie, body: JSON.stringify(body), headers: { "Content-Type": "application/json", Accept: "application/json" } });
}

function form(fields: Record<string, string>, cookie: string, path = "/market?index") {
  return request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" } });
}

async function messenger(campus = "jinpenling") {
  const user = await createMessengerUser({ campus_code: campus });
  return { user, cookie: await sessionCookieFor(user.id) };
}

async function page(cookie: string, path = "/market") {
  const response = await call(marketLoader, request(path, { cookie, headers: { Accept: "text/html" } }));
  return response.json();
}

describe("campus list, service config and schedule (JSON)", () => {
  it("GET /api/express/activate lists campuses with their status", async () => {
    const body = await (await call(activateLoader as never, request("/api/express/activate"))).json();
    expect(body.success).toBe(true);
    expect(body.data.campus_list.map((c: { code: string; status: string }) => [c.code, c.status])).toEqual([
      ["jinpenling", "activate"],
      ["yuntang", "activate"],
      ["tianxin", "preparing"],
    ]);
  });

  it("POST /api/express/init_info gives package types with the size guide, dorms and name", async () => {
    const body = await (await call(initInfoAction, json("/api/express/init_info", { campus_code: "yuntang" }))).json();
    expect(body.success).toBe(true);
    expect(body.data.value).toBe("云塘校区");
    expect(body.data.dorm_list).toEqual(["1栋", "2栋", "3栋", "4栋", "5栋", "6栋"]);
    expect(body.data.pickup_places).toHaveLength(4);
    expect(body.data.package_types.pocket).toMatchObject({ name: "口袋件", price: 1.2, price_fen: 120 });
    expect(body.data.package_types.large.standards[0].examples.length).toBeGreaterThan(0);
  });

  it("answers the product rules' messages for a campus without the service or with a broken config", async () => {
    const closed = await (await call(initInfoAction, json("/api/express/init_info", { campus_code: "tianxin" }))).json();
    expect(closed).toMatchObject({ success: false, message: "该校区暂未开通快递代拿服务", reset: true });
    await db().insertInto("campuses").values({ code: "broken", name: "坏校区", status: "activate", sort_order: 9 }).execute();
    await db().insertInto("package_types").values({ campus_code: "broken", type: "pocket", name: "口袋件", description: "", price_fen: 0, sort_order: 0 }).execute();
    const broken = await (await call(initInfoAction, json("/api/express/init_info", { campus_code: "broken" }))).json();
    expect(broken).toMatchObject({ success: false, message: "该校区服务配置异常，请重新选择校区" });
    await db().insertInto("campuses").values({ code: "bare", name: "无服务校区", status: "activate", sort_order: 10 }).execute();
    const bare = await (await call(initInfoAction, json("/api/express/init_info", { campus_code: "bare" }))).json();
    expect(bare.message).toBe("该校区暂未开通快递代拿服务");
  });

  it("a chosen campus whose service is gone is reset and the selector reopens with the reason", async () => {
    await db().insertInto("campuses").values({ code: "noexpress", name: "新校区", status: "activate", sort_order: 11 }).execute();
    const { user, cookie } = await messenger("noexpress");
    const response = await call(marketLoader, request("/market", { cookie, headers: { Accept: "text/html" } }));
    const data = await response.json();
    expect(data.selector).toMatchObject({ open: true, error: "该校区暂未开通快递代拿服务" });
    expect(response.headers.get("Set-Cookie")).toMatch(/^campus=;/);
    const row = await db().selectFrom("users").select("campus_code").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.campus_code).toBeNull();
  });

  it("a refused campus choice removes the stored one and reopens the selector", async () => {
    const { user, cookie } = await messenger("jinpenling");
    const response = await call(campusAction, form({ campus: "tianxin", redirectTo: "/market" }, cookie, "/market/campus"));
    expect(response.headers.get("Location")).toBe("/market?selectCampus=1&campusError=inactive");
    expect(response.headers.get("Set-Cookie")).toMatch(/^campus=;/);
    const row = await db().selectFrom("users").select("campus_code").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.campus_code).toBeNull();
    const data = await page(cookie, "/market?selectCampus=1&campusError=inactive");
    expect(data.selector).toMatchObject({ open: true, current: null, error: "该校区暂未开通快递代拿服务" });
  });

  it("the backpack's switch-campus selector words a refused choice as the market does, and ignores an unknown one", async () => {
    const cookie = await sessionCookieFor((await createStudent({ campus_code: "jinpenling" })).id);
    const backpack = (path: string) => backpackLoader({ request: request(path, { cookie }), params: {}, context: {} });
    expect((await backpack("/backpack?selectCampus=1&campusError=unknown")).selector).toMatchObject({ asked: true, error: "该校区不存在，请重新选择" });
    expect((await backpack("/backpack?selectCampus=1&campusError=forged")).selector).toMatchObject({ asked: true, error: null });
  });

  it("GET /api/express/delivery-schedule gives the slots as a JSON string", async () => {
    const body = await (await call(scheduleLoader as never, request("/api/express/delivery-schedule"))).json();
    expect(JSON.parse(body.data.delivery_schedule)).toEqual([
      { order_start_time: "08:00", order_end_time: "11:45", delivery_start_time: "11:45", delivery_end_time: "13:50", estimated_time: "13:30" },
      { order_start_time: "11:45", order_end_time: "17:30", delivery_start_time: "17:30", delivery_end_time: "19:30", estimated_time: "19:30" },
    ]);
  });
});

describe("recognition endpoints (JSON)", () => {
  it("needs the messenger identity", async () => {
    const student = await createStudent();
    for (const cookie of [undefined, await sessionCookieFor(student.id)]) {
      const response = await call(recognizeTextAction, json("/errands/pickup-code/recognize-text", { text_data: TWO_SMS }, cookie));
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ success: false, message: "请先进行微信授权" });
    }
  });

  it("recognises text_data (and the older text) into the product rules' entries", async () => {
    const { cookie } = await messenger();
    for (const key of ["text_data", "text"]) {
      const body = await (await call(recognizeTextAction, json("/errands/pickup-code/recognize-text", { [key]: TWO_SMS }, cookie))).json();
      expect(body.success).toBe(true);
      expect(body.data).toEqual([
        { company: "菜鸟驿站", trackingNumber: null, pickupCode: "5-5-1201", stationName: "梨园菜鸟驿站", pickupType: "code", check: null },
        { company: "申通快递", trackingNumber: null, pickupCode: "62093517", stationName: "梨园9栋丰巢柜", pickupType: "code", check: null },
      ]);
    }
    const defaults = await (await call(recognizeTextAction, json("/errands/pickup-code/recognize-text", { text_data: "您的快递取件码 3-1-2001，请及时取件" }, cookie))).json();
    expect(defaults.data).toEqual([{ company: "未知快递", trackingNumber: null, pickupCode: "3-1-2001", stationName: "菜鸟驿站取件点", pickupType: "code", check: null }]);
  });

  it("answers the product rules' message for an empty text and for a text without a code", async () => {
    const { cookie } = await messenger();
    const empty = await call(recognizeTextAction, json("/errands/pickup-code/recognize-text", { text_data: "  " }, cookie));
    expect(empty.status).toBe(400);
    expect((await empty.json()).message).toBe("请先输入取件短信内容再进行识别");
    const none = await (await call(recognizeTextAction, json("/errands/pickup-code/recognize-text", { text_data: "【建设银行】您的验证码为 735104" }, cookie))).json();
    expect(none).toMatchObject({ success: true, data: [], message: "智能识别未识别出取件码，请手动填写" });
  });

  it("refuses a non-image or an oversized image before any OCR", async () => {
    const { cookie } = await messenger();
    const text = await call(recognizeImageAction, json("/errands/pickup-code/recognize-image", { base64_data: Buffer.from("hello, not an image").toString("base64") }, cookie));
    expect(text.status).toBe(415);
    expect((await text.json()).message).toBe("请选择图片文件");
    const big = Buffer.alloc(8 * 1024 * 1024 + 10);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const huge = await call(recognizeImageAction, json("/errands/pickup-code/recognize-image", { base64_data: `data:image/png;base64,${big.toString("base64")}` }, cookie));
    expect(huge.status).toBe(413);
    expect((await huge.json()).message).toBe("图片大小不能超过8MB");
    const none = await call(recognizeImageAction, json("/errands/pickup-code/recognize-image", {}, cookie));
    expect(none.status).toBe(400);
  });

  it("stores a feature request for a user or a visitor", async () => {
    const { user, cookie } = await messenger();
    const ok = await (await call(featureAction, json("/api/feature-request", { featureType: "online", userId: 999, platform: "iPhone", altcha: await solvedProof() }, cookie))).json();
    expect(ok).toEqual({ success: true, message: "感谢您的反馈！我们会尽快开发这个功能" });
    await call(featureAction, json("/api/feature-request", { featureType: "errand", altcha: await solvedProof() }));
    const bad = await call(featureAction, json("/api/feature-request", { featureType: "nope" }));
    expect((await bad.json()).message).toBe("提交失败，请稍后再试");
    const rows = await db().selectFrom("feature_requests").select(["user_id", "feature_type", "platform"]).orderBy("id").execute();
    expect(rows).toEqual([
      { user_id: user.id, feature_type: "online", platform: "iPhone" },
      { user_id: null, feature_type: "errand", platform: null },
    ]);
  });
});

describe("the checkout on /market (per user, on the server)", () => {
  it("recognises into the checkout, keeps it across loads, and raises the version on every change", async () => {
    const { cookie } = await messenger();
    const answer = await (await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie))).json();
    expect(answer).toMatchObject({ intent: "recognize", notice: "识别到 2 个快递" });
    const first = await page(cookie);
    expect(first.checkout.smsText).toBe(TWO_SMS);
    expect(first.checkout.entries.map((e: { pickupCode: string }) => e.pickupCode)).toEqual(["5-5-1201", "62093517"]);
    expect(first.checkout.counts).toEqual({ pocket: 2, small: 0, medium: 0, large: 0 });
    expect(first.summary).toEqual({ parcels: 2, originalFen: 240, paidFen: 240, priceVersion: expect.any(String) });

    // The same text again: no new parcels; the version still moves (the text was saved).
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const again = await page(cookie);
    expect(again.checkout.entries).toHaveLength(2);
    expect(again.checkout.version).toBeGreaterThan(first.checkout.version);
    expect(again.checkout.key).toBe(`${again.checkout.id}:${again.checkout.version}`);
  });

  it("clears the text's parcels on an empty automatic recognition and complains on the button", async () => {
    const { cookie } = await messenger();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const button = await (await call(pageAction, form({ intent: "recognize", text: "" }, cookie))).json();
    expect(button.error).toBe("请先输入取件短信内容再进行识别");
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const auto = await (await call(pageAction, form({ intent: "recognize", text: "", auto: "1" }, cookie))).json();
    expect(auto.error).toBeUndefined();
    expect((await page(cookie)).checkout.entries).toEqual([]);
  });

  it("answers the no-code message with the manual hint, and the duplicate messages", async () => {
    const { cookie } = await messenger();
    const none = await (await call(pageAction, form({ intent: "recognize", text: "你好" }, cookie))).json();
    expect(none).toMatchObject({ error: "智能识别未识别出取件码，请手动填写", manualHint: true });

    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const images = JSON.stringify([{ pickup_code: "5-5-1201", company: "菜鸟驿站", station_name: "梨园菜鸟驿站" }]);
    const dup = await (await call(pageAction, form({ intent: "add-entries", entries: images }, cookie))).json();
    expect(dup.error).toBe("该快递信息已存在，请勿重复添加");

    const manual = form({ intent: "save-entry", credential: "62093517", company: "申通快递", station: "梨园9栋丰巢柜" }, cookie, "/market/parcel/new");
    const same = await call(parcelAction, manual);
    expect(same.status).toBe(400);
    expect((await same.json()).result.error[""]).toEqual(["该取件码信息已存在，请勿重复添加"]);

    const rule = await call(parcelAction, form({ intent: "save-entry", credential: "" }, cookie, "/market/parcel/new"));
    expect((await rule.json()).result.error[""]).toEqual(["保存条件：（快递单号+取件地址）或（取件码+快递公司）或（取件地址+取件凭证）"]);
  });

  it("adds, edits and deletes parcels by hand", async () => {
    const { cookie } = await messenger();
    const added = await call(parcelAction, form({ intent: "save-entry", credential: "7-7-7777", station: "京东快递站（北门）" }, cookie, "/market/parcel/new"));
    expect(added.status).toBe(302);
    let data = await page(cookie);
    expect(data.checkout.entries).toEqual([
      expect.objectContaining({ pickupCode: "7-7-7777", company: "未知快递", stationName: "京东快递站（北门）", source: "manual" }),
    ]);
    const id = data.checkout.entries[0].id;
    await call(parcelAction, form({ intent: "save-entry", entryId: id, credential: "SF1109876543210", station: "西苑丰巢快递柜（西苑3栋楼下）", company: "顺丰" }, cookie, "/market/parcel/new"));
    data = await page(cookie);
    expect(data.checkout.entries[0]).toMatchObject({ pickupCode: "SF1109876543210", company: "顺丰" });
    const edit = await (await call((a) => parcelLoader({ ...a, params: { id } }), request(`/market/parcel/${id}`, { cookie }))).json();
    expect(edit.entry.id).toBe(id);
    expect(data.config.pickupPlaces).toHaveLength(4);
    const missing = await call((a) => parcelLoader({ ...a, params: { id: "nope" } }), request("/market/parcel/nope", { cookie }));
    expect(missing.headers.get("Location")).toBe("/market");
    await call(pageAction, form({ intent: "delete-entry", entryId: id }, cookie));
    expect((await page(cookie)).checkout.entries).toEqual([]);
  });

  it("steps the package counts by the product rules' rules and keeps them", async () => {
    const { cookie } = await messenger();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const step = (type: string, direction: string) => call(checkoutAction, form({ intent: "count", type, direction }, cookie, "/market/checkout")).then((r) => r.json());
    expect(await step("large", "increase")).toEqual({ intent: "count" });
    expect((await page(cookie)).checkout.counts).toEqual({ pocket: 1, small: 0, medium: 0, large: 1 });
    expect(await step("medium", "decrease")).toMatchObject({ error: "中件数量已为0" });
    await step("large", "increase");
    expect(await step("large", "increase")).toMatchObject({ error: "包裹数量不能超过快递数量（2 件）" });
    const data = await page(cookie);
    expect(data.checkout.counts).toEqual({ pocket: 0, small: 0, medium: 0, large: 2 });
    expect(data.summary).toEqual({ parcels: 2, originalFen: 800, paidFen: 800, priceVersion: expect.any(String) });
  });

  it("opens the sheet only with parcels, and pays only with an address and a current version", async () => {
    const { user, cookie } = await messenger();
    const empty = await (await call(checkoutAction, form({ intent: "open-checkout" }, cookie, "/market/checkout"))).json();
    expect(empty.error).toBe("请先识别快递信息");
    const closed = await call(checkoutLoader, request("/market/checkout", { cookie }));
    expect(closed.headers.get("Location")).toBe("/market?sheetError=empty");
    expect((await page(cookie, "/market?sheetError=empty")).sheetError).toBe("请先识别快递信息");

    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const open = await call(checkoutAction, form({ intent: "open-checkout" }, cookie, "/market/checkout"));
    expect(open.headers.get("Location")).toBe("/market/checkout");
    let data = await page(cookie, "/market/checkout");
    const pay = () => call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version) }, cookie, "/market/checkout"));
    expect((await (await pay()).json()).error).toBe("请先选择收货地址");

    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑1栋", room: "302", isDefault: false });
    data = await page(cookie, "/market/checkout");
    expect(data.selectedAddressId).not.toBeNull();
    // The order is created and paid on its pay page (the orders issue).
    const made = (await pay()).headers.get("Location");
    expect(made).toMatch(/^\/market\/pay\/E\d{14}\?start=1$/);
    // The same version again answers the order it made; its parcels have left the list.
    expect((await pay()).headers.get("Location")).toBe(made);
    expect((await page(cookie)).checkout.entries).toEqual([]);

    await call(checkoutAction, form({ intent: "remark", remark: "放宿管阿姨处" }, cookie, "/market/checkout"));
    const stale = await call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version - 1) }, cookie, "/market/checkout"));
    expect((await stale.json()).error).toBe("订单信息已更新，请确认后再试");
    expect((await page(cookie)).checkout.remark).toBe("放宿管阿姨处");
  });

  it("reads the no-JS screenshot form: at most 3 images, images only", async () => {
    const { cookie } = await messenger();
    const upload = (files: File[]) => {
      const body = new FormData();
      for (const file of files) body.append("images", file);
      return call(pageAction, request("/market?index", { method: "POST", cookie, body, headers: { Accept: "text/html" } }));
    };
    const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])], "a.png", { type: "image/png" });
    const four = await upload([png(), png(), png(), png()]);
    expect(four.status).toBe(400);
    expect((await four.json()).error).toBe("最多只能上传3张图片");
    const text = await upload([new File(["not an image at all"], "a.png", { type: "image/png" })]);
    expect((await text.json()).error).toBe("请选择图片文件");
    const none = await upload([]);
    expect((await none.json()).error).toBe("请选择图片文件");
  });

  it("offers the notifications' subscribe button on the sheet", async () => {
    const { cookie } = await messenger();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    process.env.WECHAT_SUBSCRIBE_TEMPLATE_EXPRESS_DELIVERY = "sub_express_delivery";
    resetConfig();
    try {
      const data = await (await call(checkoutLoader, request("/market/checkout", { cookie }))).json();
      // The button's data, texts filled in on the server: a link to subscribe that comes back here.
      expect(data.subscribe).toEqual({
        subscribed: false,
        href: "/api/wechat/subscribe?template=EXPRESS_DELIVERY&returnTo=%2Fmarket%2Fcheckout",
        label: "订阅微信通知",
        title: "快递送到宿舍时，通过微信通知你",
        notice: null,
      });
    } finally {
      delete process.env.WECHAT_SUBSCRIBE_TEMPLATE_EXPRESS_DELIVERY;
      resetConfig();
    }
  });

  it("sends a visitor without the messenger identity to the authorization", async () => {
    const student = await createStudent({ campus_code: "jinpenling" });
    const response = await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, await sessionCookieFor(student.id)));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/api/wechat/auth?redirect_url=%2Fmarket");
  });

  it("moves with a merge and is removed with the account", async () => {
    const { user: from, cookie } = await messenger();
    const into = await createStudent();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    await saveAddress(from.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑1栋", room: "302", isDefault: false });
    await db().insertInto("feature_requests").values({ user_id: from.id, feature_type: "online", user_agent: null, platform: null, created_at: now() }).execute();
    await db().transaction().execute((trx) => moveMarketData(trx, from.id, into.id));
    for (const table of ["checkouts", "addresses", "feature_requests"] as const) {
      const rows = await db().selectFrom(table).select("user_id").where("user_id", "in", [from.id, into.id]).execute();
      expect(rows.map((r) => r.user_id)).toEqual([into.id]);
    }
    await db().transaction().execute((trx) => deleteUserData(trx, into.id));
    for (const table of ["checkouts", "addresses", "feature_requests"] as const) {
      expect(await db().selectFrom(table).selectAll().where("user_id", "in", [from.id, into.id]).execute()).toEqual([]);
    }
  });
});

describe("one parcel, one charge on the market page", () => {
  const entriesOf = async (cookie: string) => (await page(cookie)).checkout.entries as { id: string; pickupCode: string | null; company: string; stationName: string }[];
  const saveEntry = async (cookie: string, fields: Record<string, string>) => call(parcelAction, form({ intent: "save-entry", ...fields }, cookie, "/market/parcel/new"));

  it("recognising the same text again, after a carrier was edited, adds nothing", async () => {
    const { cookie } = await messenger();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const [first] = await entriesOf(cookie);
    const edited = await saveEntry(cookie, { entryId: first!.id, company: "韵达快递", credential: first!.pickupCode!, station: first!.stationName });
    expect(edited.status).toBe(302);
    const again = await (await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie))).json();
    expect(again.error).toBe("该快递信息已存在，请勿重复添加");
    const entries = await entriesOf(cookie);
    expect(entries).toHaveLength(2);
    expect(entries.find((entry) => entry.pickupCode === "5-5-1201")?.company).toBe("韵达快递");
  });

  it("a code already listed, added by hand under another carrier, is refused with the product rules' message", async () => {
    const { cookie } = await messenger();
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const [first] = await entriesOf(cookie);
    const refused = await saveEntry(cookie, { company: "韵达快递", credential: "5-5-1201", station: first!.stationName });
    expect(refused.status).toBe(400);
    expect((await refused.json()).result.error[""]).toEqual(["该取件码信息已存在，请勿重复添加"]);
    expect(await entriesOf(cookie)).toHaveLength(2);
    // The same code at another station is another parcel.
    expect((await saveEntry(cookie, { company: "韵达快递", credential: "5-5-1201", station: "南门驿站" })).status).toBe(302);
    expect(await entriesOf(cookie)).toHaveLength(3);
  });

  it("the unpaid order: its parcels leave the list, /market links to it, a second order is refused, cancelling releases them", async () => {
    const { user, cookie } = await messenger();
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑1栋", room: "302", isDefault: true });
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    let data = await page(cookie);
    const paid = await call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version) }, cookie, "/market/checkout"));
    const number = /\/market\/pay\/(E\d{14})/.exec(paid.headers.get("Location")!)![1]!;
    data = await page(cookie);
    expect(data.checkout.entries).toEqual([]);
    expect(data.unpaidOrder).toEqual({ text: `你有一个待支付订单 ${number}`, action: "去支付", href: `/market/pay/${number}` });

    // The same parcels again: refused, naming the live order.
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    data = await page(cookie);
    const again = await call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version) }, cookie, "/market/checkout"));
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: `该快递已在订单 ${number} 中，请勿重复下单`, liveOrder: number });

    // Cancelled on its pay page: the parcels are free, the order can be made.
    const cancelled = await (payAction({ request: form({ intent: "cancel" }, cookie, `/market/pay/${number}`), params: { orderId: number }, context: {} }) as Promise<Response>).catch((thrown: Response) => thrown);
    expect(cancelled.headers.get("Location")).toBe(`/market/pay/${number}?notice=cancelled`);
    data = await page(cookie);
    expect(data.unpaidOrder).toBeNull();
    const made = await call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version) }, cookie, "/market/checkout"));
    expect(made.headers.get("Location")).toMatch(/^\/market\/pay\/E\d{14}\?start=1$/);
  });

  it("the sheet's pay button tells a student whose dorm building an operator turned off to choose another address", async () => {
    const { user, cookie } = await messenger();
    await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "101", isDefault: true });
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    const data = await page(cookie);
    const building = db().updateTable("dorm_buildings").where("campus_code", "=", "jinpenling").where("name", "=", "西苑3栋");
    await building.set({ enabled: 0 }).execute();
    try {
      const refused = await call(checkoutAction, form({ intent: "pay", checkoutId: String(data.checkout.id), version: String(data.checkout.version) }, cookie, "/market/checkout"));
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe("该地址的宿舍楼暂不配送，请选择或新增其他收货地址");
    } finally {
      await building.set({ enabled: 1 }).execute();
    }
  });

  it("the address picker offers only the service campus's addresses, and another campus's one is refused", async () => {
    const { user, cookie } = await messenger();
    await saveAddress(user.id, { name: "赵六", phone: "13700137000", campus: "yuntang", building: "2栋", room: "518", isDefault: true });
    await call(pageAction, form({ intent: "recognize", text: TWO_SMS }, cookie));
    let data = await page(cookie);
    expect(data.addresses).toEqual([]);
    expect(data.selectedAddressId).toBeNull();
    const other = await db().selectFrom("addresses").select("id").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    const refused = await call(addressPickerAction, form({ intent: "select-address", addressId: String(other.id) }, cookie, "/market/address"));
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe("收货地址不在当前服务校区，请选择或新增该校区的地址");
    await saveAddress(user.id, { name: "赵六", phone: "13700137000", campus: "jinpenling", building: "西苑2栋", room: "518", isDefault: false });
    data = await page(cookie);
    expect(data.addresses.map((address: { text: string }) => address.text)).toEqual(["金盆岭校区 西苑2栋518"]);
    expect(data.selectedAddressId).toBe(data.addresses[0].id);
  });
});

describe("text pasted before the authorization", () => {
  it("comes through the messenger authorization and is recognised on return", async () => {
    const anonymous = await call(pageAction, request("/market?index", { method: "POST", body: new URLSearchParams({ intent: "recognize", text: TWO_SMS }), headers: { Accept: "text/html" } }));
    expect(anonymous.headers.get("Location")).toMatch(/^\/api\/wechat\/auth\?redirect_url=/);
    const pending = anonymous.headers.get("Set-Cookie")!.split(";")[0]!;
    expect(pending).toMatch(/^__pending_sms=/);
    const { cookie } = await messenger();
    const back = await call(marketLoader, request("/market", { cookie: `${cookie}; ${pending}`, headers: { Accept: "text/html" } }));
    const data = await back.json();
    expect(data.checkout.smsText).toBe(TWO_SMS);
    expect(data.checkout.entries.map((entry: { pickupCode: string }) => entry.pickupCode)).toEqual(["5-5-1201", "62093517"]);
    expect(back.headers.get("Set-Cookie")).toMatch(/__pending_sms=;.*Max-Age=0/);
  });
});
