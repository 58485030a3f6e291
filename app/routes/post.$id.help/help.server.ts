import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { helpDates } from "~/lib/messages/helpDates";
import { mutualHelp } from "~/lib/messages/mutualHelp";
import { CONTACT_MAX } from "~/lib/mutual-help";
import { HelpOfferSchema } from "~/lib/schemas/schedule";
import { helpView, lastContactOf, offerHelp, type OfferRefusal } from "~/server/schedule/mutual-help.server";
import type { RefusalTable } from "~/server/http/refusal-table";
import { requireStudent } from "~/server/http/guards.server";

const OFFER_REFUSALS: RefusalTable<OfferRefusal> = {
  not_a_request: { status: 404, message: mutualHelp.notARequest },
  own_request: { status: 400, message: mutualHelp.ownRequest },
  closed: { status: 400, message: mutualHelp.closed },
  class_begun: { status: 400, message: helpDates.classBegun },
  already_offered: { status: 409, message: mutualHelp.alreadyOffered },
};

/** The sheet's words, sent with its data: the whole catalogue would be 1.5 KB more for the browser. */
const SHEET_WORDS = ["offersTitle", "offerTitle", "offered", "noOffers", "requesterContact", "closed", "offerIntro", "oneSidedWarning", "offerContactLabel", "contactPlaceholder", "offerSubmit", "requesterNoContact"] as const;
export type SheetWords = Pick<typeof mutualHelp, (typeof SHEET_WORDS)[number]>;
const sheetWords = Object.fromEntries(SHEET_WORDS.map((key) => [key, mutualHelp[key]])) as SheetWords;

/** /post/:id/help: the request's offers (its author) or the offer form (everyone else). */
export async function helpSheetPage(request: Request, postId: number) {
  const user = await requireStudent(request);
  const view = await helpView(postId, user);
  if (!view) throw new Response("Not Found", { status: 404 });
  const constraint = getZodConstraint(HelpOfferSchema);
  // The schema's pipe hides the contact's length from getZodConstraint: the browser still stops at CONTACT_MAX.
  constraint.contact = { ...constraint.contact, maxLength: CONTACT_MAX };
  return { ...view, lastContact: view.myOffer ? "" : await lastContactOf(user.id), constraint, words: sheetWords };
}

/** 我来帮忙: the contact goes to the requester; back on the sheet with 已报名. */
export async function helpAction(request: Request, postId: number) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: HelpOfferSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const result = await offerHelp(user, postId, submission.value.contact);
  if (!result.ok) {
    const { status, message } = OFFER_REFUSALS[result.reason];
    return Response.json(submission.reply({ formErrors: [message] }), { status });
  }
  return redirect(`/post/${postId}/help?notice=offered`);
}
