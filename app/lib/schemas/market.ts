import * as z from "zod";
import { PACKAGE_TYPE_KEYS } from "../catalog";
import { marketMessages } from "../messages/market-answers";

// The market's form actions, told apart by `intent`, one union per route that holds them. The
// address form has its own schema (./address); the image upload is multipart and read separately.

const m = marketMessages;
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, m.entry.tooLong)
    .optional()
    .transform((value) => (value ? value : null));
const id = z.string().trim().min(1).max(32);

export const RecognizeSchema = z.object({
  intent: z.literal("recognize"),
  text: z.string().max(20_000).optional().default(""),
  /** Set by the page's debounce: an empty text then clears the list instead of complaining. */
  auto: z.string().optional(),
});

export const AddEntriesSchema = z.object({
  intent: z.literal("add-entries"),
  entries: z.string().max(50_000),
});

export const SaveEntrySchema = z.object({
  intent: z.literal("save-entry"),
  entryId: id.optional(),
  company: optionalText(32),
  credential: optionalText(40),
  station: optionalText(64),
  // The correction loop's question, asked once: present when it was asked; the box ticked or not.
  consentAsked: z.literal("1").optional(),
  shareOriginal: z.preprocess((value) => value === "on" || value === "1", z.boolean()).optional(),
});

export const DeleteEntrySchema = z.object({ intent: z.literal("delete-entry"), entryId: id });
export const OpenCheckoutSchema = z.object({ intent: z.literal("open-checkout") });

export const CountSchema = z.object({
  intent: z.literal("count"),
  type: z.enum(PACKAGE_TYPE_KEYS),
  direction: z.enum(["increase", "decrease"]),
});

export const RemarkSchema = z.object({
  intent: z.literal("remark"),
  remark: z.string().trim().max(200, m.checkout.remarkTooLong).optional().default(""),
});

const addressId = z.coerce.number().int().positive();
export const SelectAddressSchema = z.object({ intent: z.literal("select-address"), addressId });
export const DeleteAddressSchema = z.object({ intent: z.literal("delete-address"), addressId });
export const DefaultAddressSchema = z.object({ intent: z.literal("default-address"), addressId });

export const PaySchema = z.object({
  intent: z.literal("pay"),
  checkoutId: z.coerce.number().int().positive(),
  version: z.coerce.number().int().positive(),
  /** The sheet's price version (decision 030, I2): what the student saw. */
  priceVersion: z.string().max(400).optional(),
});

export const FeatureRequestSchema = z.object({ intent: z.literal("feature-request"), featureType: z.enum(["online", "errand"]) });
export const SupermarketSchema = z.object({ intent: z.literal("supermarket-submit") });

// One union per route that holds the intents (routes own their actions).

/** POST /market?index: the page's own forms. */
export const PageIntentSchema = z.discriminatedUnion("intent", [RecognizeSchema, AddEntriesSchema, DeleteEntrySchema, FeatureRequestSchema, SupermarketSchema]);

/** POST /market/checkout: the order-confirm sheet (and the list's confirm button, open-checkout). */
export const CheckoutIntentSchema = z.discriminatedUnion("intent", [OpenCheckoutSchema, CountSchema, RemarkSchema, PaySchema]);

/** POST /market/address: the address picker. */
export const AddressPickerIntentSchema = z.discriminatedUnion("intent", [SelectAddressSchema, DeleteAddressSchema, DefaultAddressSchema]);
