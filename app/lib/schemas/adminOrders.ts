import * as z from "zod";
import { ADMIN_MAX_PAGES, SEARCH_MAX } from "../admin-orders";
import { adminOrderData } from "../messages/adminOrderData";
import { adminOps } from "../messages/adminOps";
import { FAILURE_REASONS, failureReasonText } from "../delivery-exceptions";
import { ORDER_GROUPS } from "../order-status";
import { ORDER_NUMBER_PATTERN, REASON_MAX } from "../orders";

// The operators' order pages: the list's query string, the order actions on
// /admin/orders and the refund decisions on /admin/refunds, each told apart by `intent`.
// Imported by loaders and actions only.

const m = adminOrderData;

/** An order number in a page's query string: absent when unreadable. */
const orderInQuery = z.string().trim().regex(ORDER_NUMBER_PATTERN).optional().catch(undefined);

/** What the URL of /admin/orders may hold; anything unreadable falls back to the default. */
export const AdminOrdersQuerySchema = z.object({
  status: z.enum(ORDER_GROUPS).optional().catch(undefined),
  campus: z.string().trim().min(1).max(32).optional().catch(undefined),
  // A delivery slot by its promised instant.
  slot: z.string().trim().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z$/).optional().catch(undefined),
  q: z.string().trim().max(SEARCH_MAX).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(ADMIN_MAX_PAGES).catch(1).default(1),
  order: orderInQuery,
  panel: z.enum(["cancel", "fail", "delete"]).optional().catch(undefined),
});

const orderNumber = z.string({ error: m.failures.invalid }).trim().regex(ORDER_NUMBER_PATTERN, m.failures.invalid);
const SIZES = ["pocket", "small", "medium", "large"] as const;
const missingCount = z.coerce.number({ error: m.failures.invalid }).int(m.failures.invalid).min(0, m.failures.invalid).max(30, m.failures.invalid).default(0);
const optionalReason = z.string().trim().max(REASON_MAX, m.failures.reasonMax).optional();

export const AdminOrderActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("complete"), order: orderNumber }),
  z.object({ intent: z.literal("assigned"), order: orderNumber }),
  z.object({ intent: z.literal("picking"), order: orderNumber }),
  z.object({ intent: z.literal("delivering"), order: orderNumber }),
  z.object({ intent: z.literal("cancel"), order: orderNumber, reason: optionalReason }),
  z.object({ intent: z.literal("delete"), order: orderNumber }),
  z
    .object({
      intent: z.literal("fail"),
      order: orderNumber,
      // 配送失败 needs its reason, a cause picked or the operator's words: the student reads it beside the refund.
      reason_code: z.enum(FAILURE_REASONS).optional().catch(undefined),
      reason: z.string().trim().max(REASON_MAX, m.failures.reasonMax).default(""),
      // The parcels not delivered, per size (absent: none of that size).
      ...Object.fromEntries(SIZES.map((size) => [`missing_${size}`, missingCount])),
      // Of those, the parcel a supplement was paid or offered for (0 or 1): its supplement is refunded.
      missing_supplement: missingCount,
    })
    .superRefine((value, ctx) => {
      if (failureReasonText(value.reason_code ?? null, value.reason, adminOps.failReasons) === null) {
        ctx.addIssue({ code: "custom", path: ["reason"], message: m.failures.failReasonRequired });
      }
    }),
]);

export type AdminOrderAction = z.infer<typeof AdminOrderActionSchema>;

const refundId = z.coerce.number({ error: m.failures.invalid }).int().positive();

export const AdminRefundActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("approve"), refund: refundId }),
  z.object({
    intent: z.literal("reject"),
    refund: refundId,
    reason: z.string({ error: m.failures.reasonRequired }).trim().min(1, m.failures.reasonRequired).max(REASON_MAX, m.failures.reasonMax),
  }),
]);

export type AdminRefundAction = z.infer<typeof AdminRefundActionSchema>;

export const AdminAuditQuerySchema = z.object({
  order: orderInQuery,
  before: z.coerce.number().int().positive().optional().catch(undefined),
});
