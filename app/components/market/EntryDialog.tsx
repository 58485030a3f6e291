import { Form, Link } from "@remix-run/react";
import { marketHref } from "~/lib/market-url";
import { marketSheets } from "~/lib/messages/market-sheets";
import { app } from "~/lib/messages/app";
import { normalizeStation, type PickupEntry } from "~/lib/pickup-entries";
import { Panel } from "./Panel";

const msg = { market: marketSheets, app };

const m = msg.market;

/** Edit a parcel (pickup place select, credential input) or add one by hand. */
export function EntryDialog({
  entry,
  places,
  error,
}: {
  entry: PickupEntry | null;
  places: string[];
  error: string | undefined;
}) {
  // A recognised station written with other brackets or spaces is the same place, listed once.
  const known = entry?.stationName ? places.find((place) => normalizeStation(place) === normalizeStation(entry.stationName)) : undefined;
  const station = known ?? entry?.stationName ?? "";
  const options = station && !places.includes(station) ? [station, ...places] : places;
  const credential = entry ? (entry.pickupCode ?? entry.trackingNumber ?? "") : "";
  return (
    <Panel title={entry ? m.parcel.editTitle : m.parcel.addTitle} closeTo={marketHref({})} labelId="entry-title" variant="dialog">
      <Form method="post" preventScrollReset className="space-y-3" noValidate>
        <input type="hidden" name="intent" value="save-entry" />
        {entry ? <input type="hidden" name="entryId" value={entry.id} /> : null}
        <div>
          <label htmlFor="entry-station" className="field-label">
            {m.parcel.stationLabel}
          </label>
          <select id="entry-station" name="station" defaultValue={station} className="field-input">
            <option value="">{m.parcel.stationPlaceholder}</option>
            {options.map((place) => (
              <option key={place} value={place}>
                {place}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="entry-credential" className="field-label">
            {m.parcel.credentialLabel}
          </label>
          <input
            id="entry-credential"
            name="credential"
            defaultValue={credential}
            maxLength={40}
            placeholder={m.parcel.credentialPlaceholder}
            autoComplete="off"
            className="field-input font-mono"
          />
        </div>
        <div>
          <label htmlFor="entry-company" className="field-label">
            {m.parcel.companyLabel}
          </label>
          <input id="entry-company" name="company" defaultValue={entry?.company ?? ""} maxLength={32} placeholder={m.parcel.companyPlaceholder} className="field-input" />
        </div>
        {error ? (
          <p role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
            {error}
          </p>
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

