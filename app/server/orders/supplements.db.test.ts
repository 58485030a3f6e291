// A size found wrong at pickup (decision 047), on both dialects, by form posts as a browser
// without JavaScript sends them: the rider records the real size on the run; the difference is
// the server's (price table − unit price charged; a forged amount is ignored); the student
// accepts (the supplement's own trade with the simulated provider, confirmed once however often
// it is told) or declines (the parcel stays at the station and is refunded; the order goes on
// with its other parcels). Another student cannot answer it. The money invariants hold after
// every step, a full refund gives the supplement back on its own trade, and the day's
// reconciliation matches the provider's bill with the supplement in it.
import { beforeAll, describe, expect, it } from "vitest";
import { inboxText } from "~/lib/notify";
import { parsePickupCodes } from "~/lib/orders";
import { shanghaiToday } from "~/lib/time";
import { loader as exportLoader } from "~/routes/admin.export[.csv]";
import { action as ordersAction, loader as ordersLoader } from "~/routes/admin.orders";
import { action as pickAction } from "~/routes/admin.pick-list";
import { action as runAction, loader as runLoader } from "~/routes/admin.run";
import { loader as orderLoader } from "~/routes/express.orders.$orderId/route";
import { action as supplementAction } from "~/routes/express.orders.$orderId.supplement/route";
import { captchaToken } from "~/server/auth/captcha.server";
import { createOperator, loginOperator } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { sharedSimulatedStore } from "~/server/pay/simulated.server";
import { call, cookieValue, request, sessionCookieFor, type TestUser } from "../../../tests/setup/helpers";
import { placeTestOrder, payTestOrder } from "../../../tests/setup/orders";
import { pickList } from "~/server/riders/run.server";
import { cancelOrderByOperator, failDelivery } from "./cancel.server";
import { dailyLedger, moneyInvariantViolations } from "./invariants.server";
import { findOrder } from "./orders.server";
import { reconcileDay } from "./reconciliation.server";
import { acceptSupplement, markSupplementPaid, refreshSupplement, supplementByTradeNo } from "./supplements.server";

const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };

function form(path: string, fields: Record<string, string>, cookie: string) {
  return request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN } });
}

let operators = 0;
async function signIn(role: "admin" | "rider") {
  operators += 1;
  const username = `supp-${role}-${process.pid % 10000}-${operators}`;
  await createOperator({ username, password: "right-password-1", displayName: role === "admin" ? "管理员" : "骑手", role });
  const login = await loginOperator(username, "right-password-1", "10.9.2.1", { request: new Request("http://localhost/admin/login"), captcha: "AB23", captchaId: captchaToken("AB23") });
  if (!login.ok) throw new Error(`operator login refused: ${login.reason}`);
  return { cookie: cookieValue(login.setCookie), id: login.operator.id };
}

let admin: Awaited<ReturnType<typeof signIn>>;
let rider: Awaited<ReturnType<typeof signIn>>;
let prices: Record<string, number>;

beforeAll(async () => {
  admin = await signIn("admin");
  rider = await signIn("rider");
  const rows = await db().selectFrom("package_types").select(["type", "price_fen"]).where("campus_code", "=", "jinpenling").execute();
  prices = Object.fromEntries(rows.map((row) => [row.type, row.price_fen]));
});

let bound = 0;
/** The order pages are a student's: the messenger user binds a student account. */
async function asStudent(user: TestUser) {
  bound += 1;
  await db()
    .updateTable("users")
    .set({ school_code: "demo", student_id: `2024${String(process.pid % 1000).padStart(3, "0")}${String(bound).padStart(4, "0")}`, student_bound_at: new Date().toISOString() })
    .where("id", "=", user.id)
    .execute();
  return sessionCookieFor(user.id);
}

/** A paid order of `parcels` small parcels, assigned to the rider. */
async function assignedOrder(parcels = 1): Promise<{ user: TestUser; number: string; cookie: string }> {
  const { user, order } = await placeTestOrder(parcels);
  await payTestOrder(user, order);
  const assigned = await call(pickAction, form("/admin/pick-list", { intent: "assign", rider: String(rider.id), order: order.order_number }, admin.cookie));
  expect(assigned.status).toBe(302);
  return { user, number: order.order_number, cookie: await asStudent(user) };
}

