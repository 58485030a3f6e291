import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { FieldError, FormError } from "~/components/FieldError";
import { Form, Link } from "@remix-run/react";
import { marketHref } from "~/lib/market-url";
import { entrySheet, parcelSheet } from "~/lib/messages/market-sheet-parcel";
import { app } from "~/lib/messages/app";
import { matchPlace, type PickupEntry } from "~/lib/pickup-entries";
import type { Constraints } from "./form-reply";
import { Panel } from "./Panel";

const msg = { market: { parcel: parcelSheet, entry: entrySheet }, app };

const m = msg.market;

/**
 * Edit a parcel (pickup place select, credential input) or add one by hand: conform's useForm,
 * constraints from the loader (getZodConstraint), validated by the action with the zod schema; its
 * reply shows beside the fields (the rule that was broken above the buttons) and what was typed is
 * kept. Without JavaScript the same form posts and the page shows the same reply.
 */
export function EntryDialog({
  entry,
  places,
  askConsent = false,
  lastResult,
  constraint,
}: {
  entry: PickupEntry | null;
  places: string[];
  askConsent?: boolean;
  lastResult: SubmissionResult<string[]> | undefined;
  constraint?: Constraints;
}) {
  // A recognised station that names a campus place (other brackets or spaces, a read short by a
  // character) is shown as that place; the student can still type another.
  const known = entry?.stationName ? (matchPlace(entry.stationName, places) ?? undefined) : undefined;
  const station = known ?? entry?.stationName ?? "";
  const options = station && !places.includes(station) ? [station, ...places] : places;
  const credential = entry ? (entry.pickupCode ?? entry.trackingNumber ?? "") : "";
  const [form, fields] = useForm({
    id: "entry",
    lastResult,
    constraint,
    defaultValue: { station, credential, company: entry?.company ?? "" },
  });
  const error = form.errors?.[0];
  return (
    <Panel title={entry ? m.parcel.editTitle : m.parcel.addTitle} closeTo={marketHref({})} labelId="entry-title" variant="dialog">
      <Form method="post" preventScrollReset className="space-y-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save-entry" />
        {entry ? <input type="hidden" name="entryId" value={entry.id} /> : null}
        <div>
          <label htmlFor={fields.station.id} className="field-label">
            {m.parcel.stationLabel}
          </label>
          {/* The campus's pickup places are offered, and any other place can be typed (a recognised
              station read wrongly is corrected here); a datalist works without JavaScript. */}
          <input
            {...getInputProps(fields.station, { type: "text" })}
            key={fields.station.key}
            list="entry-station-places"
            placeholder={m.parcel.stationPlaceholder}
            autoComplete="off"
            className="field-input"
          />
          <datalist id="entry-station-places">
            {options.map((place) => (
              <option key={place} value={place} />
            ))}
          </datalist>
          <FieldError field={fields.station} />
        </div>
        <div>
          <label htmlFor={fields.credential.id} className="field-label">
            {m.parcel.credentialLabel}
          </label>
          <input {...getInputProps(fields.credential, { type: "text" })} key={fields.credential.key} placeholder={m.parcel.credentialPlaceholder} autoComplete="off" className="field-input font-mono" />
          <FieldError field={fields.credential} />
        </div>
        <div>
          <label htmlFor={fields.company.id} className="field-label">
            {m.parcel.companyLabel}
          </label>
          <input {...getInputProps(fields.company, { type: "text" })} key={fields.company.key} placeholder={m.parcel.companyPlaceholder} className="field-input" />
          <FieldError field={fields.company} />
        </div>
        {askConsent ? (
          <label className="flex items-start gap-2 rounded-xl bg-slate-50 px-3 py-2 text-xs text-slate-600">
            <input type="hidden" name="consentAsked" value="1" />
            <input type="checkbox" name="shareOriginal" className="mt-0.5 h-4 w-4 shrink-0" />
            <span>{m.parcel.shareOriginal}</span>
          </label>
        ) : null}
        {error ? (
          <FormError id={form.errorId} message={error} />
        ) : (
          <p className="text-xs leading-5 text-slate-500">{m.entry.saveRule}</p>
        )}
        <div className="flex gap-3">
          <Link to={marketHref({})} preventScrollReset replace className="btn-ghost h-11 flex-1">
            {msg.app.cancel}
          </Link>
          <button type="submit" className="btn-primary h-11 flex-1">
            {m.parcel.saveEntry}
          </button>
        </div>
      </Form>
    </Panel>
  );
}
