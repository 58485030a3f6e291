import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Sheet } from "~/components/ui/Sheet";
import { errorsOf, type FormResult } from "~/lib/form-result";
import { mutualHelp as mutualHelpMessages } from "~/lib/messages/mutualHelp";
import { CONTACT_MAX } from "~/lib/mutual-help";
import { HelpOfferSchema } from "~/lib/schemas/schedule";
import { requireStudent } from "~/server/auth/session.server";
import { parsePostId } from "~/server/forum/post-actions.server";
import { helpView, lastContactOf, offerHelp } from "~/server/schedule/mutual-help.server";

const h = mutualHelpMessages;

/** /post/:id/help: 我来帮忙 on a mutual-help request (a sheet over the post, logged-in students only). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const view = await helpView(parsePostId(params.id), user);
  if (!view) throw new Response("Not Found", { status: 404 });
  return { ...view, lastContact: view.myOffer ? "" : await lastContactOf(user.id) };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const postId = parsePostId(params.id);
  const submission = parseWithZod(await request.formData(), { schema: HelpOfferSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const result = await offerHelp(user, postId, submission.value.contact);
  if (!result.ok) return Response.json(submission.reply({ formErrors: [result.message] }), { status: result.status });
  return redirect(`/post/${postId}/help?offered=1`);
}

export default function HelpSheet() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as FormResult | undefined;
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const base = `/post/${view.postId}`;
  const contactError = errorsOf(reply, "contact")[0];
  const formError = errorsOf(reply, "")[0];
  const typed = typeof reply?.initialValue?.contact === "string" ? reply.initialValue.contact : view.lastContact;
  const sending = navigation.state !== "idle" && navigation.formAction === `${base}/help`;

  return (
    <Sheet title={view.isOwner ? h.offersTitle : h.offerTitle} closeTo={base}>
      {params.get("offered") === "1" ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {h.offered}
        </p>
      ) : null}
      {view.isOwner ? (
        view.offers.length === 0 ? (
          <p className="text-sm text-slate-500">{h.noOffers}</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {view.offers.map((offer) => (
              <li key={offer.at + offer.contact} className="flex justify-between gap-3 py-2">
                <span className="font-medium text-slate-800">{offer.name}</span>
                <span className="select-all text-slate-600">{offer.contact}</span>
              </li>
            ))}
          </ul>
        )
      ) : view.myOffer ? (
        <ContactOf label={h.requesterContact} contact={view.requesterContact} />
      ) : view.status !== "ongoing" ? (
        <p className="text-sm text-slate-500">{h.closed}</p>
      ) : (
        <Form method="post" action={`${base}/help`} replace preventScrollReset className="space-y-3" noValidate>
          <p className="text-sm text-slate-600">{h.offerIntro}</p>
          {formError ? (
            <p role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
              {formError}
            </p>
          ) : null}
          <div className="space-y-1">
            <label htmlFor="help-contact" className="text-sm font-medium text-slate-700">
              {h.offerContactLabel}
            </label>
            <input
              id="help-contact"
              name="contact"
              defaultValue={typed}
              required
              maxLength={CONTACT_MAX}
              autoComplete="off"
              placeholder={h.contactPlaceholder}
              aria-invalid={contactError ? true : undefined}
              aria-describedby={contactError ? "help-contact-error" : undefined}
              className="field-input"
            />
            {contactError ? (
              <p id="help-contact-error" role="alert" className="field-error">
                {contactError}
              </p>
            ) : null}
          </div>
          <button type="submit" disabled={sending} className="btn-primary w-full py-2.5">
            {h.offerSubmit}
          </button>
        </Form>
      )}
    </Sheet>
  );
}

function ContactOf({ label, contact }: { label: string; contact: string | null }) {
  return (
    <p className="rounded-xl bg-slate-50 px-3 py-2 text-sm">
      {contact ? (
        <>
          <span className="text-slate-500">{label}：</span>
          <span className="select-all font-medium text-slate-800">{contact}</span>
        </>
      ) : (
        <span className="text-slate-500">{h.requesterNoContact}</span>
      )}
    </p>
  );
}