const supplementPost = (number: string, intent: string, cookie: string) => call(supplementAction, form(`/express/orders/${number}/supplement`, { intent }, cookie), { orderId: number });
const orderPage = async (number: string, cookie: string, search = "") =>
  (await (await call(orderLoader, request(`/express/orders/${number}${search}`, { cookie }), { orderId: number })).json()) as {
    order: { supplement: { state: string; amountFen: number; open: boolean; real: string; declared: string; refundText: string | null } | null; status: string };
    supplementReload: number;
  };

async function recordLarge(number: string, extra: Record<string, string> = {}) {
  return call(runAction, form("/admin/run", { intent: "size", order: number, position: "0", real: "large", ...extra }, rider.cookie));
}

/** The simulated payer confirms the sheet (what its 1.5 s do). */
function payAtProvider(tradeNo: string) {
  const trade = sharedSimulatedStore().trades.get(tradeNo);
  if (trade) trade.payParamsAt = Date.now() - 2_000;
}

describe("a size found wrong at pickup", () => {
  it("charges the server's difference, paid by the student on its own trade, confirmed once", async () => {
    const { user, number, cookie } = await assignedOrder();
    // A forged amount from the client is not a field the server reads.
    const recorded = await recordLarge(number, { amount: "1", amount_fen: "1" });
    expect(recorded.status).toBe(302);
    // The difference: the large price now less the unit price the parcel was charged.
    const placed = (await findOrder(number))!;
    const [declared, unit] = Object.entries(JSON.parse(placed.unit_prices!) as Record<string, number>).find(([size]) => (JSON.parse(placed.package_counts) as Record<string, number>)[size]! > 0)!;
    const expected = prices.large! - unit;
    expect(expected).toBeGreaterThan(0);
    const page = await orderPage(number, cookie);
    expect(page.order.supplement).toMatchObject({ state: "offered", amountFen: expected, open: true, real: "大件" });
    expect(declared).toBe("pocket");
    // The rider sees it waiting on the run.
    const run = (await (await call(runLoader, request("/admin/run", { cookie: rider.cookie }))).json()) as { stations: { parcels: { supplement?: { state: string; amountFen: number } }[] }[] };
    expect(run.stations.flatMap((station) => station.parcels).find((parcel) => parcel.supplement)?.supplement).toEqual({ state: "offered", realSize: "large", amountFen: expected });
    // A second record is refused; a cheaper size makes none.
    expect((await recordLarge(number)).status).toBe(409);

    const accepted = await supplementPost(number, "supplement-accept", cookie);
    expect(accepted.headers.get("Location")).toBe(`/express/orders/${number}?supplement=paying`);
    const trade = sharedSimulatedStore().trades.get(`${number}S`);
    expect(trade?.amountFen).toBe(expected);
    payAtProvider(`${number}S`);
    // The page reloads (no JavaScript) and asks the provider; twice, and a notification too: paid once.
    const paying = await orderPage(number, cookie, "?supplement=paying");
    expect(paying.order.supplement?.state).toBe("paid");
    const row = (await supplementByTradeNo(`${number}S`))!;
    await refreshSupplement(row);
    await markSupplementPaid(`${number}S`, { transactionId: "again", successTime: null, payerOpenid: null });
    const order = (await findOrder(number))!;
    const events = await db().selectFrom("order_events").select("type").where("order_id", "=", order.id).where("type", "=", "supplement_paid").execute();
    expect(events).toHaveLength(1);
    expect((await supplementByTradeNo(`${number}S`))?.transaction_id).toBe(trade?.transactionId);
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    // Received = the order's amount + the supplement, held while the order is live.
    const ledger = await dailyLedger(shanghaiToday(new Date()));
    expect(ledger.receivedFen).toBe(ledger.refundedFen + ledger.earnedFen + ledger.heldFen);
    // The day's books match the provider's bill with the supplement's trade in it.
    const books = await reconcileDay(shanghaiToday(new Date()));
    expect(books.payments.map((entry) => entry.outTradeNo)).toContain(`${number}S`);
    expect(books.differences).toEqual([]);

    // The operator cancels the order: both trades are refunded, each on its own.
    await cancelOrderByOperator(number, admin.id, "骑手无法送达");
    const refunds = await db().selectFrom("refunds").select(["amount_fen", "state", "out_trade_no"]).where("order_id", "=", order.id).orderBy("id").execute();
    expect(refunds).toEqual([
      { amount_fen: order.amount_fen, state: "succeeded", out_trade_no: null },
      { amount_fen: expected, state: "succeeded", out_trade_no: `${number}S` },
    ]);
    expect(sharedSimulatedStore().trades.get(`${number}S`)?.refundedFen).toBe(expected);
    expect((await findOrder(number))?.status).toBe("refunded");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    expect((await reconcileDay(shanghaiToday(new Date()))).differences).toEqual([]);
  });

  it("leaves a declined parcel at the station and refunds it; the order goes on with the others", async () => {
    const { number, cookie } = await assignedOrder(2);
    await recordLarge(number);
    const declined = await supplementPost(number, "supplement-decline", cookie);
    expect(declined.headers.get("Location")).toBe(`/express/orders/${number}?supplement=declined`);
    const order = (await findOrder(number))!;
    const refunds = await db().selectFrom("refunds").select(["amount_fen", "state", "kind"]).where("order_id", "=", order.id).execute();
    // The other parcel is kept at its unit price less the coupon's discount; the rest comes back.
    const unit = (JSON.parse(order.unit_prices!) as Record<string, number>).pocket!;
    expect(refunds).toEqual([{ amount_fen: order.amount_fen - Math.max(0, unit - order.discount_fen), state: "succeeded", kind: "parcel_left" }]);
    expect(order.status).toBe("assigned");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    // The pick list no longer shows it: only the other parcel is fetched.
    const list = await pickList(order.estimated_delivery_at);
    expect(list.parcels.filter((parcel) => parcel.orderNumber === number).map((parcel) => parcel.position)).toEqual([1]);
    // Nor does the CSV export: its codes column lists only the parcel still to fetch.
    const codes = parsePickupCodes(order.pickup_codes).map((item) => item.code!);
    const csv = await (await call(exportLoader, request(`/admin/export.csv?q=${number}`, { cookie: admin.cookie }))).text();
    const line = csv.split("\r\n").find((text) => text.startsWith(number))!;
    expect(line).toContain(codes[1]!);
    expect(line).not.toContain(codes[0]!);
    // The rider no longer picks it; the other parcel in hand sends the order out.
    expect((await call(runAction, form("/admin/run", { intent: "pick", order: number, position: "0", picked: "1" }, rider.cookie))).status).toBe(409);
    await call(runAction, form("/admin/run", { intent: "pick", order: number, position: "1", picked: "1" }, rider.cookie));
    expect((await findOrder(number))?.status).toBe("delivering");
    // Accepting after declining changes nothing.
    const late = await supplementPost(number, "supplement-accept", cookie);
    expect(late.headers.get("Location")).toBe(`/express/orders/${number}?supplement=gone`);
    expect(sharedSimulatedStore().trades.get(`${number}S`)).toBeUndefined();
  });

  it("tells the student in the inbox and by the messenger's order template, once", async () => {
    const { user, number } = await assignedOrder();
    await recordLarge(number);
    expect((await recordLarge(number)).status).toBe(409);
    const amount = yuan((await supplementByTradeNo(`${number}S`))!.amount_fen);
    const inbox = await db().selectFrom("inbox_items").select(["kind", "data", "link"]).where("user_id", "=", user.id).where("dedupe_key", "=", `order:${number}:supplement_offered`).execute();
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.link).toBe(`/express/orders/${number}`);
    expect(inboxText(inbox[0]!.kind, JSON.parse(inbox[0]!.data) as Record<string, unknown>)).toMatchObject({
      title: `订单 ${number}`,
      body: `骑手取件时发现包裹为大件（下单为口袋件），需补差价 ${amount}。`,
    });
    const outbox = await db()
      .selectFrom("outbox_messages")
      .select(["openid", "template_key", "subscribe_key", "data", "link"])
      .where("user_id", "=", user.id)
      .where("dedupe_key", "like", `%:order:${number}:supplement_offered:%`)
      .execute();
    expect(outbox).toEqual([{ openid: user.openid, template_key: "EXPRESS_ORDER", subscribe_key: "SYSTEM_NOTICE", data: expect.any(String), link: `/express/orders/${number}` }]);
    expect(JSON.parse(outbox[0]!.data)).toMatchObject({
      orderNumber: number,
      amount: `待补差价 ${amount}`,
      parcelCount: "1 件",
      title: "包裹尺寸需补差价",
      content: `骑手取件时发现包裹为大件（下单为口袋件），需补差价 ${amount}。`,
    });
  });

  it("refuses another student, and a real size that costs no more", async () => {
    const { number } = await assignedOrder();
    const cheaper = await call(runAction, form("/admin/run", { intent: "size", order: number, position: "0", real: "pocket" }, rider.cookie));
    expect(cheaper.status).toBe(409);
    await recordLarge(number);
    const stranger = await placeTestOrder(1);
    const other = await supplementPost(number, "supplement-accept", await asStudent(stranger.user));
    expect(other.status).toBe(404);
    const decline = await supplementPost(number, "supplement-decline", await sessionCookieFor(stranger.user.id));
    expect(decline.status).toBe(404);
    expect((await supplementByTradeNo(`${number}S`))?.state).toBe("offered");
  });
});

