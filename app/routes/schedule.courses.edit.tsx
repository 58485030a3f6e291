import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { CourseForm } from "~/components/schedule/CourseForm";
import { app as appMessages } from "~/lib/messages/app";
import { timetable as timetableMessages } from "~/lib/messages/timetable";
import { scheduleHref } from "~/lib/schedule";
import { CourseCommandSchema, OverrideSchema, OwnCourseSchema } from "~/lib/schemas/timetable";
import { clashWith } from "~/lib/timetable-edits";
import { formatWeeks } from "~/lib/weeks";
import { courseToEdit, removeEdit, saveOverride, saveOwnCourse, setHidden, termAndWeek } from "~/server/schedule/edits.server";
import { loadTimetable } from "~/server/schedule/timetable.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, timetable: timetableMessages };

export const meta: MetaFunction = () => [{ title: `${msg.timetable.editCourse} · ${msg.app.name}` }];

/** ?course= (the course's place in the grid) or ?edit= (its change, for a hidden course). */
function readRef(params: URLSearchParams) {
  const number = (key: string) => (/^\d{1,6}$/.test(params.get(key) ?? "") ? Number(params.get(key)) : undefined);
  return { course: number("course"), edit: number("edit") };
}

async function find(request: Request) {
  const user = await requireStudent(request);
  const params = new URL(request.url).searchParams;
  const { term, week } = await termAndWeek(user, params);
  const url = new URL(request.url);
  const load = await loadTimetable(user, term, { returnTo: url.pathname + url.search });
  const found = await courseToEdit(user.id, term, load.timetable?.courses ?? [], readRef(params));
  return { user, term, week, found };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { term, week, found } = await find(request);
  if (!found) throw new Response(msg.timetable.courseMissing, { status: 404 });
  const { course } = found;
  const own = course.source === "own";
  return {
    term,
    week,
    own,
    editId: course.editId,
    index: found.index,
    hidden: course.hidden,
    name: course.name,
    teacher: course.teacher,
    defaults: {
      name: course.name,
      teacher: course.teacher,
      location: course.location,
      weekday: course.weekday,
      startPeriod: course.startPeriod,
      endPeriod: course.endPeriod,
      weeks: formatWeeks(course.weeks) || course.weeksText,
      note: course.note,
      colour: course.editId !== null ? course.colour : null,
    },
    constraint: getZodConstraint(own ? OwnCourseSchema : OverrideSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, term, week, found } = await find(request);
  const formData = await request.formData();
  const back = (extra: Record<string, string>) => redirect(scheduleHref(term, week, extra));
  if (!found) return Response.json({ status: "error", error: { "": [msg.timetable.courseMissing] } }, { status: 404 });
  const { course, school } = found;

  const command = CourseCommandSchema.safeParse(Object.fromEntries(formData));
  if (command.success) {
    if (command.data.intent === "remove") {
      if (course.editId === null || !(await removeEdit(user.id, course.editId))) return back({});
      return back({ notice: course.source === "own" ? "deleted" : "restored", edit: String(course.editId) });
    }
    const hidden = command.data.intent === "hide";
    let id = course.editId;
    if (id !== null) await setHidden(user.id, id, hidden);
    else if (school) id = await saveOverride(user.id, term, school, { location: null, weekday: null, startPeriod: null, endPeriod: null, weeks: null, note: "", colour: null, hidden });
    return back({ notice: hidden ? "hidden" : "shown", ...(id !== null ? { edit: String(id) } : {}) });
  }

  let editId: number;
  if (course.source === "own") {
    const submission = parseWithZod(formData, { schema: OwnCourseSchema });
    if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
    const { term: _term, week: _week, ...input } = submission.value;
    const saved = await saveOwnCourse(user.id, term, { ...input, colour: input.colour ?? null }, course.editId ?? undefined);
    if (!saved.ok) return Response.json(submission.reply({ formErrors: [msg.timetable.courseMissing] }), { status: 404 });
    editId = saved.id;
  } else {
    const submission = parseWithZod(formData, { schema: OverrideSchema });
    if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
    const value = submission.value;
    editId = await saveOverride(user.id, term, school!, {
      location: value.location,
      weekday: value.weekday,
      startPeriod: value.startPeriod,
      endPeriod: value.endPeriod,
      weeks: value.weeks,
      note: value.note,
      colour: value.colour ?? null,
      hidden: course.hidden,
    });
  }
  const after = await courseToEdit(user.id, term, (await loadTimetable(user, term)).timetable?.courses ?? [], { edit: editId });
  const clash = after ? clashWith(after.courses, after.index) : null;
  return back({ notice: "saved", edit: String(editId), ...(clash ? { clash: clash.name } : {}) });
}

export default function EditCourse() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const t = msg.timetable;
  const query = new URLSearchParams({ term: data.term, week: String(data.week), ...(data.editId !== null ? { edit: String(data.editId) } : { course: String(data.index) }) });
  const action = `/schedule/courses/edit?${query}`;
  const hidden = (
    <>
      <input type="hidden" name="term" value={data.term} />
      <input type="hidden" name="week" value={data.week} />
    </>
  );
  return (
    <Page title={t.editCourse} back={scheduleHref(data.term, data.week)}>
      {data.own ? null : (
        <section className="card space-y-1">
          <h2 className="text-base font-semibold">{data.name}</h2>
          {data.teacher ? <p className="text-sm text-slate-600">{data.teacher}</p> : null}
          <p className="text-xs text-slate-500">{t.schoolCourseNote}</p>
        </section>
      )}
      <CourseForm
        id="course-form"
        action={action}
        term={data.term}
        week={data.week}
        withName={data.own}
        defaults={data.defaults}
        lastResult={reply as never}
        constraint={data.constraint}
      />
      <div className="grid grid-cols-2 gap-2">
        <Form method="post" action={action} className={data.own || data.editId !== null ? "" : "col-span-2"}>
          {hidden}
          <input type="hidden" name="intent" value={data.hidden ? "show" : "hide"} />
          <button type="submit" className="btn-ghost w-full">
            <Icon name="eye" className="h-4 w-4" />
            {data.hidden ? t.showCourse : t.hideCourse}
          </button>
        </Form>
        {data.editId !== null ? (
          <Form method="post" action={action}>
            {hidden}
            <input type="hidden" name="intent" value="remove" />
            <button type="submit" className={`btn-ghost w-full ${data.own ? "text-red-600" : ""}`}>
              <Icon name={data.own ? "trash" : "refresh"} className="h-4 w-4" />
              {data.own ? t.deleteCourse : t.restoreSchool}
            </button>
          </Form>
        ) : null}
      </div>
      <Link to={scheduleHref(data.term, data.week)} className="btn-ghost w-full">
        {t.cancel}
      </Link>
    </Page>
  );
}
