// /admin/campuses/:code — one campus (issue 14): its name and status (open or coming soon), its
// dorm buildings and pickup places (added, turned off and on again: never deleted, because
// addresses and orders name them), and its four package types with their prices. Each part is
// its own plain form, told apart by `intent`. Admin role only; every change is in /admin/audit.
// Students see a change on their next request; orders already placed keep their snapshot.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import {
  AdminRoleBoundary,
  FieldError,
  FormError,
  ReferenceNav,
  SavedNotice,
  Section,
  TextField,
  replyFor,
  useReferenceForm,
  type TaggedReply,
} from "~/components/admin/ReferenceParts";
import { fieldProps, formProps } from "~/components/form";
import { Page } from "~/components/Page";
import { CAMPUS_STATUSES, PACKAGE_TYPE_KEYS, formatYuan } from "~/lib/catalog";
import { allErrors } from "~/lib/form-result";
import { admin as adminMessages } from "~/lib/messages/admin";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";
import { app as appMessages } from "~/lib/messages/app";
import { CampusFormSchema, REFERENCE_LIMITS } from "~/lib/schemas/adminReference";
import { readinessBanner } from "~/server/admin/readiness.server";
import { campusForAdmin, invalidResponse, postedFormId, refusalResponse, saveCampus } from "~/server/admin/reference.server";
import { rejectCrossSite } from "~/server/auth/guard.server";
import { requireAdminRole } from "~/server/auth/operator.server";

const msg = { admin: adminMessages, adminReference: adminReferenceMessages, app: appMessages };
const r = msg.adminReference;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.campus.name ?? r.campusesTitle} · ${msg.app.name}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const operator = await requireAdminRole(request);
  const [campus, readiness] = await Promise.all([campusForAdmin(String(params.code ?? "")), readinessBanner()]);
  if (!campus) throw new Response("Not Found", { status: 404 });
  return { displayName: operator.display_name, campus, readiness, saved: new URL(request.url).searchParams.has("saved") };
}

export async function action({ request, params }: ActionFunctionArgs) {
  if (rejectCrossSite(request)) throw new Response(msg.admin.crossSite, { status: 403 });
  const operator = await requireAdminRole(request);
  const code = String(params.code ?? "");
  const formData = await request.formData();
  const formId = postedFormId(formData);
  const submission = parseWithZod(formData, { schema: CampusFormSchema });
  if (submission.status !== "success") return invalidResponse(formId, submission);
  const result = await saveCampus(operator, code, submission.value);
  if (!result.ok) return refusalResponse(formId, submission, result);
  return redirect(`/admin/campuses/${encodeURIComponent(code)}?saved=1`);
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminCampus() {
  const { displayName, campus, readiness, saved } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as TaggedReply | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <Page title={campus.name} back="/admin/campuses">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="reference" readiness={readiness} />
      <ReferenceNav current="campuses" />
      <SavedNotice show={saved} />
      <CampusForm campus={campus} data={data} busy={busy} />
      <NamedRows kind="building" campus={campus} data={data} busy={busy} />
      <NamedRows kind="place" campus={campus} data={data} busy={busy} />
      <PricesForm campus={campus} data={data} busy={busy} />
    </Page>
  );
}

type Campus = ReturnType<typeof useLoaderData<typeof loader>>["campus"];
type PartProps = { campus: Campus; data: TaggedReply | undefined; busy: boolean };

function CampusForm({ campus, data, busy }: PartProps) {
  const [form, fields] = useReferenceForm("campus", data, ["name", "status"], { name: campus.name, status: campus.status });
  return (
    <Section title={campus.name}>
      <Form method="post" {...formProps(form)} className="space-y-3" aria-label={r.status}>
        <input type="hidden" name="intent" value="campus" />
        <p className="text-xs text-slate-500">
          {r.code}：<span className="font-mono">{campus.code}</span>
        </p>
        <TextField field={fields.name} label={r.name} maxLength={REFERENCE_LIMITS.name} required />
        <fieldset aria-describedby={fields.status.errors ? fields.status.errorId : undefined}>
          <legend className="field-label">{r.status}</legend>
          <div className="flex gap-2">
            {CAMPUS_STATUSES.map((status) => (
              <label key={status} className="flex flex-1 items-center gap-2 rounded-xl border border-slate-200 px-3 py-2 text-sm">
                <input type="radio" name="status" value={status} defaultChecked={(fields.status.initialValue ?? campus.status) === status} />
                {r.statusLabels[status]}
              </label>
            ))}
          </div>
          <FieldError field={fields.status} />
        </fieldset>
        <FormError form={form} />
        <button type="submit" disabled={busy} className="btn-primary h-11 w-full">
          {r.save}
        </button>
      </Form>
    </Section>
  );
}

