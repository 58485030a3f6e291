// /market/address/new and /market/address/:id: the address form (docs/product-rules.md, "Validation") and its save-address intent.
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import type { MarketActionData } from "~/lib/market-views";
import { marketMessages } from "~/lib/messages/market-answers";
import { AddressSchema } from "~/lib/schemas/address";
import { findAddress, saveAddress } from "~/server/market/addresses.server";
import { updateCheckout } from "~/server/market/checkout.server";
import { campusesWithBuildings, expressState } from "~/server/market/market-state.server";
import { log } from "~/server/log.server";
import { requireCheckout, requireMarketUser } from "../market._shell/guards.server";

const m = marketMessages;

/** The address and the campuses an address may name (from the market: only the order's service campus). */
export async function addressFormLoader(request: Request, addressId: string | undefined) {
  const { user, config } = await requireCheckout(request);
  const address = addressId === undefined ? null : /^\d+$/.test(addressId) ? await findAddress(user.id, Number(addressId)) : undefined;
  // Another user's address (or no address at all) is not found, like any id of someone else's.
  if (address === undefined) throw new Response(m.address.notFound, { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  return { address, campuses: await campusesWithBuildings(config.campusCode), constraint: getZodConstraint(AddressSchema) };
}

export async function saveAddressAction(request: Request) {
  const user = await requireMarketUser(request);
  const { config: serviceConfig } = await expressState(request, user);
  const campuses = await campusesWithBuildings(serviceConfig?.campusCode ?? null);
  const formData = await request.formData();
  const submission = await parseWithZod(formData, {
    schema: AddressSchema.superRefine((value, ctx) => {
      const campus = campuses.find((c) => c.code === value.campus);
      if (!campus) {
        ctx.addIssue({ code: "custom", path: ["campus"], message: m.address.campusRequired });
        return;
      }
      if (!campus.buildings.includes(value.building)) {
        ctx.addIssue({ code: "custom", path: ["building"], message: m.address.buildingRequired });
      }
    }),
  });
  if (submission.status !== "success") {
    return json({ intent: "save-address", result: submission.reply() } satisfies MarketActionData, { status: 400 });
  }
  const idValue = formData.get("addressId");
  const id = typeof idValue === "string" && /^\d+$/.test(idValue) ? Number(idValue) : undefined;
  const saved = await saveAddress(user.id, submission.value, id);
  if (!saved.ok) {
    const message = saved.reason === "limit" ? m.address.limit : m.address.notFound;
    return json({ intent: "save-address", result: submission.reply({ formErrors: [message] }) } satisfies MarketActionData, { status: 400 });
  }
  // A new address is also chosen for this order, so the sheet shows it at once.
  if (id === undefined && serviceConfig) {
    try {
      await updateCheckout(user.id, serviceConfig.packageTypes, () => ({ set: { addressId: saved.id }, result: null }));
    } catch (error) {
      log("warn", "checkout-address", { error: String(error) });
    }
  }
  return redirect(marketHref({ sheet: "address" }));
}
