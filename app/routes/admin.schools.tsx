// /admin/schools — the schools students log in with: name, code, the kind of
// academic system (one list: SCHOOL_SYSTEM_KINDS), its base URL, and whether students may choose
// it. Each school is its own form; a school is never deleted (students' accounts name it), it is
// turned off. Admin role only; every change is in /admin/audit.
import { getFormProps, getSelectProps } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { FieldError } from "~/components/FieldError";
import { AdminRoleBoundary, ReferenceNav, SavedNotice, Section, SubmitRow, TextField, useReferenceForm, type Constraints, type TaggedReply } from "~/components/admin/ReferenceParts";
import { Page } from "~/components/Page";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";
import { app as appMessages } from "~/lib/messages/app";
import { GPA_FORMULAS, REFERENCE_LIMITS, SCHOOL_SYSTEM_KINDS, SchoolFormSchema } from "~/lib/schemas/adminReference";
import { readinessBanner } from "~/server/http/readiness-banner";
import { listSchoolsForAdmin, saveSchool, type AdminSchool } from "~/server/admin/reference.server";
import { referenceAction } from "~/server/http/reference-refusals";
import { requireAdminPage } from "~/server/http/admin-guard";

const msg = { adminReference: adminReferenceMessages, app: appMessages };
const r = msg.adminReference;
type SchoolFields = { code: string; name: string; system: string; baseUrl: string; gpaFormula: string; enabled: string };

export const meta: MetaFunction = () => [{ title: `${r.schoolsTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  const [schools, readiness] = await Promise.all([listSchoolsForAdmin(), readinessBanner()]);
  return {
    displayName: operator.display_name,
    schools,
    readiness,
    kinds: [...SCHOOL_SYSTEM_KINDS],
    formulas: [...GPA_FORMULAS],
    // The schema stays on the server: the forms get its constraints and the limits as data.
    constraint: getZodConstraint(SchoolFormSchema) as Constraints,
    limits: REFERENCE_LIMITS,
    saved: new URL(request.url).searchParams.get("notice") === "saved",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  return referenceAction(request, SchoolFormSchema, saveSchool, () => "/admin/schools");
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminSchools() {
  const { displayName, schools, readiness, kinds, formulas, constraint, limits, saved } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as TaggedReply | undefined;
  const busy = useNavigation().state !== "idle";
  const parts = { kinds, formulas, data, busy, constraint, limits };
  return (
    <Page title={r.schoolsTitle} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="reference" readiness={readiness} />
      <ReferenceNav current="schools" />
      <SavedNotice show={saved} />
      {schools.length === 0 ? <p className="card text-center text-sm text-slate-500">{r.schoolsEmpty}</p> : null}
      {/* A new location (a save's redirect) mounts the forms afresh: stored values, no stale message. */}
      <Fragment key={useLocation().key}>
        {schools.map((school) => (
          <SchoolForm key={school.code} school={school} {...parts} />
        ))}
        <SchoolForm school={null} {...parts} />
      </Fragment>
    </Page>
  );
}

type SchoolFormProps = {
  school: AdminSchool | null;
  kinds: string[];
  formulas: string[];
  data: TaggedReply | undefined;
  busy: boolean;
  constraint: Constraints;
  limits: typeof REFERENCE_LIMITS;
};

function SchoolForm({ school, kinds, formulas, data, busy, constraint, limits }: SchoolFormProps) {
  const formId = school ? `update-${school.code}` : "create";
  const [form, fields] = useReferenceForm<SchoolFields>(formId, data, constraint, {
    code: school?.code,
    name: school?.name,
    system: school?.system ?? "zfsoft",
    baseUrl: school?.baseUrl ?? undefined,
    gpaFormula: school?.gpaFormula ?? "standard4",
    enabled: school ? (school.enabled ? "on" : "") : "on",
  });
  // After a refused post the box shows what was sent (absent = unchecked).
  const checked = fields.enabled.initialValue === "on";
  return (
    <Section title={school ? school.name : r.newSchool}>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={school ? school.name : r.newSchool}>
        <input type="hidden" name="intent" value={school ? "update" : "create"} />
        {school ? (
          <>
            <input type="hidden" name="code" value={school.code} />
            <p className="text-xs text-slate-500">
              {r.code}：<span className="font-mono">{school.code}</span>
            </p>
          </>
        ) : null}
        <TextField field={fields.name} label={r.name} maxLength={limits.schoolName} required />
        {school ? null : <TextField field={fields.code} label={r.code} hint={r.codeHint} maxLength={limits.code} autoComplete="off" required />}
        <div>
          <label htmlFor={fields.system.id} className="field-label">
            {r.system}
          </label>
          <select {...getSelectProps(fields.system)} className="field-input">
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {r.systemLabels[kind] ?? kind}
              </option>
            ))}
          </select>
          <FieldError field={fields.system} />
        </div>
        <TextField field={fields.baseUrl} label={r.baseUrl} hint={r.baseUrlHint} type="url" inputMode="url" maxLength={limits.baseUrl} />
        <div>
          <label htmlFor={fields.gpaFormula.id} className="field-label">
            {r.gpaFormula}
          </label>
          <select {...getSelectProps(fields.gpaFormula, { ariaDescribedBy: `${fields.gpaFormula.id}-hint` })} className="field-input">
            {formulas.map((formula) => (
              <option key={formula} value={formula}>
                {r.gpaFormulaLabels[formula] ?? formula}
              </option>
            ))}
          </select>
          <p id={`${fields.gpaFormula.id}-hint`} className="mt-1 text-xs text-slate-500">
            {r.gpaFormulaHint}
          </p>
          <FieldError field={fields.gpaFormula} />
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name={fields.enabled.name} defaultChecked={checked} key={fields.enabled.key} className="h-4 w-4" />
          {r.schoolEnabled}
        </label>
        <SubmitRow form={form} busy={busy}>
          {school ? r.save : r.newSchool}
        </SubmitRow>
      </Form>
    </Section>
  );
}
