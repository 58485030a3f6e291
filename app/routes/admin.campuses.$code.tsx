// /admin/campuses/:code — one campus: its name and status (open or coming soon), its
// dorm buildings and pickup places (added, turned off and on again: never deleted, because
// addresses and orders name them), and its four package types with their prices. Each part is
// its own plain form, told apart by `intent`. Admin role only; every change is in /admin/audit.
// Students see a change on their next request; orders already placed keep their snapshot.
import { FieldError, FormError } from "~/components/FieldError";
import { getFormProps, getInputProps, type FormMetadata } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Fragment, type ReactNode } from "react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import {
  AdminRoleBoundary,
  ReferenceNav,
  SavedNotice,
  Section,
  SubmitRow,
  TextField,
  replyFor,
  useReferenceForm,
  type Constraints,
  type TaggedReply,
} from "~/components/admin/ReferenceParts";
import { Page } from "~/components/Page";
import { CAMPUS_STATUSES, PACKAGE_TYPE_KEYS } from "~/lib/catalog";
import { formatYuan } from "~/lib/money";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";
import { app as appMessages } from "~/lib/messages/app";
import { CampusFormSchema, REFERENCE_LIMITS } from "~/lib/schemas/adminReference";
import { readinessBanner } from "~/server/http/readiness-banner";
import { campusForAdmin, saveCampus } from "~/server/admin/reference.server";
import { referenceAction } from "~/server/http/reference-refusals";
import { requireAdminPage } from "~/server/http/admin-guard";

const msg = { adminReference: adminReferenceMessages, app: appMessages };
const r = msg.adminReference;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campus.name ?? r.campusesTitle} · ${msg.app.name}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  const [campus, readiness] = await Promise.all([campusForAdmin(String(params.code ?? "")), readinessBanner()]);
  if (!campus) throw new Response("Not Found", { status: 404 });
  return {
    displayName: operator.display_name,
    campus,
    readiness,
    // The schema stays on the server: the forms get its constraints and the limits as data.
    constraint: getZodConstraint(CampusFormSchema) as Constraints,
    limits: REFERENCE_LIMITS,
    saved: new URL(request.url).searchParams.get("notice") === "saved",
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const code = String(params.code ?? "");
  return referenceAction(request, CampusFormSchema, (operator, form) => saveCampus(operator, code, form), () => `/admin/campuses/${encodeURIComponent(code)}`);
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminCampus() {
  const { displayName, campus, readiness, constraint, limits, saved } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as TaggedReply | undefined;
  const busy = useNavigation().state !== "idle";
  const parts = { campus, data, busy, constraint, limits };
  return (
    <Page title={campus.name} back="/admin/campuses">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="reference" readiness={readiness} />
      <ReferenceNav current="campuses" />
      <SavedNotice show={saved} />
      {/* A new location (a save's redirect) mounts the forms afresh: stored values, no stale message. */}
      <Fragment key={useLocation().key}>
        <CampusForm {...parts} />
        <NamedRows kind="building" {...parts} />
        <NamedRows kind="place" {...parts} />
        <PricesForm {...parts} />
      </Fragment>
    </Page>
  );
}

type Campus = ReturnType<typeof useLoaderData<typeof loader>>["campus"];
type PartProps = { campus: Campus; data: TaggedReply | undefined; busy: boolean; constraint: Constraints; limits: { name: number; desc: number } };

/** The first message of a buttons-only form's reply (a toggle has no field to show it beside). */
function firstError(reply: ReturnType<typeof replyFor>) {
  return Object.values(reply?.error ?? {}).find((messages) => messages?.length)?.[0];
}

function CampusForm({ campus, data, busy, constraint, limits }: PartProps) {
  const [form, fields] = useReferenceForm<{ name: string; status: string }>("campus", data, constraint, { name: campus.name, status: campus.status });
  return (
    <SaveForm title={campus.name} intent="campus" form={form} busy={busy} className="space-y-3" label={r.status}>
      <p className="text-xs text-slate-500">
        {r.code}：<span className="font-mono">{campus.code}</span>
      </p>
      <TextField field={fields.name} label={r.name} maxLength={limits.name} required />
      <fieldset aria-describedby={fields.status.errors ? fields.status.errorId : undefined}>
        <legend className="field-label">{r.status}</legend>
        <div className="flex gap-2">
          {CAMPUS_STATUSES.map((status) => (
            <label key={status} className="flex flex-1 items-center gap-2 rounded-xl border border-slate-200 px-3 py-2 text-sm">
              <input type="radio" name={fields.status.name} value={status} defaultChecked={(fields.status.initialValue ?? campus.status) === status} key={fields.status.key} />
              {r.statusLabels[status]}
            </label>
          ))}
        </div>
        <FieldError field={fields.status} />
      </fieldset>
    </SaveForm>
  );
}

/** The buildings or the pickup places: the list with a turn-off/on button each, and an add form. */
function NamedRows({ kind, campus, data, busy, constraint, limits }: PartProps & { kind: "building" | "place" }) {
  const building = kind === "building";
  const rows = building ? campus.buildings : campus.places;
  const field = building ? "buildingName" : "placeName";
  const [form, fields] = useReferenceForm<{ buildingName: string; placeName: string }>(building ? "add-building" : "add-place", data, constraint);
  const toggleIntent = building ? "toggle-building" : "toggle-place";
  return (
    <Section title={building ? r.buildings : r.places} hint={r.disabledHint}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{building ? r.buildingsEmpty : r.placesEmpty}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={building ? r.buildings : r.places}>
          {rows.map((row) => {
            const error = firstError(replyFor(data, `${toggleIntent}-${row.id}`));
            return (
              <li key={row.id} className="py-2">
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="intent" value={toggleIntent} />
                  <input type="hidden" name="id" value={row.id} />
                  <input type="hidden" name="enabled" value={row.enabled ? "0" : "1"} />
                  <span className={`min-w-0 flex-1 truncate text-sm ${row.enabled ? "" : "text-slate-400 line-through"}`}>{row.name}</span>
                  <span className={`text-xs ${row.enabled ? "text-green-700" : "text-slate-400"}`}>{row.enabled ? r.enabled : r.disabled}</span>
                  <button type="submit" disabled={busy} className="btn-ghost px-3 py-1" aria-label={`${row.enabled ? r.disable : r.enable} ${row.name}`}>
                    {row.enabled ? r.disable : r.enable}
                  </button>
                </Form>
                <FieldError field={{ errors: error ? [error] : undefined }} alert />
              </li>
            );
          })}
        </ul>
      )}
      <Form method="post" {...getFormProps(form)} className="flex items-start gap-2">
        <input type="hidden" name="intent" value={building ? "add-building" : "add-place"} />
        <div className="min-w-0 flex-1">
          <label htmlFor={fields[field].id} className="sr-only">
            {building ? r.buildingName : r.placeName}
          </label>
          <input
            className="field-input"
            placeholder={building ? r.buildingName : r.placeName}
            {...getInputProps(fields[field], { type: "text" })}
            maxLength={limits.name}
            required
          />
          <FieldError field={fields[field]} />
          <FormError id={form.errorId} message={form.errors?.[0]} />
        </div>
        <button type="submit" disabled={busy} className="btn-primary h-11 shrink-0" aria-label={`${r.add}${building ? r.buildings : r.places}`}>
          {r.add}
        </button>
      </Form>
    </Section>
  );
}

