import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useFetcher } from "@remix-run/react";
import { useState } from "react";
import { ADDRESS_PICKER_ACTION } from "~/lib/market-links";
import { marketHref } from "~/lib/market-url";
import { addressSheet } from "~/lib/messages/market-sheet-address";
import { Panel } from "./Panel";
import { useFetcherToast } from "./toast-context";
import { FormError } from "~/components/FieldError";

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
export function AddressPicker({ addresses, selectedId, lastResult }: { addresses: AddressItem[]; selectedId: number | null; lastResult?: SubmissionResult<string[]> }) {
  const [chosen, setChosen] = useState<number | null>(selectedId);
  // The choice is checked by the action's schema; what it refuses (another campus) shows above the list.
  const [form] = useForm({ id: "address-select", lastResult });
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
        <Form method="post" action={ADDRESS_PICKER_ACTION} preventScrollReset {...getFormProps(form)}>
          <input type="hidden" name="intent" value="select-address" />
          <FormError id={form.errorId} message={error} className="mb-2" />
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
