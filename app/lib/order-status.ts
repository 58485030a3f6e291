// The one table of order statuses (docs/architecture.md "One order status", "Orders"): the canonical status in
// the database, its customer label, the progress percent, the group (the product rules' Chinese forms,
// also the admin tabs), and what the customer and an operator may do in it. The order page, the
// order list, the server's action checks and the admin pages all read this module.
// Pure and safe in the browser.
import { orders as ordersMessages } from "~/lib/messages/orders";

const msg = { orders: ordersMessages };

export const ORDER_STATUSES = ["created", "paid", "assigned", "picking", "delivering", "completed", "cancelled", "refunded"] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const PAYMENT_STATUSES = ["pending", "paid", "refunded", "closed"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** A refund's progress on the order (null: none). */
export const REFUND_STATES = ["requested", "processing", "refunded", "rejected", "failed"] as const;
export type RefundState = (typeof REFUND_STATES)[number];

export const ORDER_GROUPS = ["pending_payment", "in_progress", "completed", "cancelled", "refunded"] as const;
export type OrderGroup = (typeof ORDER_GROUPS)[number];

export type CustomerAction = "pay" | "cancel" | "refund" | "review" | "contact";
/** `fail`: 配送失败 — the delivery failed (a reason; all parcels or some missing), refunded accordingly. */
export type AdminAction = "complete" | "cancel" | "fail" | "delete" | "call";

/**
 * What a customer cancel does in a status: `close` (an unpaid order becomes cancelled) or
 * `refund` (a paid order starts a refund at once and is never 'cancelled').
 */
export type CancelEffect = "close" | "refund";

export type StatusRow = {
  label: string;
  /** The progress bar (product rules: created 10 … completed 100); null: no bar. */
  percent: number | null;
  group: OrderGroup;
  /** The customer's actions when the order is paid (or unpaid for 'created') and no refund is under way. */
  customer: readonly CustomerAction[];
  cancel: CancelEffect | null;
  admin: readonly AdminAction[];
  /** Where an operator may move it next (assign, pick up, deliver, complete). */
  next: readonly OrderStatus[];
  /** Is the delivery still to come (the estimated delivery time is shown)? */
  open: boolean;
};

export const STATUS_TABLE: Record<OrderStatus, StatusRow> = {
  created: { label: msg.orders.status.created, percent: 10, group: "pending_payment", customer: ["pay", "cancel", "contact"], cancel: "close", admin: ["cancel", "delete", "call"], next: [], open: true },
  paid: { label: msg.orders.status.paid, percent: 30, group: "in_progress", customer: ["cancel", "contact"], cancel: "refund", admin: ["complete", "cancel", "delete", "call"], next: ["assigned", "picking", "delivering", "completed"], open: true },
  assigned: { label: msg.orders.status.assigned, percent: 50, group: "in_progress", customer: ["cancel", "contact"], cancel: "refund", admin: ["complete", "cancel", "delete", "call"], next: ["picking", "delivering", "completed"], open: true },
  picking: { label: msg.orders.status.picking, percent: 70, group: "in_progress", customer: ["refund", "contact"], cancel: null, admin: ["complete", "cancel", "delete", "call"], next: ["delivering", "completed"], open: true },
  delivering: { label: msg.orders.status.delivering, percent: 90, group: "in_progress", customer: ["refund", "contact"], cancel: null, admin: ["complete", "fail", "delete", "call"], next: ["completed"], open: true },
  completed: { label: msg.orders.status.completed, percent: 100, group: "completed", customer: ["review", "refund", "contact"], cancel: null, admin: ["delete", "call"], next: [], open: false },
  cancelled: { label: msg.orders.status.cancelled, percent: null, group: "cancelled", customer: ["contact"], cancel: null, admin: ["delete"], next: [], open: false },
  refunded: { label: msg.orders.status.refunded, percent: null, group: "refunded", customer: ["contact"], cancel: null, admin: ["delete"], next: [], open: false },
};

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === "string" && (ORDER_STATUSES as readonly string[]).includes(value);
}

export function groupLabel(group: OrderGroup) {
  return msg.orders.groups[group];
}

/** The statuses listed under a group (the admin tabs filter by these). */
export function statusesOf(group: OrderGroup): OrderStatus[] {
  return ORDER_STATUSES.filter((status) => STATUS_TABLE[status].group === group);
}

export type OrderState = {
  status: OrderStatus;
  paymentStatus: PaymentStatus;
  refundState: RefundState | null;
  /** Has the customer reviewed it already? */
  reviewed?: boolean;
  /** The unpaid order's 24 hours are over (the closer has not run yet). */
  expired?: boolean;
};

