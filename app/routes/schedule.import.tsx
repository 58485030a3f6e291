import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { timetable as timetableMessages } from "~/lib/messages/timetable";
import { scheduleHref } from "~/lib/schedule";
import { ImportConfirmSchema, ImportReadSchema } from "~/lib/schemas/timetable";
import { fillTemplate } from "~/lib/template";
import { IMPORT_FILE_MAX_BYTES, type ImportedCourse, type UnreadPiece } from "~/lib/timetable-import";
import { formatWeeks } from "~/lib/weeks";
import { declaredTooLarge, isMultipart } from "~/server/forum/uploads.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { importOwnCourses, termAndWeek } from "~/server/schedule/edits.server";
import { openPreview, readTimetableFile, sealPreview, type ReadFailure } from "~/server/schedule/import.server";
import type { RefusalTable } from "~/server/http/refusal-table";
import { requireStudent } from "~/server/http/guards.server";

// Import a timetable file (decision 053): upload → preview (nothing stored; the parsed courses
// travel sealed in the confirm form) → confirm → the student's own courses.

const msg = { app: appMessages, schedule: scheduleMessages, timetable: timetableMessages };
const t = msg.timetable;

export const meta: MetaFunction = () => [{ title: `${t.importTitle} · ${msg.app.name}` }];

const FAILURES: RefusalTable<ReadFailure> = {
  xls: { status: 415, message: t.importXls },
  html: { status: 415, message: t.importHtml },
  not_xlsx: { status: 415, message: t.importNotXlsx },
  too_large: { status: 413, message: t.importTooLarge },
  too_big_inside: { status: 413, message: t.importTooBigInside },
  unreadable: { status: 422, message: t.importUnreadable },
  no_grid: { status: 422, message: t.importNoGrid },
  empty: { status: 422, message: t.importEmpty },
};

type Preview = { kind: "preview"; term: string; week: number; courses: ImportedCourse[]; unread: UnreadPiece[]; token: string };
type Refused = { kind: "form"; reply: SubmissionResult<string[]> };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  return termAndWeek(user, new URL(request.url).searchParams);
}

