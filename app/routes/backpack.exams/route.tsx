import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { SyncNotices } from "~/components/grades/SyncNotices";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { grades as gradesMessages } from "~/lib/messages/grades";
import { ExamsActionSchema } from "~/lib/schemas/grades";
import { fillTemplate } from "~/lib/template";
import { loginPath } from "~/lib/redirect";
import { logout } from "~/server/auth/session.server";
import { SCHOOL_LOAD_STATUS, schoolLoadMessage } from "~/server/http/schedule-refusals";
import { loadExams } from "~/server/grades/grades.server";
import { examsView } from "./exams-page.server";
import { loadTermInfo } from "~/server/schedule/timetable.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, grades: gradesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.grades.examsTitle} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  return examsView(user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: ExamsActionSchema });
  if (submission.status !== "success") return redirect("/backpack/exams");
  if (submission.value.intent === "relogin") {
    const back = submission.value.term ? `/backpack/exams?term=${submission.value.term}` : "/backpack/exams";
    return redirect(loginPath(back), { headers: { "Set-Cookie": await logout(request) } });
  }
  const term = submission.value.term ?? (await loadTermInfo(user)).info.currentTerm;
  const back = (extra: Record<string, string> = {}) => `/backpack/exams?${new URLSearchParams({ term, ...extra }).toString()}`;
  const load = await loadExams(user, term, { refresh: true, returnTo: back() });
  if (load.source === "fresh") return redirect(back({ notice: "synced" }));
  return Response.json({ error: load.failure ? schoolLoadMessage(load.failure) : null }, { status: SCHOOL_LOAD_STATUS });
}

function countdown(daysLeft: number | null) {
  if (daysLeft === null) return msg.grades.unscheduled;
  if (daysLeft < 0) return msg.grades.countdownDone;
  if (daysLeft === 0) return msg.grades.countdownToday;
  return fillTemplate(msg.grades.countdownDays, { days: daysLeft });
}

export default function Exams() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const refreshing = navigation.state !== "idle" && navigation.formData?.get("intent") === "refresh";
  const submit = useSubmit();

  return (
    <Page title={msg.grades.examsTitle} back="/backpack">
      <Form method="get" action="/backpack/exams" className="card flex items-center gap-2 p-3">
        <label htmlFor="term" className="sr-only">
          {msg.grades.term}
        </label>
        {/* With JavaScript the choice is enough; without it, 切换 sends the form. */}
        <select
          key={data.term.code}
          id="term"
          name="term"
          defaultValue={data.term.code}
          onChange={(event) => submit(event.currentTarget.form, { preventScrollReset: true })}
          className="field-input flex-1 py-2 text-sm"
        >
          {data.terms.map((term) => (
            <option key={term.code} value={term.code}>
              {term.label}
            </option>
          ))}
        </select>
        <button type="submit" className="btn-ghost shrink-0 px-3">
          {msg.grades.switchTerm}
        </button>
      </Form>

      <SyncNotices
        error={actionData?.error ?? data.error}
        errorKind={data.errorKind}
        staleAge={data.staleAge}
        staleTemplate={msg.grades.examsStaleNotice}
        synced={params.get("notice") === "synced"}
        syncedAt={data.syncedAt}
        formAction="/backpack/exams"
        refreshing={refreshing}
        hidden={{ term: data.term.code }}
      />

      {data.loaded && data.exams.length === 0 ? (
        <p className="card text-center text-sm text-slate-500">{data.pastTerm ? fillTemplate(msg.grades.examsEmptyPast, { term: data.term.label }) : msg.grades.examsEmpty}</p>
      ) : null}

      <ol className="space-y-2" aria-label={msg.grades.examsTitle}>
        {data.exams.map((exam, index) => (
          <li
            key={`${exam.course}-${exam.date ?? "tbd"}-${index}`}
            className={`card flex items-start gap-3 ${exam.past ? "opacity-60 grayscale" : ""}`}
            data-past={exam.past ? "true" : undefined}
            data-testid="exam"
          >
            <div
              className={`flex w-[4.75rem] shrink-0 flex-col items-center justify-center whitespace-nowrap rounded-xl px-1 py-2 text-center ${
                exam.past ? "bg-slate-100 text-slate-500" : exam.daysLeft === null ? "bg-slate-50 text-slate-600" : "bg-brand-soft text-brand-dark"
              }`}
            >
              <span className="text-[13px] font-bold leading-tight" data-testid="countdown">
                {countdown(exam.daysLeft)}
              </span>
            </div>
            <div className="min-w-0 flex-1">
              <h2 className="break-all text-base font-semibold">{exam.course}</h2>
              {exam.kind ? <p className="text-xs text-slate-500">{exam.kind}</p> : null}
              <dl className="mt-1 grid grid-cols-[3.5rem_1fr] gap-x-2 gap-y-0.5 text-sm">
                <dt className="text-slate-500">{msg.grades.time}</dt>
                <dd>{exam.date ? `${exam.date}${exam.start ? ` ${exam.start}${exam.end ? `-${exam.end}` : ""}` : ""}` : msg.grades.unscheduled}</dd>
                <dt className="text-slate-500">{msg.grades.place}</dt>
                <dd className="break-all">{[exam.campus, exam.place].filter(Boolean).join(" ") || msg.grades.seatNone}</dd>
                <dt className="text-slate-500">{msg.grades.seat}</dt>
                <dd>{exam.seat || msg.grades.seatNone}</dd>
              </dl>
            </div>
          </li>
        ))}
      </ol>

      <p className="px-1 text-xs text-slate-500">{msg.grades.calendarHint}</p>

      <Link to="/backpack/grades" className="card flex items-center justify-between text-sm font-medium">
        {msg.grades.gradesLink}
        <span aria-hidden="true">›</span>
      </Link>
    </Page>
  );
}
