import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { FieldError, FormError } from "~/components/FieldError";
import { Sheet } from "~/components/ui/Sheet";
import { requirePostId } from "../post.$id/guards.server";
import { helpAction, helpSheetPage, type SheetWords } from "./help.server";

/** /post/:id/help: 我来帮忙 on a mutual-help request (a sheet over the post, logged-in students only). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  return helpSheetPage(request, requirePostId(params.id));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return helpAction(request, requirePostId(params.id));
}

export default function HelpSheet() {
  const view = useLoaderData<typeof loader>();
  const h = view.words;
  const lastResult = useActionData<SubmissionResult<string[]>>();
  const navigation = useNavigation();
  const [form, fields] = useForm<{ contact: string }>({
    id: "help",
    lastResult,
    constraint: view.constraint,
    defaultValue: { contact: view.lastContact },
    shouldRevalidate: "onInput",
  });
  const [params] = useSearchParams();
  const base = `/post/${view.postId}`;
  const formError = form.errors?.[0];
  const sending = navigation.state !== "idle" && navigation.formAction === `${base}/help`;

  return (
    <Sheet title={view.isOwner ? h.offersTitle : h.offerTitle} closeTo={base}>
      {params.get("notice") === "offered" ? (
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
        <ContactOf words={h} contact={view.requesterContact} />
      ) : view.status !== "ongoing" ? (
        <p className="text-sm text-slate-500">{h.closed}</p>
      ) : (
        <Form method="post" action={`${base}/help`} replace preventScrollReset {...getFormProps(form)} className="space-y-3">
          <p className={view.requesterContact ? "text-sm text-slate-600" : "rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-800"}>
            {view.requesterContact ? h.offerIntro : h.oneSidedWarning}
          </p>
          <FormError id={form.errorId} message={formError} />
          <div className="space-y-1">
            <label htmlFor={fields.contact.id} className="text-sm font-medium text-slate-700">
              {h.offerContactLabel}
            </label>
            <input
              {...getInputProps(fields.contact, { type: "text" })}
              autoComplete="off"
              placeholder={h.contactPlaceholder}
              className="field-input"
            />
            <FieldError field={fields.contact} alert />
          </div>
          <button type="submit" disabled={sending} className="btn-primary w-full py-2.5">
            {h.offerSubmit}
          </button>
        </Form>
      )}
    </Sheet>
  );
}

function ContactOf({ words, contact }: { words: SheetWords; contact: string | null }) {
  return (
    <p className="rounded-xl bg-slate-50 px-3 py-2 text-sm">
      {contact ? (
        <>
          <span className="text-slate-500">{words.requesterContact}：</span>
          <span className="select-all font-medium text-slate-800">{contact}</span>
        </>
      ) : (
        <span className="text-slate-500">{words.requesterNoContact}</span>
      )}
    </p>
  );
}
