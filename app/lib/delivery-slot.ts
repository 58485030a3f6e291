// When an order will be delivered, from the delivery schedule (data, seeded with the product rules'
// default). Business time is Asia/Shanghai. Each slot takes orders up to its order_end_time
// (inclusive, to the minute) and names the estimated delivery time; an order placed after the
// last slot's end goes to the first slot of the next day.

import { addDays, shanghaiInstant, shanghaiMinuteOfDay, shanghaiToday } from "./time";

export type DeliverySlot = {
  /** The stored slot's id (its capacity per campus is kept by it); absent for the default schedule. */
  id?: number;
  order_start_time: string; // "08:00"
  order_end_time: string; // "11:45"
  delivery_start_time: string; // "11:45"
  delivery_end_time: string; // "13:50"
  /** The time promised to the customer ("13:30"); the delivery end when absent. */
  estimated_time?: string;
};

/** The product rules' default schedule: the rule "≤ 11:45 → 13:30, ≤ 17:30 → 19:30, later → next day 13:30". */
export const DEFAULT_DELIVERY_SCHEDULE: DeliverySlot[] = [
  { order_start_time: "08:00", order_end_time: "11:45", delivery_start_time: "11:45", delivery_end_time: "13:50", estimated_time: "13:30" },
  { order_start_time: "11:45", order_end_time: "17:30", delivery_start_time: "17:30", delivery_end_time: "19:30", estimated_time: "19:30" },
];

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidSlot(slot: unknown): slot is DeliverySlot {
  if (!slot || typeof slot !== "object") return false;
  const s = slot as Record<string, unknown>;
  return (
    ["order_start_time", "order_end_time", "delivery_start_time", "delivery_end_time"].every(
      (key) => typeof s[key] === "string" && HHMM.test(s[key] as string),
    ) &&
    (s.estimated_time === undefined || (typeof s.estimated_time === "string" && HHMM.test(s.estimated_time)))
  );
}

function minutes(hhmm: string) {
  const [, h, m] = HHMM.exec(hhmm)!;
  return Number(h) * 60 + Number(m);
}

export type DeliveryEstimate = {
  /** The Shanghai date of the delivery, "2026-11-22". */
  day: string;
  /** "13:30" */
  time: string;
  /** 0 = today, 1 = tomorrow. */
  dayOffset: number;
  /** The instant, ISO UTC. */
  at: string;
};

export function estimateDelivery(orderedAt: Date, schedule: DeliverySlot[] = DEFAULT_DELIVERY_SCHEDULE): DeliveryEstimate {
  return slotOccurrences(orderedAt, schedule)[0]!;
}

export type SlotOccurrence = DeliveryEstimate & { slotId: number | null };

/**
 * The deliveries an order placed now could be promised, in order: the slot it falls in (the
 * estimate), then every later slot of today and tomorrow. A full slot moves an order to the next.
 */
export function slotOccurrences(orderedAt: Date, schedule: DeliverySlot[] = DEFAULT_DELIVERY_SCHEDULE): SlotOccurrence[] {
  const valid = schedule.filter(isValidSlot);
  const slots = (valid.length > 0 ? valid : DEFAULT_DELIVERY_SCHEDULE).slice().sort((a, b) => minutes(a.order_end_time) - minutes(b.order_end_time));
  const today = shanghaiToday(orderedAt);
  const now = shanghaiMinuteOfDay(orderedAt);
  const occurrences: SlotOccurrence[] = [];
  for (const dayOffset of [0, 1]) {
    for (const slot of slots) {
      if (dayOffset === 0 && now > minutes(slot.order_end_time)) continue;
      const day = addDays(today, dayOffset);
      const time = slot.estimated_time ?? slot.delivery_end_time;
      const [hour, minute] = time.split(":").map(Number);
      occurrences.push({ day, time, dayOffset, at: shanghaiInstant(day, hour, minute).toISOString(), slotId: slot.id ?? null });
    }
  }
  return occurrences;
}

/**
 * The promise for an order: the first occurrence with room (`hasRoom` says; no capacity: room).
 * When every slot of today and tomorrow is full, the last one (the order is not refused: the
 * operators see the slot over its capacity).
 */
export function firstWithRoom<T extends SlotOccurrence>(occurrences: readonly T[], hasRoom: (occurrence: T) => boolean): T {
  return occurrences.find(hasRoom) ?? occurrences[occurrences.length - 1]!;
}
