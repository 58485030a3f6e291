// /market/parcel/new and /market/parcel/:id: the parcel (or none, to add one) and its save-entry intent.
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import type { MarketActionData } from "~/lib/market-views";
import { marketMessages } from "~/lib/messages/market-answers";
import { SaveEntrySchema } from "~/lib/schemas/market";
import { CheckoutConflictError } from "~/server/market/checkout.server";
import { saveEntry, type EntryRefusal } from "~/server/market/checkout-edits.server";
import { consentOf, keepCorrection, recordConsent } from "~/server/market/corrections.server";
import { requireCheckout } from "../market._shell/guards.server";

const m = marketMessages;

const ENTRY_REFUSALS: Record<EntryRefusal, string> = {
  not_found: m.entry.notFound,
  save_rule: m.entry.saveRule,
  one_code: m.entry.oneCode,
  duplicate: m.entry.duplicate,
};

export async function parcelLoader(request: Request, entryId: string | undefined) {
  const { user, checkout } = await requireCheckout(request);
  const entry = entryId === undefined ? null : checkout.entries.find((item) => item.id === entryId);
  if (entry === undefined) throw redirect(marketHref({}));
  // The correction loop's question, once: when this save may be a correction of recognition.
  const mayCorrect = entry ? entry.source !== "manual" : checkout.smsText.trim() !== "";
  const askConsent = mayCorrect && (await consentOf(user.id)) === null;
  return { entry, askConsent, constraint: getZodConstraint(SaveEntrySchema) };
}

export async function saveEntryAction(request: Request) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: SaveEntrySchema });
  if (submission.status !== "success") {
    return json({ intent: "save-entry", result: submission.reply() } satisfies MarketActionData, { status: 400 });
  }
  const { user, config, checkout } = await requireCheckout(request);
  try {
    const refused = await saveEntry(user.id, config.packageTypes, submission.value, config.pickupPlaces);
    // The rule that was broken (no credential, a duplicate, a parcel gone) is the form's error.
    if (refused) return json({ intent: "save-entry", result: submission.reply({ formErrors: [ENTRY_REFUSALS[refused]] }) } satisfies MarketActionData, { status: 400 });
    if (submission.value.consentAsked) await recordConsent(user.id, submission.value.shareOriginal === true);
    const before = submission.value.entryId ? checkout.entries.find((entry) => entry.id === submission.value.entryId) : undefined;
    await keepCorrection(user.id, {
      before,
      entries: checkout.entries,
      smsText: checkout.smsText,
      saved: { pickupCode: submission.value.credential, company: submission.value.company, stationName: submission.value.station },
    });
  } catch (error) {
    if (error instanceof CheckoutConflictError) return json({ intent: "save-entry", result: submission.reply({ formErrors: [m.checkout.stale] }) } satisfies MarketActionData, { status: 409 });
    throw error;
  }
  return redirect(marketHref({}));
}
