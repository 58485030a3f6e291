// Pieces shared by the reference-data pages (/admin/campuses, /admin/campuses/:code,
// /admin/schools, /admin/delivery-slots): the section tabs, a labelled field with its server
// message, the notices, and the page a non-admin operator gets. Forms are plain <Form>s: they
// post without JavaScript; the action answers conform's reply tagged with the form it belongs to.
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { fieldProps, useServerForm, type FieldMeta } from "~/components/form";
import { Page } from "~/components/Page";
import type { FormResult } from "~/lib/form-result";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";

const r = adminReferenceMessages;

export type ReferenceSection = "campuses" | "schools" | "slots";

/** What a reference action answers on a refusal: conform's reply, and which form it belongs to. */
export type TaggedReply = { formId: string; reply: FormResult };

export function ReferenceNav({ current }: { current: ReferenceSection }) {
  const links: { to: string; label: string; section: ReferenceSection }[] = [
    { to: "/admin/campuses", label: r.campuses, section: "campuses" },
    { to: "/admin/schools", label: r.schools, section: "schools" },
    { to: "/admin/delivery-slots", label: r.slots, section: "slots" },
  ];
  return (
    <nav aria-label={r.subnav} className="flex rounded-xl bg-white p-1 shadow-sm">
      {links.map((link) => (
        <Link
          key={link.to}
          to={link.to}
          aria-current={link.section === current ? "page" : undefined}
          className={`flex-1 rounded-lg py-1.5 text-center text-sm font-medium ${link.section === current ? "bg-brand-soft text-brand" : "text-slate-600"}`}
        >
          {link.label}
        </Link>
      ))}
    </nav>
  );
}

/** The reply for this form only (a page holds many forms; only the posted one shows messages). */
export function replyFor(data: TaggedReply | undefined, formId: string): FormResult | undefined {
  return data?.formId === formId ? data.reply : undefined;
}

/** conform's reply read into fields (see ~/components/form). */
export function useReferenceForm<Name extends string>(
  formId: string,
  data: TaggedReply | undefined,
  names: readonly Name[],
  defaults: Partial<Record<Name, string>> = {},
) {
  return useServerForm(formId, replyFor(data, formId), names, defaults);
}

export function TextField({
  field,
  label,
  hint,
  type = "text",
  ...rest
}: {
  field: FieldMeta;
  label: string;
  hint?: string;
  type?: string;
  maxLength?: number;
  inputMode?: "decimal" | "text" | "url";
  placeholder?: string;
  required?: boolean;
  autoComplete?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const props = fieldProps(field);
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <input
        type={type}
        className="field-input"
        {...props}
        aria-describedby={[props["aria-describedby"], hintId].filter(Boolean).join(" ") || undefined}
        {...rest}
      />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

export function FieldError({ field }: { field: FieldMeta }) {
  return field.errors ? (
    <p id={field.errorId} className="field-error">
      {field.errors[0]}
    </p>
  ) : null;
}

export function FormError({ form }: { form: { errorId: string; errors?: string[] } }) {
  return form.errors ? (
    <p id={form.errorId} role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
      {form.errors[0]}
    </p>
  ) : null;
}

export function SavedNotice({ show }: { show: boolean }) {
  return show ? (
    <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-sm text-green-700">
      {r.saved}
    </p>
  ) : null;
}

export function Section({ title, children, hint }: { title: string; children: ReactNode; hint?: string }) {
  return (
    <section className="card space-y-3">
      <h2 className="text-base font-semibold">{title}</h2>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {children}
    </section>
  );
}

/** A non-admin operator (403 from requireAdminRole) sees who may change the reference data. */
export function AdminRoleBoundary() {
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <Page title={r.nav} back="/admin/orders">
      <section className="card space-y-2 text-center" role="alert">
        <p className="text-base font-semibold">{forbidden ? r.adminOnly : r.failed}</p>
        {forbidden ? <p className="text-sm text-slate-500">{r.adminOnlyHint}</p> : null}
        <Link to="/admin/orders" className="btn-ghost">
          {r.back}
        </Link>
      </section>
    </Page>
  );
}