/** A refund that is waiting for an operator or the provider: nothing else may start meanwhile. */
export function refundUnderWay(refundState: RefundState | null) {
  return refundState === "requested" || refundState === "processing";
}

/**
 * The transitions of an order, each with the actor that starts it. Every status change on the
 * server (app/server/orders/transitions.server.ts) goes through one of these, and its guard —
 * the statuses, payment status and refund states it may start from — is read from the table
 * above by `transitionGuard`: the buttons (customerActions, adminActions, canAdvance) and the
 * conditional UPDATEs on the server read the same guard.
 */
export type Transition =
  /** The provider's confirmation (or a free order): pending payment → paid. */
  | { kind: "pay" }
  /** A payment for an order that was closed meanwhile: the money is recorded and refunded at once. */
  | { kind: "late_pay" }
  /** An unpaid order ends: cancelled by the customer or an operator, closed by the 24-hour closer. */
  | { kind: "close"; by: "customer" | "operator" | "system" }
  /** A paid order is cancelled: a refund starts at once (the order keeps its status meanwhile). */
  | { kind: "cancel_refund"; by: "customer" | "operator" }
  /** The customer asks for a refund (reason required); an operator decides. */
  | { kind: "refund_request" }
  /** The customer reviews a completed order (once). */
  | { kind: "review" }
  /** An operator moves a paid order on: assign, pick up, deliver, complete. */
  | { kind: "advance"; to: OrderStatus }
  /** 配送失败: the delivery failed (a reason): all parcels refunded, or the missing ones (the rest completed). */
  | { kind: "fail_delivery" };

export type TransitionGuard = {
  statuses: readonly OrderStatus[];
  paymentStatus: PaymentStatus;
  /** The refund states it may start from (null: no refund); undefined: any. */
  refundStates?: readonly (RefundState | null)[];
};

/** A refund may start (cancel or request) with none, or after one was rejected or failed. */
export const REFUND_MAY_START: readonly (RefundState | null)[] = [null, "rejected", "failed"];
/** Nothing under way: an operator's step is blocked while a refund is requested or processing. */
const NO_REFUND_UNDER_WAY: readonly (RefundState | null)[] = [null, ...REFUND_STATES.filter((state) => !refundUnderWay(state))];

function statusesWhere(test: (row: StatusRow, status: OrderStatus) => boolean) {
  return ORDER_STATUSES.filter((status) => test(STATUS_TABLE[status], status));
}

/** Where a transition may start from, read from the status table. */
export function transitionGuard(transition: Transition): TransitionGuard {
  switch (transition.kind) {
    case "pay":
      return { statuses: statusesWhere((row) => row.customer.includes("pay")), paymentStatus: "pending" };
    case "late_pay":
      return { statuses: statusesWhere((row) => row.group === "cancelled"), paymentStatus: "closed" };
    case "close":
      return {
        statuses: statusesWhere((row) => row.cancel === "close" && (transition.by !== "operator" || row.admin.includes("cancel"))),
        paymentStatus: "pending",
      };
    case "cancel_refund":
      return {
        statuses: statusesWhere((row) => (transition.by === "customer" ? row.cancel === "refund" : row.admin.includes("cancel") && row.cancel !== "close")),
        paymentStatus: "paid",
        refundStates: REFUND_MAY_START,
      };
    case "refund_request":
      return { statuses: statusesWhere((row) => row.customer.includes("refund")), paymentStatus: "paid", refundStates: REFUND_MAY_START };
    case "review":
      return { statuses: statusesWhere((row) => row.customer.includes("review")), paymentStatus: "paid" };
    case "fail_delivery":
      // Also after a refund settled: a parcel left at the station was refunded while the others go on.
      return { statuses: statusesWhere((row) => row.admin.includes("fail")), paymentStatus: "paid", refundStates: NO_REFUND_UNDER_WAY };
    case "advance":
      return {
        statuses: statusesWhere((row) => row.next.includes(transition.to) && (transition.to !== "completed" || row.admin.includes("complete"))),
        paymentStatus: "paid",
        refundStates: NO_REFUND_UNDER_WAY,
      };
  }
}

/** Does the order's state pass the guard? */
export function guardAllows(guard: TransitionGuard, state: Pick<OrderState, "status" | "paymentStatus" | "refundState">) {
  return (
    guard.statuses.includes(state.status) &&
    state.paymentStatus === guard.paymentStatus &&
    (guard.refundStates === undefined || guard.refundStates.includes(state.refundState))
  );
}

/** May this transition start from the order's state? */
export function canTransition(transition: Transition, state: Pick<OrderState, "status" | "paymentStatus" | "refundState">) {
  return guardAllows(transitionGuard(transition), state);
}

