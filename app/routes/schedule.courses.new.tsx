import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "~/components/Page";
import { CourseForm } from "~/components/schedule/CourseForm";
import { app as appMessages } from "~/lib/messages/app";
import { timetable as timetableMessages } from "~/lib/messages/timetable";
import { scheduleHref } from "~/lib/schedule";
import { OwnCourseSchema } from "~/lib/schemas/timetable";
import { clashWith } from "~/lib/timetable-edits";
import { mergedCourses, saveOwnCourse, termAndWeek } from "~/server/schedule/edits.server";
import { loadTimetable } from "~/server/schedule/timetable.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, timetable: timetableMessages };

export const meta: MetaFunction = () => [{ title: `${msg.timetable.addCourse} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const { term, week } = await termAndWeek(user, new URL(request.url).searchParams);
  return { term, week, constraint: getZodConstraint(OwnCourseSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: OwnCourseSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const { term, week, ...course } = submission.value;
  const saved = await saveOwnCourse(user.id, term, { ...course, colour: course.colour ?? null });
  if (!saved.ok) return Response.json(submission.reply({ formErrors: [msg.timetable.tooMany] }), { status: 409 });
  // The clash is shown in the grid; the notice names it once.
  const load = await loadTimetable(user, term);
  const courses = await mergedCourses(user.id, term, load.timetable?.courses ?? []);
  const clash = clashWith(courses, courses.findIndex((entry) => entry.editId === saved.id));
  return redirect(scheduleHref(term, week ?? 1, { notice: "saved", edit: String(saved.id), ...(clash ? { clash: clash.name } : {}) }));
}

export default function NewCourse() {
  const { term, week, constraint } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  return (
    <Page title={msg.timetable.addCourse} back={scheduleHref(term, week)}>
      <CourseForm
        id="course-form"
        action={`/schedule/courses/new?${new URLSearchParams({ term, week: String(week) })}`}
        term={term}
        week={week}
        withName
        defaults={{ location: "", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: "1-16", note: "", colour: null }}
        lastResult={reply}
        constraint={constraint}
      />
      <p className="px-4 pt-2 text-center text-sm">
        <Link to={`/schedule/import?${new URLSearchParams({ term, week: String(week) })}`} className="text-brand underline">
          {msg.timetable.importLink}
        </Link>
      </p>
    </Page>
  );
}
