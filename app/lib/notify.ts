// The rules of notifications that need no I/O: the events other code reports, the template and
// subscribe keys with their data fields (each defined once), which messages an event sends, the
// retry schedule, the subscribe widget's 'later' snooze and 7-day validity, and the inbox texts.
// Safe in the browser (the widget reads the status rules), but mostly used by server/notify.
import { notify as notifyMessages } from "~/lib/messages/notify";
import { commentLinkHref } from "./comment-tree";
import { formatYuan } from "./money";
import type { OrderStatus } from "./order-status";
import { fillTemplate } from "./template";
import { formatShanghai } from "./time";
import { deleteDataParams } from "./request-kind";

const msg = { notify: notifyMessages };

// ---------------------------------------------------------------------------------------------
// Events: notify(event) is the only way other code sends anything.

/**
 * The order events a customer is told of: statuses of the order-status table (not 'created' nor
 * 'picking', which send nothing) and the supplement offered when a parcel is found bigger at pickup.
 */
export const NOTIFIED_ORDER_EVENTS = ["paid", "assigned", "delivering", "completed", "cancelled", "refunded", "supplement_offered"] as const satisfies readonly (OrderStatus | "supplement_offered")[];
export type OrderEventStatus = (typeof NOTIFIED_ORDER_EVENTS)[number];

/** What an order event carries (the orders issue fills it; tests use synthetic ones). */
export type OrderEventData = {
  status: OrderEventStatus;
  /** The public order number, 'E' + yyyyMMdd + 6 digits. */
  orderNumber: string;
  /** What the customer paid, in fen. */
  amountFen: number;
  parcelCount: number;
  campusName: string;
  dorm: string;
  room: string;
  /** The order's address snapshot (lib/address orderAddress); messages show it as it was ordered. */
  address?: string;
  /** When it happened (ISO UTC); the message shows it in Shanghai time. Default: now. */
  at?: string;
  /** The promised delivery, as shown to the customer ('今天 13:30'). */
  estimatedDelivery?: string;
  /** Who delivered it (DELIVERY_COMPLETED); default '校园帮配送员'. */
  courierLabel?: string;
  /** supplement_offered: a parcel found bigger at pickup — the sizes' names and the difference to pay. */
  supplement?: { amountFen: number; declared: string; real: string };
};

/** A reply or like in the circle. `actorName` is what the post shows (the anonymous label for an anonymous author). */
export type CircleEventData = {
  postId: number;
  /** The comment that was written or liked (replies and comment likes). */
  commentId?: number;
  /** Who did it: never shown nor sent; it lets a deleted account take its traces with it. */
  actorUserId: number;
  actorName: string;
  /** A short excerpt of the reply, or of the liked post or comment. */
  excerpt: string;
  /** The top-level comment whose thread holds the comment (a reply), to open it at the comment. */
  threadId?: number | null;
  /** The reply cursor of the thread's page that ends with the reply (null: its first page). */
  threadFrom?: number | null;
};

export type CourseReminderData = { course: string; time: string; place: string; startsAt: string; endsAt: string; reminderId: number };

/** A refresh of the grades found results the previous copy did not have. Never the scores: course names only. */
export type NewGradesData = { courses: string[]; count: number; discoveryKey: string; at?: string };

export type AnnouncementData = { title: string; content: string; link?: string; announcementId: string };

/** 我来帮忙 on a mutual-help request: the other side's name and contact. */
export type HelpEventData = { postId: number; actorUserId: number; actorName: string; course: string; contact: string };

export type NotifyEvent =
  | { kind: "help_offered"; recipientUserId: number; data: HelpEventData }
  | { kind: "help_contact"; recipientUserId: number; data: HelpEventData }
  | { kind: "post_reply"; recipientUserId: number; data: CircleEventData }
  | { kind: "comment_reply"; recipientUserId: number; data: CircleEventData }
  | { kind: "comment_mention"; recipientUserId: number; data: CircleEventData }
  | { kind: "post_liked"; recipientUserId: number; data: CircleEventData }
  | { kind: "comment_liked"; recipientUserId: number; data: CircleEventData }
  | { kind: "order_status"; recipientUserId: number; data: OrderEventData }
  | { kind: "course_reminder"; recipientUserId: number; data: CourseReminderData }
  | { kind: "announcement"; recipientUserId: number; data: AnnouncementData }
  | { kind: "new_grades"; recipientUserId: number; data: NewGradesData };

