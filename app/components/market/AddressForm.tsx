import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { FormError } from "~/components/FieldError";
import { LabelledField } from "~/components/LabelledField";
import { marketHref } from "~/lib/market-url";
import { addressSheet as m } from "~/lib/messages/market-sheet-address";
import type { AddressItem } from "./AddressPanels";
import type { Constraints } from "./form-reply";
import { Panel } from "./Panel";

type CampusOption = { code: string; name: string; buildings: string[] };

/**
 * The address form (docs/product-rules.md, "Validation"), conform's useForm. The server validates with the zod schema
 * and answers conform's reply; the form shows its errors beside the fields and keeps what was
 * typed, and the fields carry the schema's constraints (computed in the loader). The building select waits for a
 * campus and is reset when the campus changes; without JavaScript it lists every campus's buildings
 * by group and the server checks that the building belongs to the campus.
 */
export function AddressForm({
  address,
  campuses,
  lastResult,
  constraint,
  hydrated,
  defaultCampus,
}: {
  /** The address being edited (its display line is not needed here), or null for a new one. */
  address: Omit<AddressItem, "text"> | null;
  campuses: CampusOption[];
  lastResult: SubmissionResult<string[]> | undefined;
  constraint?: Constraints;
  hydrated: boolean;
  defaultCampus: string | null;
}) {
  const [form, fields] = useForm({
    id: "address-form",
    lastResult,
    constraint,
    defaultValue: address
      ? { name: address.name, phone: address.phone, campus: address.campusCode, building: address.building, room: address.room, isDefault: address.isDefault ? "on" : undefined }
      : { campus: defaultCampus ?? "" },
  });
  const [campus, setCampus] = useState<string>(text(fields.campus.initialValue) || defaultCampus || "");
  const [building, setBuilding] = useState<string>(text(fields.building.initialValue));
  const buildings = campuses.find((c) => c.code === campus)?.buildings ?? [];
  const formError = form.errors?.[0];

  return (
    <Panel title={address ? m.editTitle : m.newTitle} closeTo={marketHref({ sheet: "address" })} labelId="address-form-title">
      <Form method="post" preventScrollReset className="space-y-3" {...getFormProps(form)}>
        <input type="hidden" name="intent" value="save-address" />
        {address ? <input type="hidden" name="addressId" value={address.id} /> : null}
        <FormError id={form.errorId} message={formError} />
        <LabelledField label={m.name} field={fields.name}>
          <input {...getInputProps(fields.name, { type: "text" })} placeholder={m.namePlaceholder} autoComplete="name" className="field-input" />
        </LabelledField>
        <LabelledField label={m.phone} field={fields.phone}>
          <input {...getInputProps(fields.phone, { type: "tel" })} placeholder={m.phonePlaceholder} inputMode="numeric" maxLength={11} autoComplete="tel" className="field-input" />
        </LabelledField>
        <div className="grid grid-cols-2 gap-3">
          <LabelledField label={m.campus} field={fields.campus}>
            <select
              {...controlled(getSelectProps(fields.campus))}
              value={campus}
              onChange={(event) => {
                setCampus(event.target.value);
                setBuilding("");
              }}
              className="field-input"
            >
              <option value="">{m.campusPlaceholder}</option>
              {campuses.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </LabelledField>
          <LabelledField label={m.building} field={fields.building}>
            <select
              {...controlled(getSelectProps(fields.building))}
              value={building}
              onChange={(event) => setBuilding(event.target.value)}
              disabled={hydrated && !campus}
              className="field-input disabled:bg-slate-50 disabled:text-slate-500"
            >
              <option value="">{m.buildingPlaceholder}</option>
              {hydrated
                ? buildings.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))
                : campuses.map((c) => (
                    <optgroup key={c.code} label={c.name}>
                      {c.buildings.map((name) => (
                        <option key={name} value={name}>
                          {name}
                        </option>
                      ))}
                    </optgroup>
                  ))}
            </select>
          </LabelledField>
        </div>
        <LabelledField label={m.room} field={fields.room}>
          <input {...getInputProps(fields.room, { type: "text" })} placeholder={m.roomPlaceholder} className="field-input" />
        </LabelledField>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input {...getInputProps(fields.isDefault, { type: "checkbox" })} className="h-4 w-4 accent-[rgb(var(--brand))]" />
          {m.setDefault}
        </label>
        <button type="submit" className="btn-primary h-11 w-full">
          {m.save}
        </button>
      </Form>
    </Panel>
  );
}

/** A value conform kept (what was sent, else the default) as the select's starting text. */
function text(value: unknown) {
  return typeof value === "string" ? value : "";
}

/** A select drawn from state (the building list follows the campus): conform's props without its defaultValue. */
function controlled<P extends { defaultValue?: unknown }>(props: P): Omit<P, "defaultValue"> {
  const { defaultValue: _unused, ...rest } = props;
  return rest;
}
