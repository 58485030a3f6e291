import * as z from "zod";
import { CAMPUS_STATUSES, PACKAGE_TYPE_KEYS } from "../catalog";
import { adminReference } from "../messages/adminReference";
import { parseYuan, YUAN_PATTERN } from "../money";
import { GPA_FORMULAS, isGpaFormula } from "../grades";
import { SCHOOL_SYSTEM_KINDS, isSchoolSystemKind, systemNeedsBaseUrl } from "../school-systems";
import { fillTemplate } from "../template";

// The reference-data forms of the admin area, each told apart by `intent`. Imported by
// loaders and actions only. Every message is the Chinese one shown beside its field.

const e = adminReference.errors;

export const REFERENCE_LIMITS = { code: 32, name: 30, schoolName: 40, desc: 40, baseUrl: 300, priceMaxFen: 99_900 } as const;
export const REFERENCE_CODE_PATTERN = /^[a-z0-9][a-z0-9-]{1,31}$/;
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

const code = z
  .string({ error: e.codeRequired })
  .trim()
  .toLowerCase()
  .min(1, e.codeRequired)
  .regex(REFERENCE_CODE_PATTERN, e.codeFormat);

function name(max: number) {
  return z
    .string({ error: e.nameRequired })
    .trim()
    .min(1, e.nameRequired)
    .max(max, fillTemplate(e.nameMax, { max }));
}

const id = z.coerce.number({ error: e.invalid }).int(e.invalid).positive(e.invalid);
/** A checkbox: present ("on") is true, absent is false. */
const checkbox = z.preprocess((value) => value === "on" || value === "1" || value === "true" || value === true, z.boolean());

const schoolFields = {
  name: name(REFERENCE_LIMITS.schoolName),
  system: z.string({ error: e.systemInvalid }).refine(isSchoolSystemKind, e.systemInvalid),
  baseUrl: z.string().trim().max(REFERENCE_LIMITS.baseUrl, e.baseUrlFormat).optional(),
  // A form from before the rule was offered sends none: the standard table.
  gpaFormula: z.string({ error: e.gpaFormulaInvalid }).default("standard4").refine(isGpaFormula, e.gpaFormulaInvalid),
  enabled: checkbox,
};

type SchoolFieldsValue = { system: string; baseUrl?: string };

/** A school whose adapter talks HTTP needs an http(s) base URL; the demo one needs none. */
function checkBaseUrl(value: SchoolFieldsValue, ctx: z.RefinementCtx) {
  if (!isSchoolSystemKind(value.system)) return;
  if (!value.baseUrl) {
    if (systemNeedsBaseUrl(value.system)) ctx.addIssue({ code: "custom", path: ["baseUrl"], message: e.baseUrlRequired });
    return;
  }
  let url: URL | null = null;
  try {
    url = new URL(value.baseUrl);
  } catch {
    url = null;
  }
  if (!url || !["http:", "https:"].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    ctx.addIssue({ code: "custom", path: ["baseUrl"], message: e.baseUrlFormat });
  }
}

export const SchoolFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), code, ...schoolFields }).superRefine(checkBaseUrl),
  z.object({ intent: z.literal("update"), code, ...schoolFields }).superRefine(checkBaseUrl),
]);
export type SchoolForm = z.infer<typeof SchoolFormSchema>;
export { GPA_FORMULAS, SCHOOL_SYSTEM_KINDS };

export const CampusCreateSchema = z.object({ intent: z.literal("create"), code, name: name(REFERENCE_LIMITS.name) });

const priceFields = Object.fromEntries(
  PACKAGE_TYPE_KEYS.flatMap((key) => [
    [`${key}Name`, name(REFERENCE_LIMITS.name)],
    [`${key}Desc`, z.string().trim().max(REFERENCE_LIMITS.desc, fillTemplate(e.descMax, { max: REFERENCE_LIMITS.desc })).default("")],
    [
      `${key}Price`,
      z
        .string({ error: e.priceFormat })
        .trim()
        .regex(YUAN_PATTERN, e.priceFormat)
        .transform(parseYuan)
        .refine((fen) => fen >= 1 && fen <= REFERENCE_LIMITS.priceMaxFen, e.priceFormat),
    ],
  ]),
) as Record<`${(typeof PACKAGE_TYPE_KEYS)[number]}${"Name" | "Desc"}`, z.ZodType<string>> &
  Record<`${(typeof PACKAGE_TYPE_KEYS)[number]}Price`, z.ZodType<number>>;

