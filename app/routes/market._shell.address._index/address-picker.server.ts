// /market/address: the address picker's intents — choose the order's address, set the default, delete.
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import type { MarketActionData } from "~/lib/market-views";
import * as msg from "~/lib/messages";
import { marketMessages } from "~/lib/messages/market-answers";
import { AddressPickerIntentSchema } from "~/lib/schemas/market";
import { deleteAddress, setDefaultAddress } from "~/server/market/addresses.server";
import { CheckoutConflictError } from "~/server/market/checkout.server";
import { chooseAddress } from "~/server/market/checkout-edits.server";
import { requireCheckout } from "../market._shell/guards.server";

const m = marketMessages;
const answer = (data: MarketActionData, init?: ResponseInit) => json(data, init);

/** The picker needs the checkout (its addresses come with the layout's data). */
export async function addressPickerLoader(request: Request) {
  await requireCheckout(request);
  return null;
}

export async function addressPickerAction(request: Request) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const submission = parseWithZod(formData, { schema: AddressPickerIntentSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0];
    return answer({ intent, error: first ?? m.recognize.badFormat, result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;
  const { user, config } = await requireCheckout(request);
  switch (value.intent) {
    case "select-address": {
      let chosen: Awaited<ReturnType<typeof chooseAddress>>;
      try {
        chosen = await chooseAddress(user.id, config.packageTypes, value.addressId, config.campusCode);
      } catch (error) {
        if (error instanceof CheckoutConflictError) return answer({ intent, error: m.checkout.stale }, { status: 409 });
        throw error;
      }
      if (chosen === "not-found") return answer({ intent, error: m.address.notFound, result: submission.reply({ formErrors: [m.address.notFound] }) });
      if (chosen === "other-campus") {
        return answer({ intent, error: msg.orders.create.addressCampus, result: submission.reply({ formErrors: [msg.orders.create.addressCampus] }) }, { status: 400 });
      }
      return redirect(marketHref({ sheet: "confirm" }));
    }
    case "delete-address": {
      const deleted = await deleteAddress(user.id, value.addressId);
      return answer(deleted ? { intent, notice: m.address.deleted } : { intent, error: m.address.notFound });
    }
    case "default-address": {
      const done = await setDefaultAddress(user.id, value.addressId);
      return answer(done ? { intent } : { intent, error: m.address.notFound });
    }
  }
}
