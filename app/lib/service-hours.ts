// Service hours and contact details, each value defined once. The customer-service page, its FAQ
// and (later) the order page's contact dialog all read from here.
//
// The product rules disagree with themselves: the service notice says customer service is 8:00–22:00, the
// FAQ answer says 8:00–21:00. Both readings are kept as separate values and the page shows both.
// Safe in the browser: plain data, no I/O.
import { customerService as customerServiceMessages } from "~/lib/messages/customerService";
import { fillTemplate } from "./template";

const msg = { customerService: customerServiceMessages };

/** "8:00", "21:00": hours without a leading zero, as the notice prints them. */
export type ClockTime = `${number}:${number}`;

/** Which days a window applies to; the labels live in msg.customerService.days. */
export type ServiceDays = keyof typeof msg.customerService.days;

export type ServiceWindow = { days: ServiceDays; from: ClockTime; to: ClockTime };

/** Express pickup: every day. */
export const PICKUP_HOURS: ServiceWindow = { days: "daily", from: "8:00", to: "22:00" };

/** Parcel sending: Monday to Friday. */
export const PARCEL_SENDING_HOURS: ServiceWindow = { days: "weekdays", from: "9:00", to: "18:00" };

/** Online customer service, as the service notice states it. */
export const CUSTOMER_SERVICE_HOURS: ServiceWindow = { days: "daily", from: "8:00", to: "22:00" };

/** The phone line: working days only. */
export const PHONE_LINE_HOURS: ServiceWindow = { days: "workdays", from: "9:00", to: "21:00" };

/** Customer service as the FAQ answer states it (the product rules' other reading). */
export const FAQ_SERVICE_HOURS: ServiceWindow = { days: "daily", from: "8:00", to: "21:00" };

/** The order page's "contact service" dialog. */
export const CONTACT_DIALOG_HOURS: ServiceWindow = { days: "daily", from: "9:00", to: "21:00" };

/** Customer service usually replies within this many minutes. */
export const REPLY_WITHIN_MINUTES = 5;

/** The customer-service phone: how it is printed and what a tel: link dials. */
export const SERVICE_PHONE = { display: "0731-8888 6666", dial: "+86-731-8888-6666" } as const;

export const SERVICE_PHONE_HREF = `tel:${SERVICE_PHONE.dial}`;

/** The placeholder the FAQ content uses for the service hours. */
export const FAQ_HOURS_PLACEHOLDER = "{faqServiceHours}";

/** "8:00–22:00" */
export function formatHours(window: ServiceWindow) {
  return `${window.from}–${window.to}`;
}

/** "每天 8:00–22:00" */
export function formatWindow(window: ServiceWindow) {
  return `${msg.customerService.days[window.days]} ${formatHours(window)}`;
}

/** Replaces each `{name}` in a catalogue template (its home is ./template; re-exported here). */
export { fillTemplate };

/** An FAQ answer with its `{faqServiceHours}` placeholder filled in. */
export function fillFaq(text: string) {
  return text.split(FAQ_HOURS_PLACEHOLDER).join(formatHours(FAQ_SERVICE_HOURS));
}

/** Whether an FAQ answer quotes the service hours (the page then adds the other reading). */
export function mentionsServiceHours(text: string) {
  return text.includes(FAQ_HOURS_PLACEHOLDER);
}

export type NoticeRow = { key: string; label: string; value: string };

/** The service notice, one row per rule, in the product rules' order. */
export function serviceNotice(): NoticeRow[] {
  const cs = msg.customerService;
  return [
    { key: "pickup", label: cs.noticePickup, value: formatWindow(PICKUP_HOURS) },
    { key: "sending", label: cs.noticeSending, value: formatWindow(PARCEL_SENDING_HOURS) },
    { key: "service", label: cs.noticeService, value: formatWindow(CUSTOMER_SERVICE_HOURS) },
    { key: "phone", label: cs.noticePhone, value: formatWindow(PHONE_LINE_HOURS) },
    { key: "reply", label: cs.noticeReply, value: fillTemplate(cs.replyWithin, { minutes: REPLY_WITHIN_MINUTES }) },
  ];
}

/** The note under the FAQ's hours answer, giving the notice's reading next to the FAQ's. */
export function faqHoursNote() {
  return fillTemplate(msg.customerService.faqHoursNote, {
    serviceDays: msg.customerService.days[CUSTOMER_SERVICE_HOURS.days],
    serviceHours: formatHours(CUSTOMER_SERVICE_HOURS),
    phoneDays: msg.customerService.days[PHONE_LINE_HOURS.days],
    phoneHours: formatHours(PHONE_LINE_HOURS),
  });
}

/** "工作日 9:00–21:00 接听" */
export function phoneHoursLine() {
  return fillTemplate(msg.customerService.phoneHours, {
    days: msg.customerService.days[PHONE_LINE_HOURS.days],
    hours: formatHours(PHONE_LINE_HOURS),
  });
}