function refuse(message: string, status: number, headers?: Record<string, string>) {
  return Response.json({ kind: "form", reply: { status: "error", error: { file: [message] } } } satisfies Refused, { status, headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  if (isMultipart(request)) {
    // Bounded before it is read (the server's body limit counts the bytes as they arrive too).
    if (declaredTooLarge(request, IMPORT_FILE_MAX_BYTES + 64 * 1024)) return refuse(t.importTooLarge, 413);
    const verdict = await consumeRateLimit("timetable-import", { userId: user.id, ip: context.clientIp });
    if (!verdict.ok) {
      const refused = tooMany(verdict);
      return refuse(refused.message, 429, refused.headers);
    }
    const submission = parseWithZod(await request.formData(), { schema: ImportReadSchema });
    if (submission.status !== "success") return Response.json({ kind: "form", reply: submission.reply({ hideFields: ["file"] }) } satisfies Refused, { status: 400 });
    const { term, week, file } = submission.value;
    if (file.size > IMPORT_FILE_MAX_BYTES) return refuse(t.importTooLarge, 413);
    const read = await readTimetableFile(Buffer.from(await file.arrayBuffer()));
    if (!read.ok) return refuse(FAILURES[read.reason].message, FAILURES[read.reason].status);
    const { courses, unread } = read.result;
    return Response.json({ kind: "preview", term, week: week ?? 1, courses, unread, token: sealPreview(user.id, term, courses) } satisfies Preview);
  }
  const submission = parseWithZod(await request.formData(), { schema: ImportConfirmSchema });
  if (submission.status !== "success") return refuse(t.importInvalid, 400);
  const { term, week, token } = submission.value;
  const opened = openPreview(token, user.id, term);
  if (!opened.ok) return refuse(opened.reason === "expired" ? t.importExpired : t.importInvalid, 400);
  const saved = await importOwnCourses(user.id, term, opened.courses);
  if (!saved.ok) return refuse(t.tooMany, 409);
  return redirect(scheduleHref(term, week ?? 1, { notice: "imported" }));
}

export default function ImportTimetable() {
  const { term, week } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Preview | Refused | undefined;
  const where = new URLSearchParams({ term, week: String(week) }).toString();
  return (
    <Page title={t.importTitle} back={scheduleHref(term, week)}>
      <div className="space-y-4 px-4 pt-3">
        {answer?.kind === "preview" ? <PreviewList preview={answer} action={`/schedule/import?${where}`} again={`/schedule/import?${where}`} /> : <UploadForm term={term} week={week} action={`/schedule/import?${where}`} reply={answer?.reply} />}
      </div>
    </Page>
  );
}

function UploadForm({ term, week, action, reply }: { term: string; week: number; action: string; reply: SubmissionResult<string[]> | undefined }) {
  const navigation = useNavigation();
  const [form, fields] = useForm({ id: "import-form", lastResult: reply, shouldValidate: "onSubmit" });
  return (
    <Form method="post" action={action} encType="multipart/form-data" {...getFormProps(form)} noValidate className="card space-y-3 p-4">
      <p className="text-sm text-slate-600">{t.importIntro}</p>
      <input type="hidden" name="term" value={term} />
      <input type="hidden" name="week" value={week} />
      <label className="block space-y-1">
        <span className="text-sm font-medium text-slate-700">{t.importFile}</span>
        <input
          {...getInputProps(fields.file, { type: "file" })}
          key={fields.file.key}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          className="block w-full text-sm"
        />
        <FieldError field={fields.file} as="span" alert />
      </label>
      <button type="submit" className="btn-primary w-full" disabled={navigation.state === "submitting"}>
        {t.importRead}
      </button>
    </Form>
  );
}

function PreviewList({ preview, action, again }: { preview: Preview; action: string; again: string }) {
  const weekdays = msg.schedule.weekdays;
  return (
    <>
      <section className="card space-y-2 p-4" aria-labelledby="import-found">
        <h2 id="import-found" className="font-semibold">
          {preview.courses.length ? fillTemplate(t.importPreviewTitle, { n: preview.courses.length }) : t.importNothing}
        </h2>
        <ul className="divide-y divide-slate-100">
          {preview.courses.map((course, index) => (
            <li key={index} className="py-2 text-sm" data-testid="import-course">
              <p className="font-medium text-slate-900">{course.name}</p>
              <p className="text-slate-600">{[course.teacher, course.location].filter(Boolean).join(" · ")}</p>
              <p className="text-slate-600">
                {weekdays[course.weekday - 1]} {fillTemplate(t.importPeriods, { start: course.startPeriod, end: course.endPeriod })} · {formatWeeks(course.weeks)}
              </p>
            </li>
          ))}
        </ul>
      </section>
      {preview.unread.length ? (
        <section className="card space-y-2 border border-amber-200 bg-amber-50 p-4" aria-labelledby="import-unread">
          <h2 id="import-unread" className="text-sm font-semibold text-amber-900">
            {t.importUnreadTitle}
          </h2>
          <ul className="space-y-1 text-sm text-amber-900">
            {preview.unread.map((piece, index) => (
              <li key={index} data-testid="import-unread">
                {piece.weekday ? `${weekdays[piece.weekday - 1]} ` : ""}
                {piece.rowLabel ? `${piece.rowLabel}：` : ""}
                <span className="whitespace-pre-wrap break-all">{piece.text}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <Form method="post" action={action} className="flex gap-3">
        <input type="hidden" name="term" value={preview.term} />
        <input type="hidden" name="week" value={preview.week} />
        <input type="hidden" name="token" value={preview.token} />
        <Link to={again} className="btn-ghost flex-1 text-center" reloadDocument>
          {t.importAgain}
        </Link>
        {preview.courses.length ? (
          <button type="submit" className="btn-primary flex-1">
            {t.importConfirm}
          </button>
        ) : null}
      </Form>
    </>
  );
}
