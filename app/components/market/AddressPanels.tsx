import { Form, Link, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { ADDRESS_PICKER_ACTION } from "~/lib/market-links";
import { marketHref } from "~/lib/market-url";
import { addressSheet } from "~/lib/messages/market-sheet-address";
import { formReply, type Constraints, type FormReply } from "./form-reply";
import { Panel } from "./Panel";
import { useFetcherToast } from "./toast-context";

const msg = { market: { address: addressSheet } };

const m = msg.market.address;

export type AddressItem = {
  id: number;
  name: string;
  phone: string;
  campusCode: string;
  building: string;
  room: string;
  isDefault: boolean;
  text: string;
};

/** The address picker: saved addresses with default and selected tags; add, edit, delete, confirm. */
export function AddressPicker({ addresses, selectedId, lastResult }: { addresses: AddressItem[]; selectedId: number | null; lastResult?: FormReply }) {
  const [chosen, setChosen] = useState<number | null>(selectedId);
  // The choice is checked by the action's schema; what it refuses (another campus) shows above the list.
  const form = formReply("address-select", lastResult, undefined);
  const error = form.errors?.[0];
  return (
    <Panel
      title={m.title}
      closeTo={marketHref({ sheet: "confirm" })}
      labelId="address-title"
      footer={
        <div className="flex gap-3">
          <Link to={marketHref({ sheet: "address-form" })} preventScrollReset className="btn-ghost h-11 flex-1">
            {m.add}
          </Link>
          <button type="submit" form="address-select" className="btn-primary h-11 flex-1" disabled={addresses.length === 0}>
            {m.confirm}
          </button>
        </div>
      }
    >
      {addresses.length === 0 ? (
        <p className="rounded-2xl bg-slate-50 px-4 py-8 text-center text-sm text-slate-500">{m.empty}</p>
      ) : (
        <Form method="post" action={ADDRESS_PICKER_ACTION} preventScrollReset id="address-select" aria-describedby={error ? form.errorId : undefined}>
          <input type="hidden" name="intent" value="select-address" />
          {error ? (
            <p id={form.errorId} role="alert" className="mb-2 rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <fieldset>
            <legend className="sr-only">{m.title}</legend>
            <ul className="space-y-2">
              {addresses.map((address) => (
                <li key={address.id} className={`rounded-2xl p-3 ring-1 ${chosen === address.id ? "bg-brand-soft/50 ring-brand" : "ring-slate-200"}`}>
                  <label className="flex cursor-pointer items-start gap-3">
                    <input
                      type="radio"
                      name="addressId"
                      value={address.id}
                      defaultChecked={address.id === selectedId}
                      onChange={() => setChosen(address.id)}
                      className="mt-1 h-4 w-4 accent-[rgb(var(--brand))]"
                    />
                    <span className="min-w-0 flex-1">
                      <span className="flex flex-wrap items-center gap-1.5 text-sm font-medium text-slate-900">
                        {address.name}
                        <span className="font-normal text-slate-500">{address.phone}</span>
                        {address.isDefault ? <span className="rounded bg-brand px-1.5 py-0.5 text-[11px] font-normal text-white">{m.default}</span> : null}
                        {address.id === selectedId ? (
                          <span className="rounded bg-green-100 px-1.5 py-0.5 text-[11px] font-normal text-green-700">{m.selected}</span>
                        ) : null}
                      </span>
                      <span className="mt-0.5 block text-sm text-slate-600">{address.text}</span>
                    </span>
                  </label>
                  <div className="mt-2 flex justify-end gap-4 text-xs text-slate-500">
                    {!address.isDefault ? (
                      <button type="submit" form={`address-default-${address.id}`} className="hover:text-brand">
                        {m.setDefault}
                      </button>
                    ) : null}
                    <Link to={marketHref({ sheet: "address-form", address: address.id })} preventScrollReset className="hover:text-brand">
                      {m.edit}
                    </Link>
                    <button type="submit" form={`address-delete-${address.id}`} className="hover:text-red-600">
                      {m.delete}
                    </button>
                  </div>
                </li>
              ))}
            </ul>
          </fieldset>
        </Form>
      )}
      {addresses.map((address) => (
        <AddressRowForms key={address.id} id={address.id} />
      ))}
    </Panel>
  );
}

/** The per-address forms its buttons point to (forms cannot nest inside the select form). */
function AddressRowForms({ id }: { id: number }) {
  const remove = useFetcher();
  const makeDefault = useFetcher();
  useFetcherToast(remove);
  useFetcherToast(makeDefault);
  return (
    <>
      <remove.Form
        id={`address-delete-${id}`}
        method="post"
        action={ADDRESS_PICKER_ACTION}
        onSubmit={(event) => {
          if (!window.confirm(m.deleteConfirm)) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="delete-address" />
        <input type="hidden" name="addressId" value={id} />
      </remove.Form>
      <makeDefault.Form id={`address-default-${id}`} method="post" action={ADDRESS_PICKER_ACTION}>
        <input type="hidden" name="intent" value="default-address" />
        <input type="hidden" name="addressId" value={id} />
      </makeDefault.Form>
    </>
  );
}

type CampusOption = { code: string; name: string; buildings: string[] };

/**
 * The address form (spec section 5). The server validates with the zod schema and answers
 * conform's reply; the form shows its errors beside the fields and keeps what was typed, and the
 * fields carry the schema's constraints (computed in the loader). The building select waits for a
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
  address: AddressItem | null;
  campuses: CampusOption[];
  lastResult: FormReply;
  constraint?: Constraints;
  hydrated: boolean;
  defaultCampus: string | null;
}) {
  const form = formReply(
    "address-form",
    lastResult,
    constraint,
    address
      ? { name: address.name, phone: address.phone, campus: address.campusCode, building: address.building, room: address.room, isDefault: address.isDefault ? "on" : undefined }
      : { campus: defaultCampus ?? "" },
  );
  const fields = Object.fromEntries((["name", "phone", "campus", "building", "room", "isDefault"] as const).map((name) => [name, form.field(name)])) as Record<
    "name" | "phone" | "campus" | "building" | "room" | "isDefault",
    ReturnType<typeof form.field>
  >;
  const [campus, setCampus] = useState<string>(fields.campus.value || defaultCampus || "");
  const [building, setBuilding] = useState<string>(fields.building.value);
  const buildings = campuses.find((c) => c.code === campus)?.buildings ?? [];
  const formError = form.errors?.[0];

  return (
    <Panel title={address ? m.editTitle : m.newTitle} closeTo={marketHref({ sheet: "address" })} labelId="address-form-title">
      <Form method="post" noValidate preventScrollReset className="space-y-3" id="address-form" key={JSON.stringify(lastResult?.initialValue ?? null)}>
        <input type="hidden" name="intent" value="save-address" />
        {address ? <input type="hidden" name="addressId" value={address.id} /> : null}
        {formError ? (
          <p id={form.errorId} role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
            {formError}
          </p>
        ) : null}
        <Field label={m.name} field={fields.name}>
          <input {...fields.name.props} defaultValue={fields.name.value} placeholder={m.namePlaceholder} autoComplete="name" className="field-input" />
        </Field>
        <Field label={m.phone} field={fields.phone}>
          <input {...fields.phone.props} type="tel" defaultValue={fields.phone.value} placeholder={m.phonePlaceholder} inputMode="numeric" maxLength={11} autoComplete="tel" className="field-input" />
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label={m.campus} field={fields.campus}>
            <select
              {...fields.campus.props}
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
          </Field>
          <Field label={m.building} field={fields.building}>
            <select
              {...fields.building.props}
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
          </Field>
        </div>
        <Field label={m.room} field={fields.room}>
          <input {...fields.room.props} defaultValue={fields.room.value} placeholder={m.roomPlaceholder} className="field-input" />
        </Field>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            name="isDefault"
            defaultChecked={fields.isDefault.value === "on"}
            className="h-4 w-4 accent-[rgb(var(--brand))]"
          />
          {m.setDefault}
        </label>
        <button type="submit" className="btn-primary h-11 w-full">
          {m.save}
        </button>
      </Form>
    </Panel>
  );
}

function Field({ label, field, children }: { label: string; field: { id: string; errorId: string; errors?: string[] }; children: React.ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      {children}
      {field.errors?.length ? (
        <p id={field.errorId} className="field-error">
          {field.errors[0]}
        </p>
      ) : null}
    </div>
  );
}
