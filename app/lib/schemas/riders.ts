import * as z from "zod";
import { PHONE_PATTERN } from "../address";
import { PACKAGE_TYPE_KEYS } from "../catalog";
import { riders as m } from "../messages/riders";
import { ORDER_NUMBER_PATTERN } from "../order-limits";
import { HANDOVER_CODE_LENGTH } from "../riders";

// The riders' forms: the roster (/admin/riders), the assignments and 已取到 marks of the pick list
// (/admin/pick-list), and the rider's run (/admin/run), each told apart by `intent`. Imported by
// loaders and actions only. The username rule is the operator accounts' (auth/operator.server).

const USERNAME = /^[a-z0-9][a-z0-9._-]{1,31}$/;
const PASSWORD_MIN = 8;

const orderNumber = z.string({ error: m.notFound }).trim().regex(ORDER_NUMBER_PATTERN, m.notFound);
const riderId = z.coerce.number({ error: m.riderNotFound }).int(m.riderNotFound).positive(m.riderNotFound);
const slot = z.string().trim().max(40).optional();

export const RiderRosterSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("create"),
    username: z
      .string({ error: m.usernameInvalid })
      .trim()
      .transform((value) => value.normalize("NFKC").toLowerCase())
      .pipe(z.string().regex(USERNAME, m.usernameInvalid)),
    displayName: z.string({ error: m.displayNameRequired }).trim().min(1, m.displayNameRequired).max(32, m.displayNameRequired),
    phone: z.string({ error: m.phoneInvalid }).trim().regex(PHONE_PATTERN, m.phoneInvalid),
    password: z.string({ error: m.passwordShort }).min(PASSWORD_MIN, m.passwordShort).max(1024, m.passwordShort),
  }),
  z.object({ intent: z.literal("availability"), rider: riderId, available: z.enum(["1", "0"]) }),
]);

export const PickListActionSchema = z.discriminatedUnion("intent", [
  // One order, or a selection (checkboxes named `order`).
  z.object({
    intent: z.literal("assign"),
    rider: riderId,
    order: z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(orderNumber).max(500)).pipe(z.array(orderNumber).min(1, m.noOrdersChosen)),
    slot,
  }),
  // Every order of the slot with a parcel at this station.
  z.object({ intent: z.literal("assign-station"), rider: riderId, station: z.string().trim().min(1).max(64), slot: z.string().trim().min(1).max(40) }),
  z.object({ intent: z.literal("pick"), order: orderNumber, position: z.coerce.number().int().min(0).max(99), picked: z.enum(["1", "0"]), slot }),
]);

export const RunActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("pick"), order: orderNumber, position: z.coerce.number().int().min(0).max(99), picked: z.enum(["1", "0"]), slot }),
  z.object({
    intent: z.literal("handover"),
    order: orderNumber,
    code: z.string({ error: m.codeFormat }).trim().min(1, m.codeFormat).max(HANDOVER_CODE_LENGTH * 4, m.codeFormat),
    slot,
  }),
  z.object({ intent: z.literal("availability"), available: z.enum(["1", "0"]), slot }),
  // A size found wrong at pickup: the parcel's real size (and its declared one when the order has several).
  z.object({
    intent: z.literal("size"),
    order: orderNumber,
    position: z.coerce.number().int().min(0).max(99),
    real: z.enum(PACKAGE_TYPE_KEYS, { error: m.realSize }),
    declared: z.preprocess((value) => (value === "" ? undefined : value), z.enum(PACKAGE_TYPE_KEYS).optional()),
    slot,
  }),
]);

/** The run's photo handover (a multipart form: the photo is read apart, these are its text fields). */
export const RunPhotoSchema = z.object({ intent: z.literal("photo"), order: orderNumber, slot });