export type NotifyKind = NotifyEvent["kind"];

/** Kinds that appear in the in-app inbox (course reminders only go to the messenger). */
export const INBOX_KINDS = ["post_reply", "comment_reply", "comment_mention", "post_liked", "comment_liked", "order_status", "announcement", "help_offered", "help_contact", "new_grades"] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];

export function isInboxKind(kind: string): kind is InboxKind {
  return (INBOX_KINDS as readonly string[]).includes(kind);
}

// ---------------------------------------------------------------------------------------------
// Templates and subscribe templates

export const TEMPLATE_KEYS = ["EXPRESS_ORDER", "NEW_ORDER", "DELIVERY_COMPLETED", "COURSE_REMINDER", "GRADE_RELEASED"] as const;
export type TemplateKey = (typeof TEMPLATE_KEYS)[number];

export const SUBSCRIBE_KEYS = ["EXPRESS_DELIVERY", "ORDER_STATUS", "ORDER_ACCEPTED", "SYSTEM_NOTICE"] as const;
export type SubscribeKey = (typeof SUBSCRIBE_KEYS)[number];

export function isTemplateKey(value: unknown): value is TemplateKey {
  return typeof value === "string" && (TEMPLATE_KEYS as readonly string[]).includes(value);
}

export function isSubscribeKey(value: unknown): value is SubscribeKey {
  return typeof value === "string" && (SUBSCRIBE_KEYS as readonly string[]).includes(value);
}

/**
 * Each template's data fields, in the order of the template's keywords. The configured template
 * id may name the provider's keys (`id|character_string1,amount2,…`); otherwise keyword1…n.
 */
export const TEMPLATE_FIELDS = {
  EXPRESS_ORDER: ["orderNumber", "amount", "parcelCount", "time", "estimatedDelivery"],
  NEW_ORDER: ["orderNumber", "campus", "dormRoom", "parcelCount", "time"],
  DELIVERY_COMPLETED: ["orderNumber", "time", "address", "courier"],
  COURSE_REMINDER: ["course", "time", "place"],
  GRADE_RELEASED: ["courses", "count", "time"],
} as const satisfies Record<TemplateKey, readonly string[]>;

export type TemplateFields<K extends TemplateKey> = Record<(typeof TEMPLATE_FIELDS)[K][number], string>;

/** The fields a subscribe-only message (no template) fills its content from. */
export const SUBSCRIBE_ONLY_FIELDS = {
  ORDER_ACCEPTED: ["orderNumber", "time"],
  SYSTEM_NOTICE: ["title", "content"],
} as const;

/** Which one-time subscribe template stands in when the template API cannot reach the customer. */
export const SUBSCRIBE_FALLBACK: Partial<Record<OrderEventStatus, SubscribeKey>> = {
  paid: "ORDER_STATUS",
  assigned: "ORDER_ACCEPTED",
  completed: "EXPRESS_DELIVERY",
};

/** The provider's limits: a subscribe title ≤ 15 characters, its content ≤ 200; a template value ≤ 200 here. */
export const SUBSCRIBE_TITLE_MAX = 15;
export const SUBSCRIBE_CONTENT_MAX = 200;
export const TEMPLATE_VALUE_MAX = 200;