/** The actions the customer may take now, in the page's button order. */
export function customerActions(state: OrderState): CustomerAction[] {
  const row = STATUS_TABLE[state.status];
  return row.customer.filter((action) => {
    switch (action) {
      case "pay":
        return canTransition({ kind: "pay" }, state) && !state.expired;
      case "cancel":
        return canTransition({ kind: "close", by: "customer" }, state) || canTransition({ kind: "cancel_refund", by: "customer" }, state);
      case "refund":
        return canTransition({ kind: "refund_request" }, state);
      case "review":
        return !state.reviewed && canTransition({ kind: "review" }, state);
      case "contact":
        return true;
    }
  });
}

export function canCustomer(action: CustomerAction, state: OrderState) {
  return customerActions(state).includes(action);
}

/**
 * I4: does the order hold no money at all — never paid (and no longer payable), or refunded in
 * full? Only such an order may be soft-deleted: a deleted order leaves the queue, the search, the
 * CSV and the day's figures, so money on it would vanish from every operator's view.
 */
export function holdsNoMoney(state: Pick<OrderState, "status" | "paymentStatus" | "refundState">) {
  if (state.status === "cancelled") return state.paymentStatus === "closed" && !refundUnderWay(state.refundState);
  return state.status === "refunded" && state.paymentStatus === "refunded";
}

/**
 * 已超时: a paid order still to be delivered (paid … delivering) whose promised time has passed.
 * Shown to the operator on the card and to the student with an apology, until it is delivered,
 * refunded or cancelled.
 */
export function isLate(state: Pick<OrderState, "status" | "paymentStatus">, estimatedDeliveryAt: string, at: Date = new Date()) {
  const row = STATUS_TABLE[state.status];
  return row.open && state.status !== "created" && state.paymentStatus === "paid" && Date.parse(estimatedDeliveryAt) < at.getTime();
}

/** What an operator may do now (the admin issue's buttons). A refund under way blocks cancel and complete. */
export function adminActions(state: OrderState): AdminAction[] {
  const row = STATUS_TABLE[state.status];
  return row.admin.filter((action) => {
    if (action === "delete") return holdsNoMoney(state);
    if (action === "fail") return canTransition({ kind: "fail_delivery" }, state);
    if (action === "cancel") return canTransition({ kind: "close", by: "operator" }, state) || canTransition({ kind: "cancel_refund", by: "operator" }, state);
    if (action === "complete") return canTransition({ kind: "advance", to: "completed" }, state);
    return true;
  });
}

/** May an operator move the order from its status to `to`? */
export function canAdvance(state: OrderState, to: OrderStatus) {
  return canTransition({ kind: "advance", to }, state);
}

/**
 * What the amount row says: 'paid' (实付金额) only for money that was paid (also when it was
 * refunded since), 'due' (应付金额) while unpaid, 'total' (订单金额) for an order closed unpaid.
 */
export type AmountKind = "paid" | "due" | "total";

export function amountKind(state: Pick<OrderState, "paymentStatus">): AmountKind {
  if (state.paymentStatus === "paid" || state.paymentStatus === "refunded") return "paid";
  return state.paymentStatus === "pending" ? "due" : "total";
}

/**
 * The banner after a customer's cancel, agreeing with the status: a paid order cancelled is a
 * refund — '退款处理中' while it is on its way, '已退款' once the status says refunded.
 */
export function cancelNotice(state: Pick<OrderState, "status" | "refundState">): string {
  if (state.status === "refunded" || state.refundState === "refunded") return msg.orders.done.cancelRefunded;
  if (state.status === "cancelled") return msg.orders.done.cancelled;
  if (state.refundState === "failed") return msg.orders.refundState.failed;
  return msg.orders.done.cancelRefund;
}

export type OrderView = {
  label: string;
  percent: number | null;
  group: OrderGroup;
  groupLabel: string;
  /** 'refund processing' and its siblings, shown beside the status; null when no refund. */
  refundLabel: string | null;
  actions: CustomerAction[];
  amountKind: AmountKind;
  /** Show the estimated delivery (only while the delivery is still to come). */
  showEstimate: boolean;
};

/** Everything the pages show of an order's state. */
export function orderView(state: OrderState): OrderView {
  const row = STATUS_TABLE[state.status];
  const refundLabel =
    state.refundState && state.refundState !== "refunded" && state.status !== "refunded" ? msg.orders.refundState[state.refundState] : null;
  return {
    label: row.label,
    percent: row.percent,
    group: row.group,
    groupLabel: groupLabel(row.group),
    refundLabel,
    actions: customerActions(state),
    amountKind: amountKind(state),
    showEstimate: row.open && !state.expired,
  };
}
