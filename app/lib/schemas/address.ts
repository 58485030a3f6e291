import * as z from "zod";
import { PHONE_PATTERN } from "../address";
import { marketMessages } from "../messages/market-answers";

const m = marketMessages.address;
const required = (message: string, max = 32) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, m.tooLong);

/** The address form (docs/product-rules.md, "Validation"). Whether the building belongs to the campus is checked in the action. */
export const AddressSchema = z.object({
  name: required(m.nameRequired, 20),
  phone: z
    .string({ error: m.phoneRequired })
    .trim()
    .min(1, m.phoneRequired)
    .regex(PHONE_PATTERN, m.phoneInvalid),
  campus: required(m.campusRequired, 64),
  building: required(m.buildingRequired, 64),
  room: required(m.roomRequired, 20),
  isDefault: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "1" || value === "true"),
});

export type AddressFields = z.input<typeof AddressSchema>;
export type AddressInput = z.output<typeof AddressSchema>;