/** The buildings or the pickup places: the list with a turn-off/on button each, and an add form. */
function NamedRows({ kind, campus, data, busy }: PartProps & { kind: "building" | "place" }) {
  const building = kind === "building";
  const rows = building ? campus.buildings : campus.places;
  const field = building ? "buildingName" : "placeName";
  const [form, fields] = useReferenceForm(building ? "add-building" : "add-place", data, [field]);
  const toggleIntent = building ? "toggle-building" : "toggle-place";
  return (
    <Section title={building ? r.buildings : r.places} hint={r.disabledHint}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{building ? r.buildingsEmpty : r.placesEmpty}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={building ? r.buildings : r.places}>
          {rows.map((row) => {
            const error = allErrors(replyFor(data, `${toggleIntent}-${row.id}`))[0];
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
                {error ? (
                  <p role="alert" className="field-error">
                    {error}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {/* A new key after each add empties the field; a refused name stays as typed. */}
      <Form key={rows.length} method="post" {...formProps(form)} className="flex items-start gap-2">
        <input type="hidden" name="intent" value={building ? "add-building" : "add-place"} />
        <div className="min-w-0 flex-1">
          <label htmlFor={fields[field].id} className="sr-only">
            {building ? r.buildingName : r.placeName}
          </label>
          <input
            type="text"
            className="field-input"
            placeholder={building ? r.buildingName : r.placeName}
            maxLength={REFERENCE_LIMITS.name}
            required
            {...fieldProps(fields[field])}
          />
          <FieldError field={fields[field]} />
          <FormError form={form} />
        </div>
        <button type="submit" disabled={busy} className="btn-primary h-11 shrink-0" aria-label={`${r.add}${building ? r.buildings : r.places}`}>
          {r.add}
        </button>
      </Form>
    </Section>
  );
}

function PricesForm({ campus, data, busy }: PartProps) {
  const names = PACKAGE_TYPE_KEYS.flatMap((key) => [`${key}Name`, `${key}Desc`, `${key}Price`] as const);
  const defaults = Object.fromEntries(
    campus.packageTypes.flatMap((type) => [
      [`${type.type}Name`, type.name],
      [`${type.type}Desc`, type.description],
      [`${type.type}Price`, formatYuan(type.priceFen)],
    ]),
  );
  const [form, fields] = useReferenceForm("prices", data, names, defaults);
  return (
    <Section title={r.prices} hint={r.pricesHint}>
      <Form method="post" {...formProps(form)} className="space-y-4">
        <input type="hidden" name="intent" value="prices" />
        {PACKAGE_TYPE_KEYS.map((key) => (
          <fieldset key={key} className="space-y-2 rounded-xl border border-slate-100 p-3">
            <legend className="px-1 text-sm font-semibold">{fields[`${key}Name`].initialValue}</legend>
            <div className="grid grid-cols-[1fr_6.5rem] gap-2">
              <TextField field={fields[`${key}Name`]} label={r.priceName} maxLength={REFERENCE_LIMITS.name} required />
              <TextField field={fields[`${key}Price`]} label={r.priceYuan} inputMode="decimal" maxLength={6} required />
            </div>
            <TextField field={fields[`${key}Desc`]} label={r.priceDesc} maxLength={REFERENCE_LIMITS.desc} />
          </fieldset>
        ))}
        <FormError form={form} />
        <button type="submit" disabled={busy} className="btn-primary h-11 w-full">
          {r.save}
        </button>
      </Form>
    </Section>
  );
}
