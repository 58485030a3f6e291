// /admin/campuses — the campuses students choose from: each with its status, its
// buildings and pickup places, a link to manage it, and the form that adds a campus (it starts
// "coming soon"). Operators with the admin role only; every change is in /admin/audit.
import { getFormProps } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { FormError } from "~/components/FieldError";
import { AdminRoleBoundary, ReferenceNav, SavedNotice, Section, TextField, useReferenceForm, type Constraints, type TaggedReply } from "~/components/admin/ReferenceParts";
import { Page } from "~/components/Page";
import { CAMPUS_STATUS_ACTIVE } from "~/lib/catalog";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";
import { app as appMessages } from "~/lib/messages/app";
import { CampusCreateSchema, REFERENCE_LIMITS } from "~/lib/schemas/adminReference";
import { fillTemplate } from "~/lib/template";
import { readinessBanner } from "~/server/http/readiness-banner";
import { createCampus, listCampusesForAdmin } from "~/server/admin/reference.server";
import { referenceAction } from "~/server/http/reference-refusals";
import { requireAdminPage } from "~/server/http/admin-guard";

const msg = { adminReference: adminReferenceMessages, app: appMessages };
const r = msg.adminReference;
const FORM_ID = "create";

export const meta: MetaFunction = () => [{ title: `${r.campusesTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  const [campuses, readiness] = await Promise.all([listCampusesForAdmin(), readinessBanner()]);
  return {
    displayName: operator.display_name,
    campuses,
    readiness,
    // The schema stays on the server: the form gets its constraints and the limits as data.
    constraint: getZodConstraint(CampusCreateSchema) as Constraints,
    limits: REFERENCE_LIMITS,
    saved: new URL(request.url).searchParams.get("notice") === "saved",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  return referenceAction(request, CampusCreateSchema, createCampus, (form) => `/admin/campuses/${form.code}`);
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminCampuses() {
  const { displayName, campuses, readiness, constraint, limits, saved } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as TaggedReply | undefined;
  const busy = useNavigation().state !== "idle";
  const [form, fields] = useReferenceForm<{ code: string; name: string }>(FORM_ID, data, constraint);
  return (
    <Page title={r.campusesTitle} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="reference" readiness={readiness} />
      <ReferenceNav current="campuses" />
      <SavedNotice show={saved} />
      {campuses.length === 0 ? (
        <p className="card text-center text-sm text-slate-500">{r.campusesEmpty}</p>
      ) : (
        <ul className="space-y-2" aria-label={r.campuses}>
          {campuses.map((campus) => (
            <li key={campus.code}>
              <Link to={`/admin/campuses/${campus.code}`} className="card flex items-center gap-3" aria-label={`${r.editCampus} ${campus.name}`}>
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold">{campus.name}</span>
                  <span className="block text-xs text-slate-500">
                    <span className="font-mono">{campus.code}</span> · {fillTemplate(r.campusSummary, { buildings: campus.buildings, places: campus.places })}
                  </span>
                </span>
                <span
                  className={`rounded-full px-2 py-0.5 text-xs ${campus.status === CAMPUS_STATUS_ACTIVE ? "bg-green-50 text-green-700" : "bg-amber-50 text-amber-700"}`}
                >
                  {r.statusLabels[campus.status] ?? campus.status}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Section title={r.newCampus} hint={r.newCampusHint}>
        <Form method="post" {...getFormProps(form)} className="space-y-3">
          <input type="hidden" name="intent" value="create" />
          <TextField field={fields.name} label={r.name} maxLength={limits.name} required />
          <TextField field={fields.code} label={r.code} hint={r.codeHint} maxLength={limits.code} autoComplete="off" required />
          <FormError id={form.errorId} message={form.errors?.[0]} />
          <button type="submit" disabled={busy} className="btn-primary h-11 w-full">
            {r.newCampus}
          </button>
        </Form>
      </Section>
    </Page>
  );
}