export function clip(text: string, max: number) {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** The named fields of a message, as the outbox stores them. */
export type MessageFields = Record<string, string>;

/** One message an event sends; `to` says who receives it. */
export type PlannedMessage = {
  to: "recipient" | "operators";
  templateKey: TemplateKey | null;
  /** The one-time subscribe template: the fallback of a template, or the only channel when templateKey is null. */
  subscribeKey: SubscribeKey | null;
  fields: MessageFields;
  /** A path of ours the message links to. */
  path: string | null;
  /** After this instant the message is pointless (a course reminder after the class). */
  expiresAt?: string;
};

/** The messages an event sends through the messenger (the inbox is separate). */
export function plannedMessages(event: NotifyEvent, now: Date): PlannedMessage[] {
  switch (event.kind) {
    case "order_status":
      return orderMessages(event.data, now);
    case "course_reminder": {
      const { course, time, place } = event.data;
      return [
        {
          to: "recipient",
          templateKey: "COURSE_REMINDER",
          subscribeKey: null,
          fields: { course, time, place } satisfies TemplateFields<"COURSE_REMINDER">,
          path: "/schedule",
          expiresAt: event.data.startsAt,
        },
      ];
    }
    case "new_grades":
      return [
        {
          to: "recipient",
          templateKey: "GRADE_RELEASED",
          subscribeKey: null,
          fields: {
            courses: newGradesCourses(event.data),
            count: fillTemplate(msg.notify.message.gradeCount, { count: event.data.count }),
            time: formatShanghai(event.data.at ?? now.toISOString()),
          } satisfies TemplateFields<"GRADE_RELEASED">,
          path: "/backpack/grades",
        },
      ];
    case "announcement":
      return [
        {
          to: "recipient",
          templateKey: null,
          subscribeKey: "SYSTEM_NOTICE",
          fields: { title: event.data.title, content: event.data.content },
          path: event.data.link ?? "/backpack/inbox",
        },
      ];
    case "help_offered":
      // The requester, by the messenger too when they agreed to system notices.
      return [
        {
          to: "recipient",
          templateKey: null,
          subscribeKey: "SYSTEM_NOTICE",
          fields: {
            title: clip(msg.notify.help.subscribeTitle, SUBSCRIBE_TITLE_MAX),
            content: clip(fillTemplate(msg.notify.help.subscribeContent, { actor: event.data.actorName, course: event.data.course, contact: event.data.contact }), SUBSCRIBE_CONTENT_MAX),
          },
          path: `/post/${event.data.postId}/help`,
        },
      ];
    case "post_reply":
    case "comment_reply":
    case "comment_mention":
      // A reply reaches the author in the messenger too, while they hold a consent (their opt-in).
      return [
        {
          to: "recipient",
          templateKey: null,
          subscribeKey: "SYSTEM_NOTICE",
          fields: {
            title: clip(msg.notify.circle.subscribeTitle, SUBSCRIBE_TITLE_MAX),
            content: clip(`${fillTemplate(msg.notify.items[event.kind], { actor: event.data.actorName })}：${event.data.excerpt}`, SUBSCRIBE_CONTENT_MAX),
          },
          path: circleLink(event.data),
        },
      ];
    default:
      // Likes, the helper's copy of a contact: the inbox only.
      return [];
  }
}

/** Where a circle notice leads: the comment on its post (opening its thread when it is a reply). */
export function circleLink(data: Pick<CircleEventData, "postId" | "commentId" | "threadId" | "threadFrom">) {
  if (!data.commentId) return `/post/${data.postId}`;
  return commentLinkHref(`/post/${data.postId}`, data.commentId, data.threadId, data.threadFrom);
}

/** The circle notices a student can switch off (settings), each covering its event kinds. */
export const NOTICE_SWITCHES = ["replies", "mentions", "likes"] as const;
export type NoticeSwitch = (typeof NOTICE_SWITCHES)[number];

export function noticeSwitchOf(kind: NotifyKind): NoticeSwitch | null {
  if (kind === "post_reply" || kind === "comment_reply") return "replies";
  if (kind === "comment_mention") return "mentions";
  if (kind === "post_liked" || kind === "comment_liked") return "likes";
  return null;
}

/** '数据结构、操作系统等3门' : the first names and the count, short enough for a template value. */
export function newGradesCourses(data: Pick<NewGradesData, "courses" | "count">) {
  const shown = data.courses.slice(0, 3).join("、");
  return data.count > 3 ? fillTemplate(msg.notify.message.gradeCoursesMore, { courses: shown, count: data.count }) : shown;
}

function orderMessages(order: OrderEventData, now: Date): PlannedMessage[] {
  const time = formatShanghai(order.at ?? now.toISOString());
  const orderPath = `/express/orders/${order.orderNumber}`;
  const parcelCount = fillTemplate(msg.notify.message.parcels, { count: order.parcelCount });
  switch (order.status) {
    case "paid":
      return [
        {
          to: "recipient",
          templateKey: "EXPRESS_ORDER",
          subscribeKey: SUBSCRIBE_FALLBACK.paid!,
          fields: {
            orderNumber: order.orderNumber,
            amount: fillTemplate(msg.notify.message.amount, { yuan: formatYuan(order.amountFen, { style: "amount" }) }),
            parcelCount,
            time,
            estimatedDelivery: order.estimatedDelivery ?? "",
          } satisfies TemplateFields<"EXPRESS_ORDER">,
          path: orderPath,
        },
        {
          to: "operators",
          templateKey: "NEW_ORDER",
          subscribeKey: null,
          fields: {
            orderNumber: order.orderNumber,
            campus: order.campusName,
            dormRoom: fillTemplate(msg.notify.message.dormRoom, { dorm: order.dorm, room: order.room }).trim(),
            parcelCount,
            time,
          } satisfies TemplateFields<"NEW_ORDER">,
          path: `/admin/orders?q=${encodeURIComponent(order.orderNumber)}`,
        },
      ];
    case "assigned":
      return [
        {
          to: "recipient",
          templateKey: null,
          subscribeKey: SUBSCRIBE_FALLBACK.assigned!,
          fields: { orderNumber: order.orderNumber, time },
          path: orderPath,
        },
      ];
    case "completed":
      return [
        {
          to: "recipient",
          templateKey: "DELIVERY_COMPLETED",
          subscribeKey: SUBSCRIBE_FALLBACK.completed!,
          fields: {
            orderNumber: order.orderNumber,
            time,
            address: order.address ?? [order.campusName, order.dorm, order.room].filter(Boolean).join(" "),
            courier: order.courierLabel ?? msg.notify.message.courier,
          } satisfies TemplateFields<"DELIVERY_COMPLETED">,
          // Product rules: the delivery-completed message links to the market page.
          path: "/market",
        },
      ];
    case "supplement_offered": {
      // The student answers on the order page: the order template with the amount to pay, or a
      // system notice when the template cannot reach them.
      const supplement = order.supplement;
      if (!supplement) return [];
      const found = supplementFound(supplement);
      return [
        {
          to: "recipient",
          templateKey: "EXPRESS_ORDER",
          subscribeKey: "SYSTEM_NOTICE",
          fields: {
            orderNumber: order.orderNumber,
            amount: fillTemplate(msg.notify.message.supplementAmount, { yuan: formatYuan(supplement.amountFen, { style: "amount" }) }),
            parcelCount: fillTemplate(msg.notify.message.parcels, { count: 1 }),
            time,
            estimatedDelivery: order.estimatedDelivery ?? "",
            title: clip(msg.notify.message.supplementTitle, SUBSCRIBE_TITLE_MAX),
            content: clip(found, SUBSCRIBE_CONTENT_MAX),
          } satisfies TemplateFields<"EXPRESS_ORDER"> & Record<"title" | "content", string>,
          path: orderPath,
        },
      ];
    }
    default:
      return [];
  }
}

/** 骑手取件时发现包裹为大件（下单为口袋件），需补差价 ¥3.00。 */
function supplementFound(supplement: NonNullable<OrderEventData["supplement"]>) {
  return fillTemplate(msg.notify.message.supplementFound, { real: supplement.real, declared: supplement.declared, amount: fillTemplate(msg.notify.message.amount, { yuan: formatYuan(supplement.amountFen, { style: "amount" }) }) });
}

/** The template's `data` as the provider wants it: {key: {value}}, keys configured or keyword1…n. */
export function templateData(key: TemplateKey, fields: MessageFields, providerKeys?: readonly string[]) {
  const data: Record<string, { value: string }> = {};
  TEMPLATE_FIELDS[key].forEach((field, index) => {
    const name = providerKeys?.[index] ?? `keyword${index + 1}`;
    data[name] = { value: clip(fields[field] ?? "", TEMPLATE_VALUE_MAX) };
  });
  return data;
}

/** The one-time subscribe message: title (≤ 15) and content (≤ 200) from the same fields. */
export function subscribeMessage(key: SubscribeKey, fields: MessageFields) {
  const values = { ...fields };
  return {
    title: clip(msg.notify.message.subscribeTitles[key], SUBSCRIBE_TITLE_MAX),
    content: clip(fillTemplate(msg.notify.message.subscribeContent[key], values), SUBSCRIBE_CONTENT_MAX),
  };
}

/** The scene number of a subscribe template (the provider allows 0–10000). */
export function subscribeScene(key: SubscribeKey) {
  return 1000 + SUBSCRIBE_KEYS.indexOf(key) + 1;
}

// ---------------------------------------------------------------------------------------------
// Retries

/** The first retry waits 30 s, each further one twice as long, never more than an hour. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60_000;

/** How long to wait after the `attempts`-th failed attempt (1 = the first). */
export function retryDelayMs(attempts: number) {
  const exponent = Math.max(0, Math.min(attempts, 32) - 1);
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** exponent);
}