/**
 * Prices rise with size (口袋 ≤ 小 ≤ 中 ≤ 大): a parcel's size defaults to the cheapest type, so
 * a large parcel priced below a pocket one would make every parcel cost the least. The message is
 * beside the first price out of order.
 */
function checkPriceOrder(value: Record<string, unknown>, ctx: z.RefinementCtx) {
  const prices = PACKAGE_TYPE_KEYS.map((key) => value[`${key}Price`]);
  // A price that is not a valid amount already has its own message.
  if (!prices.every((fen): fen is number => typeof fen === "number" && Number.isInteger(fen) && fen >= 1 && fen <= REFERENCE_LIMITS.priceMaxFen)) return;
  const index = pricesOutOfOrderAt(prices);
  if (index !== null) ctx.addIssue({ code: "custom", path: [`${PACKAGE_TYPE_KEYS[index]}Price`], message: e.priceOrder });
}

/** The first index whose price is below the one before it (sizes in PACKAGE_TYPE_KEYS order), or null. */
export function pricesOutOfOrderAt(prices: readonly number[]): number | null {
  for (let index = 1; index < prices.length; index += 1) {
    if (prices[index]! < prices[index - 1]!) return index;
  }
  return null;
}

/** The forms of one campus's page. */
export const CampusFormSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("campus"),
    name: name(REFERENCE_LIMITS.name),
    status: z.enum(CAMPUS_STATUSES, { error: e.statusInvalid }),
  }),
  z.object({ intent: z.literal("add-building"), buildingName: name(REFERENCE_LIMITS.name) }),
  z.object({ intent: z.literal("toggle-building"), id, enabled: checkbox }),
  z.object({ intent: z.literal("add-place"), placeName: name(REFERENCE_LIMITS.name) }),
  z.object({ intent: z.literal("toggle-place"), id, enabled: checkbox }),
  z.object({ intent: z.literal("prices"), ...priceFields }).superRefine(checkPriceOrder),
]);
export type CampusForm = z.infer<typeof CampusFormSchema>;

const time = z.string({ error: e.timeFormat }).trim().regex(HHMM, e.timeFormat);
const slotFields = {
  orderStart: time,
  orderEnd: time,
  deliveryStart: time,
  deliveryEnd: time,
  estimated: time,
};

function checkSlot(value: { orderStart: string; orderEnd: string; deliveryStart: string; deliveryEnd: string; estimated: string }, ctx: z.RefinementCtx) {
  // "HH:MM" strings compare in time order.
  if (value.orderEnd <= value.orderStart) ctx.addIssue({ code: "custom", path: ["orderEnd"], message: e.orderEndAfterStart });
  // Delivery starts at the cut-off or later: an order taken at the cut-off is never promised a time already past.
  if (value.deliveryStart < value.orderEnd) ctx.addIssue({ code: "custom", path: ["deliveryStart"], message: e.deliveryAfterCutoff });
  if (value.deliveryEnd < value.deliveryStart) ctx.addIssue({ code: "custom", path: ["deliveryEnd"], message: e.deliveryEndAfterStart });
  else if (value.estimated < value.deliveryStart || value.estimated > value.deliveryEnd) {
    ctx.addIssue({ code: "custom", path: ["estimated"], message: e.estimatedInRange });
  }
}

export const SlotFormSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), ...slotFields }).superRefine(checkSlot),
  z.object({ intent: z.literal("update"), id, ...slotFields }).superRefine(checkSlot),
  z.object({ intent: z.literal("delete"), id }),
  z.object({
    intent: z.literal("capacity"),
    id,
    // One line per campus: blank is no limit.
    capacities: z
      .array(
        z.object({
          campus: z.string().trim().min(1).max(32),
          capacity: z.preprocess((value) => (value === "" || value === undefined ? undefined : value), z.coerce.number({ error: e.capacityFormat }).int(e.capacityFormat).min(1, e.capacityFormat).max(999, e.capacityFormat).optional()),
        }),
      )
      .max(50)
      .default([]),
  }),
]);
export type SlotForm = z.infer<typeof SlotFormSchema>;