/** A paid order of `parcels` pocket parcels whose first was found large, its supplement paid, all in hand: 配送中. */
async function deliveringWithPaidSupplement(parcels: number) {
  const placed = await assignedOrder(parcels);
  await recordLarge(placed.number);
  await supplementPost(placed.number, "supplement-accept", placed.cookie);
  payAtProvider(`${placed.number}S`);
  await orderPage(placed.number, placed.cookie, "?supplement=paying");
  for (let position = 0; position < parcels; position += 1) await call(runAction, form("/admin/run", { intent: "pick", order: placed.number, position: String(position), picked: "1" }, rider.cookie));
  const order = (await findOrder(placed.number))!;
  expect(order.status).toBe("delivering");
  const supplement = (await supplementByTradeNo(`${placed.number}S`))!;
  expect(supplement.state).toBe("paid");
  return { ...placed, order, supplement };
}

/** 配送失败 as the operator's form posts it (no JavaScript). */
const failPost = (number: string, fields: Record<string, string>) =>
  call(ordersAction, form(`/admin/orders?order=${number}&panel=fail`, { intent: "fail", order: number, reason_code: "parcel_missing", ...fields }, admin.cookie));

type Card = { orderNumber: string; amountText: string; parcels: { type: string; name: string; count: number }[] };
async function adminCard(number: string, panel = "") {
  const data = (await (await call(ordersLoader, request(`/admin/orders?q=${number}&order=${number}${panel}`, { cookie: admin.cookie }))).json()) as { page: { items: Card[] }; panelOrder: Card | null };
  return { card: data.page.items.find((item) => item.orderNumber === number)!, panel: data.panelOrder! };
}

