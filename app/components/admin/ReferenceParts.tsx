// Pieces shared by the reference-data pages (/admin/campuses, /admin/campuses/:code,
// /admin/schools, /admin/delivery-slots): the section tabs, a labelled field with its server
// message, the notices, and the page a non-admin operator gets. Forms are <Form>s run by conform's
// useForm: they post without JavaScript; the action answers conform's reply tagged with the form
// it belongs to, and the constraints come from the loader (zod stays on the server).
import { FieldError, FormError } from "~/components/FieldError";
import { getInputProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { Link, isRouteErrorResponse, useRouteError } from "@remix-run/react";
import type { ReactNode } from "react";
import { Page } from "~/components/Page";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";

const r = adminReferenceMessages;

export type ReferenceSection = "campuses" | "schools" | "slots" | "calendar";

/** What a reference action answers on a refusal: conform's reply, and which form it belongs to. */
export type TaggedReply = { formId: string; reply: SubmissionResult<string[]> };

/** The HTML constraints of a page's forms, computed by the loader with getZodConstraint. */
export type Constraints = Record<string, { required?: boolean; minLength?: number; maxLength?: number; pattern?: string; min?: string | number; max?: string | number; step?: string | number; multiple?: boolean }>;

export function ReferenceNav({ current }: { current: ReferenceSection }) {
  const links: { to: string; label: string; section: ReferenceSection }[] = [
    { to: "/admin/campuses", label: r.campuses, section: "campuses" },
    { to: "/admin/schools", label: r.schools, section: "schools" },
    { to: "/admin/delivery-slots", label: r.slots, section: "slots" },
    { to: "/admin/school-calendar", label: r.calendar, section: "calendar" },
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
export function replyFor(data: TaggedReply | undefined, formId: string): SubmissionResult<string[]> | undefined {
  return data?.formId === formId ? data.reply : undefined;
}

/**
 * conform's useForm for one form of a page: its own reply, the loader's constraints, and the
 * stored values as defaults. No onValidate: the server validates (noValidate, Chinese messages).
 */
export function useReferenceForm<Fields extends Record<string, unknown>>(
  formId: string,
  data: TaggedReply | undefined,
  constraint: Constraints,
  defaultValue: Partial<Record<keyof Fields, string>> = {},
) {
  return useForm<Fields>({ id: formId, lastResult: replyFor(data, formId), constraint, defaultValue: defaultValue as never });
}

type Field = FieldMetadata<any, any, string[]>;

export function TextField({
  field,
  label,
  hint,
  type = "text",
  ...rest
}: {
  field: Field;
  label: string;
  hint?: string;
  type?: "text" | "url" | "time";
  maxLength?: number;
  inputMode?: "decimal" | "text" | "url";
  placeholder?: string;
  required?: boolean;
  autoComplete?: string;
}) {
  const hintId = hint ? `${field.id}-hint` : undefined;
  const props = getInputProps(field, { type, ariaDescribedBy: hintId });
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      <input className="field-input" {...props} {...rest} />
      {hint ? (
        <p id={hintId} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError field={field} />
    </div>
  );
}

/** The form's own refusal, then its submit button across the form. */
export function SubmitRow({ form, busy, children }: { form: { errorId: string; errors?: string[] }; busy: boolean; children: ReactNode }) {
  return (
    <>
      <FormError id={form.errorId} message={form.errors?.[0]} />
      <button type="submit" disabled={busy} className="btn-primary h-11 w-full">
        {children}
      </button>
    </>
  );
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

/** A non-admin operator (403 from requireAdminPage) sees who may change the reference data. */
export function AdminRoleBoundary() {
  const error = useRouteError();
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  return (
    <Page title={adminMessages.navReference} back="/admin/orders">
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