// ---------------------------------------------------------------------------------------------
// The subscribe widget

/** 'Later' hides the widget for one hour; an authorization is valid 7 days (docs/product-rules.md, "Limits"). */
export const SUBSCRIBE_SNOOZE_MS = 60 * 60_000;
export const SUBSCRIBE_VALID_MS = 7 * 24 * 60 * 60_000;

export const WIDGET_MODES = ["card", "modal", "float", "button"] as const;
export type WidgetMode = (typeof WIDGET_MODES)[number];

export type Consent = { confirmedAt: string; usedAt: string | null };

export function consentExpiresAt(confirmedAt: string) {
  return new Date(new Date(confirmedAt).getTime() + SUBSCRIBE_VALID_MS).toISOString();
}

/** A confirm allows one send within 7 days. */
export function consentUsable(consent: Consent | null | undefined, now: Date) {
  if (!consent || consent.usedAt) return false;
  const confirmed = Date.parse(consent.confirmedAt);
  return !Number.isNaN(confirmed) && now.getTime() < confirmed + SUBSCRIBE_VALID_MS;
}

export function snoozeUntil(now: Date) {
  return new Date(now.getTime() + SUBSCRIBE_SNOOZE_MS).toISOString();
}

export function isSnoozed(until: string | null | undefined, now: Date) {
  return Boolean(until) && now.getTime() < Date.parse(until!);
}

