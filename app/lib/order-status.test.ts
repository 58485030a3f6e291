import { describe, expect, it } from "vitest";
import {
  ORDER_GROUPS,
  ORDER_STATUSES,
  STATUS_TABLE,
  adminActions,
  canAdvance,
  canTransition,
  transitionGuard,
  type Transition,
  cancelNotice,
  customerActions,
  isLate,
  orderView,
  statusesOf,
  type OrderState,
} from "./order-status";
import { deliveryText, isInvalidOrderParam, isOrderNumber, orderNumber, parsePickupCodes, payingParam, ratingText } from "./orders";

describe("the status table", () => {
  it.each([
    // status, label, percent, group, group label
    ["created", "订单已创建", 10, "pending_payment", "待支付"],
    ["paid", "等待骑手接单", 30, "in_progress", "进行中"],
    ["assigned", "骑手已接单", 50, "in_progress", "进行中"],
    ["picking", "正在取件", 70, "in_progress", "进行中"],
    ["delivering", "配送中", 90, "in_progress", "进行中"],
    ["completed", "订单已完成", 100, "completed", "已完成"],
    ["cancelled", "订单已取消", null, "cancelled", "已取消"],
    ["refunded", "退款成功", null, "refunded", "退款成功"],
  ] as const)("%s: %s, %s%%, %s", (status, label, percent, group, groupText) => {
    const paymentStatus = status === "created" ? "pending" : status === "cancelled" ? "closed" : status === "refunded" ? "refunded" : "paid";
    const view = orderView({ status, paymentStatus, refundState: status === "refunded" ? "refunded" : null });
    expect(view).toMatchObject({ label, percent, group, groupLabel: groupText, refundLabel: null });
  });

  it("covers every status, and every group has its statuses", () => {
    expect(Object.keys(STATUS_TABLE).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(ORDER_GROUPS.map((group) => [group, statusesOf(group)])).toEqual([
      ["pending_payment", ["created"]],
      ["in_progress", ["paid", "assigned", "picking", "delivering"]],
      ["completed", ["completed"]],
      ["cancelled", ["cancelled"]],
      ["refunded", ["refunded"]],
    ]);
  });
});

describe("customer actions", () => {
  const P = (status: OrderState["status"], extra: Partial<OrderState> = {}): OrderState => ({
    status,
    paymentStatus: status === "created" ? "pending" : status === "cancelled" ? "closed" : status === "refunded" ? "refunded" : "paid",
    refundState: null,
    ...extra,
  });
  it.each<[string, OrderState, string[]]>([
    ["created: pay, cancel, contact", P("created"), ["pay", "cancel", "contact"]],
    ["created past its 24 h: no pay", P("created", { expired: true }), ["cancel", "contact"]],
    ["paid: cancel (refund at once)", P("paid"), ["cancel", "contact"]],
    ["assigned: cancel (refund at once)", P("assigned"), ["cancel", "contact"]],
    ["picking: refund request", P("picking"), ["refund", "contact"]],
    ["delivering: refund request", P("delivering"), ["refund", "contact"]],
    ["completed: review, refund", P("completed"), ["review", "refund", "contact"]],
    ["completed and reviewed", P("completed", { reviewed: true }), ["refund", "contact"]],
    ["cancelled: contact only", P("cancelled"), ["contact"]],
    ["refunded: contact only", P("refunded"), ["contact"]],
    ["paid with a refund processing", P("paid", { refundState: "processing" }), ["contact"]],
    ["completed with a refund request waiting", P("completed", { refundState: "requested" }), ["review", "contact"]],
    ["delivering after a rejected request: may ask again", P("delivering", { refundState: "rejected" }), ["refund", "contact"]],
    ["assigned after a failed refund: may cancel again", P("assigned", { refundState: "failed" }), ["cancel", "contact"]],
  ])("%s", (_name, state, actions) => {
    expect(customerActions(state)).toEqual(actions);
  });

  it.each([
    ["requested", "退款审核中"],
    ["processing", "退款处理中"],
    ["rejected", "退款申请未通过"],
    ["failed", "退款未成功，请联系客服"],
  ] as const)("a refund %s shows '%s' beside the unchanged status", (refundState, text) => {
    expect(orderView({ status: "completed", paymentStatus: "paid", refundState })).toMatchObject({ label: "订单已完成", refundLabel: text });
  });
});

describe("operator actions and transitions", () => {
  it.each<[OrderState, string[]]>([
    [{ status: "created", paymentStatus: "pending", refundState: null }, ["cancel", "call"]],
    [{ status: "paid", paymentStatus: "paid", refundState: null }, ["complete", "cancel", "call"]],
    [{ status: "assigned", paymentStatus: "paid", refundState: null }, ["complete", "cancel", "call"]],
    [{ status: "picking", paymentStatus: "paid", refundState: null }, ["complete", "cancel", "call"]],
    [{ status: "delivering", paymentStatus: "paid", refundState: null }, ["complete", "fail", "call"]],
    [{ status: "delivering", paymentStatus: "paid", refundState: "processing" }, ["call"]],
    [{ status: "completed", paymentStatus: "paid", refundState: null }, ["call"]],
    // A payment that arrived after the close, its refund on the way: money is held, no delete.
    [{ status: "cancelled", paymentStatus: "paid", refundState: "processing" }, []],
    [{ status: "cancelled", paymentStatus: "closed", refundState: null }, ["delete"]],
    [{ status: "refunded", paymentStatus: "refunded", refundState: "refunded" }, ["delete"]],
  ])("%o → %o", (state, actions) => {
    expect(adminActions(state)).toEqual(actions);
  });

  it.each<[OrderState["status"], OrderState["status"], boolean]>([
    ["paid", "assigned", true],
    ["assigned", "picking", true],
    ["picking", "delivering", true],
    ["delivering", "completed", true],
    ["paid", "completed", true],
    ["delivering", "picking", false],
    ["completed", "delivering", false],
    ["created", "assigned", false],
    ["cancelled", "completed", false],
  ])("%s → %s: %s", (from, to, allowed) => {
    const paymentStatus = from === "created" ? "pending" : from === "cancelled" ? "closed" : "paid";
    expect(canAdvance({ status: from, paymentStatus, refundState: null }, to)).toBe(allowed);
  });

  it("a refund under way stops every transition", () => {
    expect(canAdvance({ status: "paid", paymentStatus: "paid", refundState: "processing" }, "assigned")).toBe(false);
  });
});

describe("order numbers, ids, pickup codes, times", () => {
  it("numbers are 'E' + the Shanghai date + 6 digits", () => {
    expect(orderNumber(new Date("2026-03-01T16:30:00Z"), 42)).toBe("E20260302000042");
    expect(isOrderNumber("E20260302000042")).toBe(true);
    expect(isOrderNumber("E2026030200004")).toBe(false);
    expect(isOrderNumber("12")).toBe(false);
  });

  it.each([[undefined], [""], ["undefined"], ["null"]])("%o is an invalid order id", (value) => {
    expect(isInvalidOrderParam(value)).toBe(true);
  });

  it("reads pickup codes as a list or JSON text, with the product rules' aliases", () => {
    const list = [
      { company: "中通快递", pickupCode: "5-5-1201", stationName: "梨园菜鸟驿站", trackingNumber: "7531", deadline: "当日7点前", deadlineAt: "2026-03-02T11:00:00.000Z", phoneTail: "0123" },
      { company: "申通快递", code: "62093517", location: "丰巢柜", deadlineAt: "not a time", phoneTail: "12345" },
      { pickup_code: "A-3-2011", station_name: "南门驿站", tracking_number: "YT123" },
      { nothing: true },
    ];
    const expected = [
      { company: "中通快递", code: "5-5-1201", station: "梨园菜鸟驿站", trackingNumber: "7531", pickupType: null, deadline: "当日7点前", deadlineAt: "2026-03-02T11:00:00.000Z", phoneTail: "0123" },
      { company: "申通快递", code: "62093517", station: "丰巢柜", trackingNumber: null, pickupType: null, deadline: null, deadlineAt: null, phoneTail: null },
      { company: "", code: "A-3-2011", station: "南门驿站", trackingNumber: "YT123", pickupType: null, deadline: null, deadlineAt: null, phoneTail: null },
    ];
    expect(parsePickupCodes(list)).toEqual(expected);
    expect(parsePickupCodes(JSON.stringify(list))).toEqual(expected);
    expect(parsePickupCodes("not json")).toEqual([]);
    expect(parsePickupCodes(null)).toEqual([]);
  });

  it("says today, tomorrow or the date of the promised delivery (Shanghai)", () => {
    const now = new Date("2026-03-02T02:00:00Z"); // 10:00 in Shanghai
    expect(deliveryText("2026-03-02T05:30:00.000Z", now)).toBe("今天 13:30");
    expect(deliveryText("2026-03-03T05:30:00.000Z", now)).toBe("明天 13:30");
    expect(deliveryText("2026-03-05T11:30:00.000Z", now)).toBe("3月5日 19:30");
    // Across the Shanghai midnight: 16:05 UTC is 00:05 the next day there.
    expect(deliveryText("2026-03-02T16:05:00.000Z", now)).toBe("明天 00:05");
  });

  it.each([
    ["?paying=1", true, 1],
    ["?paying=10", true, 10],
    ["?paying=11", true, 0],
    ["?paying=0", true, 0],
    ["?paying=x", true, 0],
    ["", true, 0],
    ["?paying=3", false, 0],
  ])("the no-JS pay reload %s (pending %s) is step %s", (search, pending, step) => {
    expect(payingParam(new URL(`https://campus.test/market/pay/E1${search}`), pending)).toBe(step);
  });

  it.each([
    [1, "非常不满意"],
    [2, "不满意"],
    [3, "一般"],
    [4, "满意"],
    [5, "非常满意"],
  ])("rating %i reads '%s'", (rating, text) => {
    expect(ratingText(rating)).toBe(text);
  });
});

describe("the order page tells the truth", () => {
  it.each([
    ["created", "pending", "due", true],
    ["paid", "paid", "paid", true],
    ["delivering", "paid", "paid", true],
    ["completed", "paid", "paid", false],
    ["cancelled", "closed", "total", false],
    ["refunded", "refunded", "paid", false],
  ] as const)("%s / %s: amount %s, estimate shown %s", (status, paymentStatus, amount, estimate) => {
    const view = orderView({ status, paymentStatus, refundState: null });
    expect(view.amountKind).toBe(amount);
    expect(view.showEstimate).toBe(estimate);
  });

  it("an unpaid order past its 24 hours shows no estimate", () => {
    expect(orderView({ status: "created", paymentStatus: "pending", refundState: null, expired: true }).showEstimate).toBe(false);
  });

  it.each([
    [{ status: "cancelled", refundState: null }, "订单已取消"],
    [{ status: "paid", refundState: "processing" }, "订单已取消，退款处理中"],
    [{ status: "refunded", refundState: "refunded" }, "订单已取消，已退款"],
    [{ status: "paid", refundState: "failed" }, "退款未成功，请联系客服"],
  ] as const)("the banner after a cancel of %o agrees with the header: %s", (state, text) => {
    expect(cancelNotice(state)).toBe(text);
  });
});

describe("transition guards (read from the status table)", () => {
  const any = ["created", "paid", "assigned", "picking", "delivering", "completed", "cancelled", "refunded"] as const;
  it.each<[string, Transition, OrderState["status"][], OrderState["paymentStatus"], (OrderState["refundState"])[] | undefined]>([
    ["pay", { kind: "pay" }, ["created"], "pending", undefined],
    ["late pay", { kind: "late_pay" }, ["cancelled"], "closed", undefined],
    ["customer close", { kind: "close", by: "customer" }, ["created"], "pending", undefined],
    ["operator close", { kind: "close", by: "operator" }, ["created"], "pending", undefined],
    ["closer", { kind: "close", by: "system" }, ["created"], "pending", undefined],
    ["customer cancel of a paid order", { kind: "cancel_refund", by: "customer" }, ["paid", "assigned"], "paid", [null, "rejected", "failed"]],
    ["operator cancel of a paid order", { kind: "cancel_refund", by: "operator" }, ["paid", "assigned", "picking"], "paid", [null, "rejected", "failed"]],
    ["refund request", { kind: "refund_request" }, ["picking", "delivering", "completed"], "paid", [null, "rejected", "failed"]],
    ["review", { kind: "review" }, ["completed"], "paid", undefined],
    ["assign", { kind: "advance", to: "assigned" }, ["paid"], "paid", [null, "refunded", "rejected", "failed"]],
    ["pick up", { kind: "advance", to: "picking" }, ["paid", "assigned"], "paid", [null, "refunded", "rejected", "failed"]],
    ["deliver", { kind: "advance", to: "delivering" }, ["paid", "assigned", "picking"], "paid", [null, "refunded", "rejected", "failed"]],
    ["complete", { kind: "advance", to: "completed" }, ["paid", "assigned", "picking", "delivering"], "paid", [null, "refunded", "rejected", "failed"]],
    ["never back to paid", { kind: "advance", to: "paid" }, [], "paid", [null, "refunded", "rejected", "failed"]],
    ["never to cancelled by a step", { kind: "advance", to: "cancelled" }, [], "paid", [null, "refunded", "rejected", "failed"]],
  ])("%s", (_name, transition, statuses, paymentStatus, refundStates) => {
    expect(transitionGuard(transition)).toEqual({ statuses, paymentStatus, ...(refundStates ? { refundStates } : {}) });
  });

  // Every state (status × payment × refund): the buttons agree with the guards the server's UPDATEs use.
  const payments = ["pending", "paid", "refunded", "closed"] as const;
  const refunds = [null, "requested", "processing", "refunded", "rejected", "failed"] as const;
  const states = any.flatMap((status) => payments.flatMap((paymentStatus) => refunds.map((refundState) => ({ status, paymentStatus, refundState }) as OrderState)));
  it.each(states)("buttons agree with the guards: %o", (state) => {
    const customer = customerActions(state);
    expect(customer.includes("cancel")).toBe(canTransition({ kind: "close", by: "customer" }, state) || canTransition({ kind: "cancel_refund", by: "customer" }, state));
    expect(customer.includes("refund")).toBe(canTransition({ kind: "refund_request" }, state));
    expect(customer.includes("pay")).toBe(canTransition({ kind: "pay" }, state));
    const admin = adminActions(state);
    expect(admin.includes("cancel")).toBe(canTransition({ kind: "close", by: "operator" }, state) || canTransition({ kind: "cancel_refund", by: "operator" }, state));
    expect(admin.includes("complete")).toBe(canTransition({ kind: "advance", to: "completed" }, state));
    // No transition starts while a refund is under way, except the provider's own (pay, late pay).
    if (state.paymentStatus === "paid" && (state.refundState === "requested" || state.refundState === "processing")) {
      expect(customer.filter((action) => action === "cancel" || action === "refund")).toEqual([]);
      expect(admin.filter((action) => action === "cancel" || action === "complete")).toEqual([]);
    }
  });
});

describe("已超时", () => {
  const promised = "2026-11-28T05:30:00.000Z";
  const after = new Date("2026-11-28T05:31:00.000Z");
  const before = new Date("2026-11-28T05:29:00.000Z");
  it.each<[OrderState["status"], OrderState["paymentStatus"], Date, boolean]>([
    ["paid", "paid", after, true],
    ["assigned", "paid", after, true],
    ["picking", "paid", after, true],
    ["delivering", "paid", after, true],
    ["delivering", "paid", before, false],
    ["created", "pending", after, false],
    ["completed", "paid", after, false],
    ["cancelled", "closed", after, false],
    ["refunded", "refunded", after, false],
  ])("%s/%s → %s", (status, paymentStatus, at, late) => {
    expect(isLate({ status, paymentStatus }, promised, at)).toBe(late);
  });
});
