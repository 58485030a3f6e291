// /admin/school-calendar — the 校历 of a school's term: holidays (no classes), 调休 days (a day
// that runs another date's classes) and exam weeks (marked). The students' grid, today's card and
// calendar feed follow it; a term without entries shows the teaching weeks as they are. Admin role
// only; the forms post without JavaScript.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { AdminRoleBoundary, ReferenceNav, type Constraints } from "~/components/admin/ReferenceParts";
import { FieldError } from "~/components/FieldError";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { CALENDAR_KINDS } from "~/lib/school-calendar";
import { CalendarDeleteSchema, CalendarEntrySchema, type CalendarEntryFields } from "~/lib/schemas/timetable";
import { fillTemplate } from "~/lib/template";
import { parseTermCode, recentTerms, termForDate, termLabel } from "~/lib/term";
import { readinessBanner } from "~/server/http/readiness-banner";
import { listSchoolsForAdmin } from "~/server/admin/reference.server";
import { requireAdminPage } from "~/server/http/admin-guard";
import { addCalendarEntry, deleteCalendarEntry, listCalendarEntries } from "~/server/schedule/school-calendar.server";

// The page's texts come with its data: the timetable's and schedule's catalogues are imported by the
// loader and the action only (dynamic imports, dropped with them from the browser build), so the
// page's JavaScript carries neither (-3.6 KB gzip). The 校历 kinds come with the data too.
const msg = { app: appMessages };