export type WidgetStatus = "subscribed" | "snoozed" | "prompt";

/** subscribed: an unused, unexpired consent; snoozed: 'later' within the hour; else prompt. */
export function widgetStatus(input: { consent: Consent | null; snoozedUntil: string | null; now: Date }): WidgetStatus {
  if (consentUsable(input.consent, input.now)) return "subscribed";
  if (isSnoozed(input.snoozedUntil, input.now)) return "snoozed";
  return "prompt";
}

/** What a page's loader hands the subscribe widget (server/notify/subscribe.server's subscribeWidgetState). */
export type WidgetState = {
  templateKey: SubscribeKey;
  status: WidgetStatus;
  /** The result of the last subscribe round trip for this template (from the URL). */
  notice: SubscribeNotice | null;
  /** The page the widget is on, where 'later' and the confirm page come back to. */
  returnTo: string;
};

/** The product rules' helper codes, and ours for a confirm that did not come back right. */
export const SUBSCRIBE_ERROR_CODES = ["NOT_WECHAT_ENV", "TEMPLATE_NOT_FOUND", "FAILED"] as const;
export type SubscribeErrorCode = (typeof SUBSCRIBE_ERROR_CODES)[number];
export type SubscribeNotice = "ok" | "cancel" | SubscribeErrorCode;

export function isSubscribeNotice(value: unknown): value is SubscribeNotice {
  return value === "ok" || value === "cancel" || (SUBSCRIBE_ERROR_CODES as readonly string[]).includes(value as string);
}