type PriceField = `${(typeof PACKAGE_TYPE_KEYS)[number]}${"Name" | "Desc" | "Price"}`;

function PricesForm({ campus, data, busy, constraint, limits }: PartProps) {
  const defaults = Object.fromEntries(
    campus.packageTypes.flatMap((type) => [
      [`${type.type}Name`, type.name],
      [`${type.type}Desc`, type.description],
      [`${type.type}Price`, formatYuan(type.priceFen)],
    ]),
  );
  const [form, fields] = useReferenceForm<Record<PriceField, string>>("prices", data, constraint, defaults);
  return (
    <SaveForm title={r.prices} hint={r.pricesHint} intent="prices" form={form} busy={busy} className="space-y-4">
      {PACKAGE_TYPE_KEYS.map((key) => (
        <fieldset key={key} className="space-y-2 rounded-xl border border-slate-100 p-3">
          <legend className="px-1 text-sm font-semibold">{String(fields[`${key}Name`].initialValue ?? "")}</legend>
          <div className="grid grid-cols-[1fr_6.5rem] gap-2">
            <TextField field={fields[`${key}Name`]} label={r.priceName} maxLength={limits.name} required />
            <TextField field={fields[`${key}Price`]} label={r.priceYuan} inputMode="decimal" maxLength={6} required />
          </div>
          <TextField field={fields[`${key}Desc`]} label={r.priceDesc} maxLength={limits.desc} />
        </fieldset>
      ))}
    </SaveForm>
  );
}

/** A section whose form posts one `intent` and ends with 保存 and the form's refusal. */
function SaveForm({
  title,
  hint,
  intent,
  form,
  busy,
  className,
  label,
  children,
}: {
  title: string;
  hint?: string;
  intent: string;
  form: FormMetadata<any, string[]>;
  busy: boolean;
  className: string;
  label?: string;
  children: ReactNode;
}) {
  return (
    <Section title={title} hint={hint}>
      <Form method="post" {...getFormProps(form)} className={className} aria-label={label}>
        <input type="hidden" name="intent" value={intent} />
        {children}
        <SubmitRow form={form} busy={busy}>
          {r.save}
        </SubmitRow>
      </Form>
    </Section>
  );
}