async function calendarTexts() {
  const [{ timetable: t }, { schedule: scheduleMessages }] = await Promise.all([import("~/lib/messages/timetable"), import("~/lib/messages/schedule")]);
  return {
    term: scheduleMessages.term,
    switchTerm: scheduleMessages.switchTerm,
    calendarAdd: t.calendarAdd,
    calendarAdded: t.calendarAdded,
    calendarAdminHint: t.calendarAdminHint,
    calendarAdminTitle: t.calendarAdminTitle,
    calendarDelete: t.calendarDelete,
    calendarEmpty: t.calendarEmpty,
    calendarFrom: t.calendarFrom,
    calendarKind: t.calendarKind,
    calendarKinds: t.calendarKinds,
    calendarLabel: t.calendarLabel,
    calendarRuns: t.calendarRuns,
    calendarRunsText: t.calendarRunsText,
    calendarSchool: t.calendarSchool,
    calendarTo: t.calendarTo,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.texts.calendarAdminTitle ?? ""} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

function pageHref(school: string, term: string, extra: Record<string, string> = {}) {
  return `/admin/school-calendar?${new URLSearchParams({ school, term, ...extra })}`;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  const params = new URL(request.url).searchParams;
  const schools = await listSchoolsForAdmin();
  const school = schools.find((entry) => entry.code === params.get("school"))?.code ?? schools[0]?.code ?? "";
  const current = termForDate(new Date()).code;
  const requested = params.get("term");
  const term = requested && parseTermCode(requested) ? requested : current;
  const terms = [...new Set([term, ...recentTerms(current, 4)])];
  return {
    displayName: operator.display_name,
    readiness: await readinessBanner(),
    schools: schools.map((entry) => ({ code: entry.code, name: entry.name })),
    school,
    term,
    terms: terms.map((code) => ({ code, label: termLabel(code) })),
    entries: school ? await listCalendarEntries(school, term) : [],
    added: params.has("added"),
    constraint: getZodConstraint(CalendarEntrySchema) as Constraints,
    texts: await calendarTexts(),
    kinds: [...CALENDAR_KINDS],
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireAdminPage(request);
  const { timetable: timetableMessages } = await import("~/lib/messages/timetable");
  const formData = await request.formData();
  const url = new URL(request.url);
  const back = (extra: Record<string, string> = {}) => redirect(pageHref(url.searchParams.get("school") ?? "", url.searchParams.get("term") ?? "", extra));
  const removal = CalendarDeleteSchema.safeParse(Object.fromEntries(formData));
  if (removal.success) {
    await deleteCalendarEntry(removal.data.id);
    return back();
  }
  const submission = parseWithZod(formData, { schema: CalendarEntrySchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  if (!(await listSchoolsForAdmin()).some((entry) => entry.code === value.school)) return Response.json(submission.reply({ formErrors: [timetableMessages.courseMissing] }), { status: 400 });
  await addCalendarEntry({ schoolCode: value.school, term: value.term, kind: value.kind, from: value.from, to: value.to || value.from, runsDate: value.runsDate ?? null, label: value.label });
  return redirect(pageHref(value.school, value.term, { added: "1" }));
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminSchoolCalendar() {
  const data = useLoaderData<typeof loader>();
  const t = data.texts;
  const reply = useActionData<typeof action>();
  const [form, fields] = useForm<CalendarEntryFields>({ id: "calendar-entry", lastResult: reply as never, constraint: data.constraint, defaultValue: { kind: "holiday" } });
  return (
    <Page title={t.calendarAdminTitle} back="/admin/orders">
      <OperatorBar displayName={data.displayName} current="orders" />
      <AdminNav current="reference" readiness={data.readiness} />
      <ReferenceNav current="calendar" />
      <Form method="get" action="/admin/school-calendar" className="card grid grid-cols-2 gap-2">
        <label className="block">
          <span className="field-label">{t.calendarSchool}</span>
          <select name="school" defaultValue={data.school} className="field-input py-2 text-sm">
            {data.schools.map((school) => (
              <option key={school.code} value={school.code}>
                {school.name}
              </option>
            ))}
          </select>
        </label>
        <label className="block">
          <span className="field-label">{t.term}</span>
          <select name="term" defaultValue={data.term} className="field-input py-2 text-sm">
            {data.terms.map((term) => (
              <option key={term.code} value={term.code}>
                {term.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="btn-ghost col-span-2">
          {t.switchTerm}
        </button>
      </Form>
      <p className="px-1 text-xs text-slate-500">{t.calendarAdminHint}</p>
      <section className="card">
        {data.entries.length === 0 ? (
          <p className="text-center text-sm text-slate-500">{t.calendarEmpty}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {data.entries.map((entry) => (
              <li key={entry.id} className="flex items-center gap-2 py-2 text-sm">
                <span className="flex-1">
                  <span className="font-medium">{entry.label}</span>
                  <span className="ml-2 rounded bg-slate-100 px-1.5 text-xs text-slate-600">{t.calendarKinds[entry.kind]}</span>
                  <span className="block text-xs text-slate-500">
                    {entry.from === entry.to ? entry.from : `${entry.from} ~ ${entry.to}`}
                    {entry.runsDate ? ` · ${fillTemplate(t.calendarRunsText, { date: entry.runsDate })}` : ""}
                  </span>
                </span>
                <Form method="post" action={pageHref(data.school, data.term)}>
                  <input type="hidden" name="intent" value="delete" />
                  <input type="hidden" name="id" value={entry.id} />
                  <button type="submit" className="btn-ghost px-3 py-1 text-xs text-red-600">
                    {t.calendarDelete}
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Form method="post" action={pageHref(data.school, data.term)} {...getFormProps(form)} className="card space-y-3">
        {data.added ? (
          <p role="status" className="text-sm text-emerald-700">
            {t.calendarAdded}
          </p>
        ) : null}
        {form.errors?.length ? (
          <p role="alert" className="text-sm text-red-700">
            {form.errors[0]}
          </p>
        ) : null}
        <input type="hidden" name="intent" value="add" />
        <input type="hidden" name="school" value={data.school} />
        <input type="hidden" name="term" value={data.term} />
        <label className="block">
          <span className="field-label">{t.calendarKind}</span>
          <select {...getSelectProps(fields.kind)} key={fields.kind.key} className="field-input py-2 text-sm">
            {data.kinds.map((kind) => (
              <option key={kind} value={kind}>
                {t.calendarKinds[kind]}
              </option>
            ))}
          </select>
          <FieldError field={fields.kind} as="span" alert />
        </label>
        <label className="block">
          <span className="field-label">{t.calendarLabel}</span>
          <input {...getInputProps(fields.label, { type: "text" })} key={fields.label.key} className="field-input" />
          <FieldError field={fields.label} as="span" alert />
        </label>
        <div className="grid grid-cols-2 gap-2">
          <label className="block">
            <span className="field-label">{t.calendarFrom}</span>
            <input {...getInputProps(fields.from, { type: "date" })} key={fields.from.key} className="field-input" />
            <FieldError field={fields.from} as="span" alert />
          </label>
          <label className="block">
            <span className="field-label">{t.calendarTo}</span>
            <input {...getInputProps(fields.to, { type: "date" })} key={fields.to.key} className="field-input" />
            <FieldError field={fields.to} as="span" alert />
          </label>
        </div>
        <label className="block">
          <span className="field-label">{t.calendarRuns}</span>
          <input {...getInputProps(fields.runsDate, { type: "date" })} key={fields.runsDate.key} className="field-input" />
          <FieldError field={fields.runsDate} as="span" alert />
        </label>
        <button type="submit" className="btn-primary w-full">
          {t.calendarAdd}
        </button>
      </Form>
    </Page>
  );
}
