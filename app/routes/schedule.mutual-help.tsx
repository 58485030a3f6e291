import { getFormProps, getInputProps, getTextareaProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { FieldError, FormError } from "~/components/FieldError";
import { Icon } from "~/components/icons";
import type { ReactNode } from "react";
import { Page, useHydrated } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { helpDates as helpDatesMessages } from "~/lib/messages/helpDates";
import { mutualHelp as mutualHelpMessages } from "~/lib/messages/mutualHelp";
import { titles as titlesMessages } from "~/lib/messages/titles";
import {
  COURSE_KINDS,
  CONTACT_MAX,
  MUTUAL_HELP_NOTE_MAX,
  courseKindLabel,
  isCourseKind,
  mutualHelpFeeText,
  readHelpCourseRef,
  type CourseKind,
} from "~/lib/mutual-help";
import { MutualHelpSchema, type MutualHelpFields } from "~/lib/schemas/schedule";
import { fillTemplate } from "~/lib/template";
import { db } from "~/server/db/db.server";
import { dropDraft, keepClosedDraft, takeDraft } from "~/server/forum/draft-stash.server";
import { helpClassOf, helpDateProblem, lastContactOf, publishMutualHelp } from "~/server/schedule/mutual-help.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, mutualHelp: mutualHelpMessages, titles: titlesMessages };

const h = msg.mutualHelp;
const d = helpDatesMessages;

export const meta: MetaFunction = () => [{ title: `${msg.titles.mutualHelp} · ${msg.app.name}` }];

/** The class from the student's own timetable, or null when the link names none (never free text). */
async function requestedClass(request: Request, user: Awaited<ReturnType<typeof requireStudent>>, params: URLSearchParams | FormData) {
  const ref = readHelpCourseRef(params);
  const url = new URL(request.url);
  return ref ? { ref, help: await helpClassOf(user, ref, { returnTo: url.pathname + url.search }) } : { ref: null, help: null };
}

/** Where a closed form's text is kept: one draft per class of the timetable (any of its dates). */
function draftPath(params: URLSearchParams | FormData) {
  const ref = readHelpCourseRef(params);
  return ref ? `/schedule/mutual-help?term=${ref.term}&course=${ref.course}` : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const params = new URL(request.url).searchParams;
  const { ref, help } = await requestedClass(request, user, params);
  const path = draftPath(params);
  const kept = help && path ? await takeDraft(request, user.id, "help", path) : null;
  // The coming meetings of the class, each with this student's request for it when there is one.
  const upcoming = help?.upcoming ?? [];
  const asked = upcoming.length
    ? await db()
        .selectFrom("mutual_help_requests")
        .select(["class_date", "post_id"])
        .where("user_id", "=", user.id)
        .where("class_key", "=", help!.classKey)
        .where(
          "class_date",
          "in",
          upcoming.map((occurrence) => occurrence.date),
        )
        .execute()
    : [];
  const occurrences = upcoming.map((occurrence) => ({
    week: occurrence.week,
    time: occurrence.time,
    postId: asked.find((row) => row.class_date === occurrence.date)?.post_id ?? null,
  }));
  // The class of the week the link names when it is still to come, else the next one not asked for yet.
  const chosen = occurrences.find((occurrence) => occurrence.week === ref?.week && occurrence.postId === null) ?? occurrences.find((occurrence) => occurrence.postId === null) ?? null;
  return {
    ref: help ? ref : null,
    course: help?.course ?? null,
    time: help?.time ?? "",
    occurrences,
    chosenWeek: chosen?.week ?? null,
    moved: Boolean(help && chosen && chosen.week !== ref?.week),
    profile: {
      studentId: user.student_id,
      name: user.real_name ?? "",
      className: user.class_name ?? "",
      college: user.college ?? "",
    },
    lastContact: await lastContactOf(user.id),
    // What was typed before the back arrow (kept on the server): the form opens with it again.
    draft: kept ? { note: kept.content, contact: kept.contact ?? null, kind: kept.courseKind ?? null } : null,
    // HTML constraints from the form's schema, computed here so zod stays off the page (decision 026).
    constraint: getZodConstraint(MutualHelpSchema),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const formData = await request.formData();
  // The back arrow: keep what was typed for when this class's form opens again, then go back.
  if (formData.get("intent") === "leave") {
    const path = draftPath(formData);
    const text = (name: string) => String(formData.get(name) ?? "").slice(0, MUTUAL_HELP_NOTE_MAX);
    const typed = { content: text("note"), isAnonymous: false, contact: text("contact").slice(0, CONTACT_MAX), courseKind: isCourseKind(text("kind")) ? text("kind") : undefined };
    const setCookie = path ? await keepClosedDraft(request, { userId: user.id, clientIp: context?.clientIp }, "help", path, typed.content.trim() || typed.courseKind ? typed : null) : null;
    return redirect("/schedule", setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
  }
  const submission = parseWithZod(formData, { schema: MutualHelpSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  if (!user.student_id || !user.real_name) {
    return Response.json(submission.reply({ formErrors: [h.userIncomplete] }), { status: 400 });
  }
  const { help } = await requestedClass(request, user, formData);
  if (!help) return Response.json(submission.reply({ formErrors: [h.courseNotFound] }), { status: 400 });
  // Only a class still to come, once per class and date (a link edited by hand included).
  const problem = await helpDateProblem(user, help);
  if (problem) {
    const message = problem.problem === "past" ? d.pastDate : d.duplicateDate;
    return Response.json(submission.reply({ fieldErrors: { week: [message] } }), { status: problem.problem === "past" ? 400 : 409 });
  }
  const result = await publishMutualHelp(user, {
    help,
    kind: submission.value.kind,
    note: submission.value.note ?? "",
    contact: submission.value.contact ?? null,
  });
  if (!result.ok && result.reason === "duplicate") return Response.json(submission.reply({ fieldErrors: { week: [d.duplicateDate] } }), { status: 409 });
  if (!result.ok) {
    const message = fillTemplate(h.publishFailed, { reason: result.reason === "banned" ? h.banned : h.retryLater });
    return Response.json(submission.reply({ formErrors: [message] }), { status: 403 });
  }
  await dropDraft(request, "help");
  return redirect(`/post/${result.id}`);
}

export default function MutualHelp() {
  const { ref, course, occurrences, chosenWeek, moved, profile, lastContact, draft, constraint } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm<MutualHelpFields>({
    id: "help-form",
    lastResult: reply,
    constraint,
    defaultValue: { contact: draft?.contact ?? lastContact, note: draft?.note ?? "", kind: draft?.kind ?? undefined },
  });
  const initialKind = fields.kind.initialValue;
  const initialNote = fields.note.initialValue ?? "";
  const [kind, setKind] = useState<CourseKind | null>(isCourseKind(initialKind) ? initialKind : null);
  const [noteLength, setNoteLength] = useState(initialNote.length);
  const hydrated = useHydrated();
  // Back in the browser (with JavaScript) keeps what was typed too, as the back arrow does.
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef(false);
  // A refused form stays open: its text is not sent yet.
  useEffect(() => {
    if (navigation.state === "idle" && reply) sent.current = false;
  }, [navigation.state, reply]);
  useEffect(() => {
    const element = formRef.current;
    if (!element || !ref) return;
    const typedAtStart = new FormData(element).get("note");
    return () => {
      if (sent.current) return;
      const body = new FormData(element);
      if (!String(body.get("note") ?? "").trim() && !body.get("kind") && !typedAtStart) return;
      body.set("intent", "leave");
      void fetch(element.action, { method: "POST", body, keepalive: true, redirect: "manual", credentials: "same-origin" }).catch(() => undefined);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const publishing = navigation.state !== "idle" && navigation.formAction?.startsWith("/schedule/mutual-help") === true;
  const formError = form.errors?.[0];
  const kindError = fields.kind.errors?.[0];
  const hasCourse = course !== null && occurrences.length > 0;
  const weekValue = fields.week.initialValue ?? (chosenWeek === null ? "" : String(chosenWeek));
  // The date chosen (kept in state for JavaScript, where the form is not rendered again after an answer).
  const [selectedWeek, setSelectedWeek] = useState(weekValue);
  useEffect(() => setSelectedWeek(weekValue), [weekValue]);
  const askedPostId = occurrences.find((occurrence) => String(occurrence.week) === selectedWeek)?.postId ?? null;

  const courseRows: [string, string][] = course
    ? [
        [h.courseName, course.courseName],
        [h.location, course.location],
        [h.period, course.period ? fillTemplate(h.periodValue, { period: course.period }) : ""],
        [h.teacher, course.teacher],
        [h.weeks, course.weeks],
      ]
    : [];
  const profileRows: [string, string][] = [
    [h.studentId, profile.studentId ?? ""],
    [h.name, profile.name],
    [h.className, profile.className],
    [h.college, profile.college],
  ];

  return (
    <Page title={msg.titles.mutualHelp} back="/schedule" backForm={ref ? form.id : undefined}>
      <Form method="post" {...getFormProps(form)}
        ref={formRef}
        onSubmit={(event) => {
          sent.current = true;
          form.onSubmit(event);
        }}
        noValidate={false} className="space-y-3 pb-24">
        {ref ? (
          <div hidden>
            <input type="hidden" name="term" value={ref.term} />
            <input type="hidden" name="course" value={ref.course} />
          </div>
        ) : null}

        <FormError id={form.errorId} message={formError} />

        <section className="card space-y-3" aria-labelledby="course-title">
          <h2 id="course-title" className="flex items-center gap-1.5 text-base font-semibold">
            <Icon name="course" className="h-5 w-5 text-brand" />
            {h.courseInfo}
          </h2>
          {course && occurrences.length > 0 ? (
            <>
              <InfoList rows={courseRows} />
              <LabelledBlock id={fields.week.id} label={d.dateLabel}>
                <select
                  id={fields.week.id}
                  name={fields.week.name}
                  defaultValue={weekValue}
                  key={weekValue}
                  onChange={(event) => setSelectedWeek(event.target.value)}
                  required
                  aria-invalid={fields.week.errors?.length ? true : undefined}
                  aria-describedby={fields.week.errors?.length ? fields.week.errorId : moved ? "help-moved" : undefined}
                  className="field-input"
                >
                  {occurrences.map((occurrence) => (
                    <option key={occurrence.week} value={occurrence.week}>
                      {occurrence.time}
                      {occurrence.postId ? `（${d.alreadyAsked}）` : ""}
                    </option>
                  ))}
                </select>
                <FieldError field={fields.week} alert />
                {askedPostId ? (
                  <Link to={`/post/${askedPostId}`} className="text-sm font-medium text-brand underline">
                    {d.viewExisting}
                  </Link>
                ) : null}
                {moved && !fields.week.errors?.length ? (
                  <p id="help-moved" className="text-xs text-amber-700">
                    {d.movedToNext}
                  </p>
                ) : null}
              </LabelledBlock>
            </>
          ) : (
            <div className="rounded-xl bg-amber-50 px-3 py-3 text-sm text-amber-800">
              <p>{course ? d.noUpcoming : h.courseNotFound}</p>
              <Link to="/schedule" className="mt-2 inline-block font-medium underline">
                {h.backToSchedule}
              </Link>
            </div>
          )}
        </section>

        <fieldset className="card space-y-3" aria-describedby={kindError ? fields.kind.errorId : undefined}>
          <legend className="float-left mb-3 flex w-full items-center gap-1.5 text-base font-semibold">
            <Icon name="tag" className="h-5 w-5 text-brand" />
            {h.kind}
          </legend>
          <div className="clear-both grid grid-cols-2 gap-2">
            {COURSE_KINDS.map((value) => (
              <label
                key={value}
                className="flex cursor-pointer flex-col items-center gap-0.5 rounded-2xl border-2 border-slate-200 px-3 py-3 text-center transition has-[:checked]:border-brand has-[:checked]:bg-brand-soft/50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand/30"
              >
                <input
                  type="radio"
                  name={fields.kind.name}
                  value={value}
                  defaultChecked={initialKind === value}
                  onChange={() => setKind(value)}
                  className="sr-only"
                />
                <span className="text-base font-semibold text-slate-800">{courseKindLabel(value)}</span>
                <span className="text-sm text-brand">¥{mutualHelpFeeText(value)}</span>
              </label>
            ))}
          </div>
          <FieldError field={fields.kind} alert />
        </fieldset>

        <section className="card space-y-3" aria-labelledby="profile-title">
          <h2 id="profile-title" className="flex items-center gap-1.5 text-base font-semibold">
            <Icon name="user" className="h-5 w-5 text-brand" />
            {h.userInfo}
          </h2>
          <InfoList rows={profileRows} />
          <LabelledBlock id={fields.contact.id} label={h.contactLabel}>
            <input
              {...getInputProps(fields.contact, { type: "text", ariaDescribedBy: fields.contact.descriptionId })}
              maxLength={CONTACT_MAX}
              autoComplete="off"
              placeholder={h.contactPlaceholder}
              className="field-input"
            />
            <FieldError field={fields.contact} alert />
            <p id={fields.contact.descriptionId} className="text-xs text-slate-500">
              {h.contactHint}
            </p>
          </LabelledBlock>
        </section>

        <section className="card space-y-2">
          <div className="flex items-baseline justify-between">
            <label htmlFor={fields.note.id} className="text-base font-semibold">
              {h.note}
            </label>
            <span className={`text-xs ${noteLength > MUTUAL_HELP_NOTE_MAX ? "text-red-600" : "text-slate-500"}`} aria-hidden="true">
              {fillTemplate(h.noteCount, { n: noteLength, max: MUTUAL_HELP_NOTE_MAX })}
            </span>
          </div>
          <textarea
            {...getTextareaProps(fields.note)}
            rows={3}
            maxLength={MUTUAL_HELP_NOTE_MAX}
            placeholder={h.notePlaceholder}
            onInput={(event) => setNoteLength(event.currentTarget.value.length)}
            className="field-input resize-none"
          />
          <FieldError field={fields.note} />
        </section>

        {draft ? (
          <p role="status" className="px-1 text-xs text-slate-500">
            {d.draftRestored}
          </p>
        ) : null}
        <p className="px-1 text-xs leading-relaxed text-slate-500">{h.notice}</p>

        <div className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 pb-[env(safe-area-inset-bottom)] backdrop-blur">
          <div className="mx-auto flex max-w-screen-sm items-center gap-3 px-4 py-3">
            <div className="flex-1">
              <p className="text-xs text-slate-500">{h.price}</p>
              <p className="text-xl font-bold text-brand" aria-live="polite">
                {kind ? `¥${mutualHelpFeeText(kind)}` : <span className="text-sm font-normal text-slate-500">{h.pricePending}</span>}
              </p>
            </div>
            <button type="submit" className="btn-primary px-6 py-2.5 text-base" disabled={hydrated && (!kind || publishing || !hasCourse)}>
              {publishing ? h.publishing : h.publish}
            </button>
          </div>
        </div>
      </Form>
    </Page>
  );
}

function InfoList({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="flex gap-3 py-2 first:pt-0 last:pb-0">
          <dt className="w-12 shrink-0 text-slate-500">{label}</dt>
          <dd className={`flex-1 ${value ? "text-slate-800" : "text-slate-500"}`}>{value || h.notFilled}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The one choice under a card's list (the date, the contact): its label, then the control and its notes. */
function LabelledBlock({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="space-y-1 border-t border-slate-100 pt-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children}
    </div>
  );
}