export const SUBSCRIBE_START_PATH = "/api/wechat/subscribe";
export const SUBSCRIBE_CALLBACK_PATH = "/api/wechat/subscribe/callback";
export const SIMULATED_SUBSCRIBE_PATH = "/api/wechat/simulate-subscribe";

/** The link that starts a subscription (a GET: the answer is a redirect to the messenger's page). */
export function subscribeHref(key: SubscribeKey, returnTo: string) {
  return `${SUBSCRIBE_START_PATH}?${new URLSearchParams({ template: key, returnTo }).toString()}`;
}

/** The page's path with the widget's result added (and any older result removed). */
export function withSubscribeNotice(returnTo: string, key: string, notice: SubscribeNotice) {
  const url = new URL(returnTo, "http://same.origin");
  url.searchParams.set("subscribe", notice);
  url.searchParams.set("subscribeKey", key);
  return url.pathname + url.search + url.hash;
}

/** The page's own path without the widget's result parameters (what 'later' and 'subscribe' return to). */
export function withoutSubscribeNotice(path: string) {
  const url = new URL(path, "http://same.origin");
  url.searchParams.delete("subscribe");
  url.searchParams.delete("subscribeKey");
  deleteDataParams(url.searchParams);
  return url.pathname + url.search;
}

// ---------------------------------------------------------------------------------------------
// The inbox

export const INBOX_PAGE_SIZE = 20;
export const EXCERPT_MAX = 60;

/** '99+' above 99; nothing at 0. */
export function badgeText(count: number) {
  if (count <= 0) return null;
  return count > 99 ? "99+" : String(count);
}

export type InboxText = { title: string; body: string; icon: "chat" | "heart" | "order" | "bell" };

/** The title and body of an inbox item, from its kind and stored fields. */
export function inboxText(kind: string, data: Record<string, unknown>): InboxText {
  const text = (key: string) => (typeof data[key] === "string" ? (data[key] as string) : "");
  const actor = text("actorName") || msg.notify.inbox.someone;
  switch (kind) {
    case "post_reply":
    case "comment_reply":
    case "comment_mention":
      return { title: fillTemplate(msg.notify.items[kind], { actor }), body: text("excerpt"), icon: "chat" };
    case "post_liked":
    case "comment_liked": {
      // One item a day gathers the likes: the latest one named, and how many there were.
      const count = typeof data.count === "number" ? data.count : 1;
      const title = count > 1 ? fillTemplate(msg.notify.items.likesToday, { actor, count }) : fillTemplate(msg.notify.items[kind], { actor });
      return { title, body: text("excerpt"), icon: "heart" };
    }
    case "order_status": {
      const status = text("status") as OrderEventStatus;
      const supplement = data.supplement as OrderEventData["supplement"] | undefined;
      return {
        title: fillTemplate(msg.notify.items.order_status, { orderNumber: text("orderNumber") }),
        body: status === "supplement_offered" && supplement ? supplementFound(supplement) : (msg.notify.orderStatus[status as Exclude<OrderEventStatus, "supplement_offered">] ?? ""),
        icon: "order",
      };
    }
    case "announcement":
      return { title: text("title") || msg.notify.items.announcement, body: text("content"), icon: "bell" };
    case "new_grades":
      return {
        title: msg.notify.items.new_grades,
        body: fillTemplate(msg.notify.message.gradeInboxBody, { courses: text("courses") }),
        icon: "bell",
      };
    case "help_offered":
      return {
        title: fillTemplate(msg.notify.items.help_offered, { actor, course: text("course") }),
        body: fillTemplate(msg.notify.help.contact, { contact: text("contact") }),
        icon: "chat",
      };
    case "help_contact":
      return {
        title: fillTemplate(msg.notify.items.help_contact, { course: text("course") }),
        body: text("contact") ? fillTemplate(msg.notify.help.requesterContact, { contact: text("contact") }) : msg.notify.help.requesterNoContact,
        icon: "chat",
      };
    default:
      return { title: msg.notify.items.announcement, body: "", icon: "bell" };
  }
}