const refundsOf = async (orderId: number) => db().selectFrom("refunds").select(["amount_fen", "state", "kind", "out_trade_no"]).where("order_id", "=", orderId).orderBy("id").execute();
const yuan = (fen: number) => `¥${(fen / 100).toFixed(2)}`;

describe("a 配送失败 and the supplement of its parcel (S4)", () => {
  it("refunds a paid supplement on its own trade when the supplemented parcel is among the missing; the books list it", async () => {
    const { number, order, supplement, cookie } = await deliveringWithPaidSupplement(2);
    // The admin card shows the supplement beside the amount, and the failure form asks about its parcel.
    const before = await adminCard(number, "&panel=fail");
    expect(before.card.amountText).toBe(`${yuan(order.amount_fen)} · 补差价 ${yuan(supplement.amount_fen)}（口袋件→大件，已支付）`);
    expect(before.panel.parcels).toEqual([
      { type: "pocket", name: "口袋件", count: 2 },
      { type: "supplement", name: "其中补差价的那件（口袋件→大件）", count: 1 },
    ]);

    const failed = await failPost(number, { missing_pocket: "1", missing_supplement: "1" });
    expect(failed.status).toBe(302);
    const unit = (JSON.parse(order.unit_prices!) as Record<string, number>).pocket!;
    expect(await refundsOf(order.id)).toEqual([
      { amount_fen: order.amount_fen - Math.max(0, unit - order.discount_fen), state: "succeeded", kind: "delivery_failed", out_trade_no: null },
      { amount_fen: supplement.amount_fen, state: "succeeded", kind: "delivery_failed", out_trade_no: `${number}S` },
    ]);
    expect(sharedSimulatedStore().trades.get(`${number}S`)?.refundedFen).toBe(supplement.amount_fen);
    const after = (await findOrder(number))!;
    expect(after.status).toBe("completed");
    expect(after.refund_state).toBe("refunded");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    expect((await adminCard(number)).card.amountText).toContain("（口袋件→大件，已退回）");
    // The student's page says so beside the supplement, no longer that the rider carries on.
    expect((await orderPage(number, cookie)).order.supplement).toMatchObject({ state: "paid", refundText: `补差价 ${yuan(supplement.amount_fen)} 已退回` });
    // The reconciliation itemises the supplement's refund against its own trade, and matches the bill.
    const books = await reconcileDay(shanghaiToday(new Date()));
    expect(books.refunds.filter((entry) => entry.outTradeNo === `${number}S`)).toEqual([
      expect.objectContaining({ kind: "refund", outTradeNo: `${number}S`, transactionId: supplement.transaction_id, fen: supplement.amount_fen, refundKind: "delivery_failed" }),
    ]);
    expect(books.differences).toEqual([]);
  });

  it("keeps the supplement earned when the missing parcel is another one", async () => {
    const { number, order, supplement, cookie } = await deliveringWithPaidSupplement(2);
    expect((await failPost(number, { missing_pocket: "1", missing_supplement: "0" })).status).toBe(302);
    expect((await refundsOf(order.id)).map((refund) => refund.out_trade_no)).toEqual([null]);
    expect(sharedSimulatedStore().trades.get(`${number}S`)?.refundedFen ?? 0).toBe(0);
    expect((await findOrder(number))?.status).toBe("completed");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    expect((await adminCard(number)).card.amountText).toContain(`补差价 ${yuan(supplement.amount_fen)}（口袋件→大件，已支付）`);
    expect((await orderPage(number, cookie)).order.supplement?.refundText).toBeNull();
  });

  it("counts the supplemented parcel missing when every parcel of its size is, whatever the form says", async () => {
    const { number, order, supplement } = await deliveringWithPaidSupplement(2);
    const result = await failDelivery(number, { id: admin.id }, { reason: "找不到包裹", missing: { pocket: 2 }, supplementMissing: false });
    expect(result).toMatchObject({ ok: true });
    expect(await refundsOf(order.id)).toEqual([
      { amount_fen: order.amount_fen, state: "succeeded", kind: "delivery_failed", out_trade_no: null },
      { amount_fen: supplement.amount_fen, state: "succeeded", kind: "delivery_failed", out_trade_no: `${number}S` },
    ]);
    expect((await findOrder(number))?.status).toBe("refunded");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
  });

  it("refunds a supplement paid only after the failure covered its parcel, at once", async () => {
    const { user, number, cookie } = await assignedOrder(2);
    await recordLarge(number);
    await acceptSupplement(user, number);
    for (const position of ["0", "1"]) await call(runAction, form("/admin/run", { intent: "pick", order: number, position, picked: "1" }, rider.cookie));
    expect((await failPost(number, { missing_pocket: "1", missing_supplement: "1" })).status).toBe(302);
    const order = (await findOrder(number))!;
    expect((await refundsOf(order.id)).map((refund) => refund.out_trade_no)).toEqual([null]);
    // The student's pay sheet was still open: the payment arrives now and goes straight back.
    payAtProvider(`${number}S`);
    await orderPage(number, cookie);
    const supplement = (await supplementByTradeNo(`${number}S`))!;
    expect(supplement.state).toBe("paid");
    expect((await refundsOf(order.id)).at(-1)).toEqual({ amount_fen: supplement.amount_fen, state: "succeeded", kind: "delivery_failed", out_trade_no: `${number}S` });
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
  });

  it("judges a later 配送失败 on the parcels still to deliver, not the one left at the station", async () => {
    const { number, cookie } = await assignedOrder(2);
    await recordLarge(number);
    await supplementPost(number, "supplement-decline", cookie);
    await call(runAction, form("/admin/run", { intent: "pick", order: number, position: "1", picked: "1" }, rider.cookie));
    const order = (await findOrder(number))!;
    expect(order.status).toBe("delivering");
    // The form offers only the parcel in hand; naming the left one too is refused.
    expect((await adminCard(number, "&panel=fail")).panel.parcels).toEqual([{ type: "pocket", name: "口袋件", count: 1 }]);
    expect(await failDelivery(number, { id: admin.id }, { reason: "找不到包裹", missing: { pocket: 2 } })).toEqual({ ok: false, reason: "not_allowed" });
    // The one parcel still to deliver is missing: nothing was delivered, so the order ends refunded in full.
    expect((await failPost(number, { missing_pocket: "1" })).status).toBe(302);
    const refunds = await refundsOf(order.id);
    expect(refunds.map((refund) => refund.kind)).toEqual(["parcel_left", "delivery_failed"]);
    expect(refunds.reduce((total, refund) => total + refund.amount_fen, 0)).toBe(order.amount_fen);
    expect((await findOrder(number))?.status).toBe("refunded");
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
  });

  it("refuses to name the supplemented parcel missing when none of its size is", async () => {
    const { number } = await deliveringWithPaidSupplement(2);
    expect(await failDelivery(number, { id: admin.id }, { reason: "找不到包裹", missing: { pocket: 0, large: 0 }, supplementMissing: true })).toEqual({ ok: false, reason: "not_allowed" });
    expect((await findOrder(number))?.status).toBe("delivering");
  });
});
