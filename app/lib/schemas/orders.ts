import * as z from "zod";
import { PHONE_PATTERN } from "../address";
import { orderDialogs } from "../messages/order-dialogs";
import { orders } from "../messages/orders";
import { DEFAULT_RATING, RATING_MAX, RATING_MIN, REASON_MAX, REVIEW_COMMENT_MAX } from "../orders";

// Orders: the product rules' JSON body of POST /api/express/order_create, the pay calls, and
// the order page's forms (told apart by `intent`). Server only.

const text = (max: number) => z.string().trim().max(max);
const orderId = z.string().trim().min(1).max(40);

/** A pickup item as an older client sends it; the aliases are read by entryFromInput. */
const CheckoutItem = z.record(z.string(), z.unknown());

/**
 * POST /api/express/order_create (docs/product-rules.md, "Call paths"). The identity is the session's (wechat_openid
 * and student_id are accepted and ignored); any total, price or amount field is ignored too: the
 * server prices the order. checkout_id/checkout_version name the checkout it comes from (default:
 * the user's current one) — the idempotency key.
 */
export const OrderCreateSchema = z.object({
  wechat_openid: z.unknown().optional(),
  student_id: z.unknown().optional(),
  campus_code: text(64).optional(),
  recipient_name: text(20).optional(),
  recipient_phone: text(20).optional(),
  recipient_campus: text(64).optional(),
  recipient_dorm: text(64).optional(),
  recipient_room: text(20).optional(),
  expressCheckoutList: z.array(CheckoutItem).max(100).optional(),
  expressPackageCounts: z.record(z.string(), z.unknown()).optional(),
  estimated_delivery_time: z.unknown().optional(),
  remark: z.string().max(2000).optional(),
  checkout_id: z.coerce.number().int().positive().optional(),
  checkout_version: z.coerce.number().int().positive().optional(),
});

export type OrderCreateBody = z.output<typeof OrderCreateSchema>;

/** The recipient fields of the JSON body, checked like the address form. */
export const RecipientSchema = z.object({
  name: z.string().trim().min(1).max(20),
  phone: z.string().trim().regex(PHONE_PATTERN),
  building: z.string().trim().min(1).max(64),
  room: z.string().trim().min(1).max(20),
});

export const CreatePaymentSchema = z.object({
  order_id: orderId,
  openid: z.unknown().optional(),
});

export const OrderDetailSchema = z.object({
  order_number: orderId.optional(),
  order_id: orderId.optional(),
});

const reason = (message?: string) => {
  const base = z.string().trim().max(REASON_MAX, orders.reasonMax);
  return message ? base.min(1, message) : base;
};

// The order page's forms, one schema per route that holds the intent: pay on
// /express/orders/:orderId, the others on its dialog routes (…/cancel, …/refund, …/review).
export const PayIntentSchema = z.object({ intent: z.literal("pay") });

export const CancelIntentSchema = z.object({ intent: z.literal("cancel"), reason: reason().optional().default("") });

export const RefundIntentSchema = z.object({
  intent: z.literal("refund"),
  reason: z.string({ error: orderDialogs.refundDialog.reasonRequired }).pipe(reason(orderDialogs.refundDialog.reasonRequired)),
});

export const ReviewIntentSchema = z.object({
  intent: z.literal("review"),
  rating: z.coerce.number().int().min(RATING_MIN).max(RATING_MAX).optional().default(DEFAULT_RATING),
  comment: z.string().trim().max(REVIEW_COMMENT_MAX, orders.commentMax).optional().default(""),
});
