import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { GpaChart } from "~/components/grades/GpaChart";
import { SyncNotices } from "~/components/grades/SyncNotices";
import { Page } from "~/components/Page";
import { isFailingScore } from "~/lib/grades";
import { app as appMessages } from "~/lib/messages/app";
import { grades as gradesMessages } from "~/lib/messages/grades";
import { fillTemplate } from "~/lib/template";
import { GradesActionSchema } from "~/lib/schemas/grades";
import { loginPath } from "~/lib/redirect";
import { logout } from "~/server/auth/session.server";
import { SCHOOL_LOAD_STATUS, schoolLoadMessage } from "~/server/http/schedule-refusals";
import { loadGrades, saveGradeNoticeSetting } from "~/server/grades/grades.server";
import { gradesView } from "./grades-page.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, grades: gradesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.grades.title} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  return gradesView(user, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: GradesActionSchema });
  if (submission.status !== "success") return redirect("/backpack/grades");
  if (submission.value.intent === "relogin") {
    return redirect(loginPath("/backpack/grades"), { headers: { "Set-Cookie": await logout(request) } });
  }
  if (submission.value.intent === "notify") {
    await saveGradeNoticeSetting(user.id, submission.value.notifyNewGrades === "on");
    return redirect("/backpack/grades?notice=notifySaved#notify");
  }
  const load = await loadGrades(user, { refresh: true, returnTo: "/backpack/grades" });
  if (load.source === "fresh") return redirect("/backpack/grades?notice=synced");
  return Response.json({ error: load.failure ? schoolLoadMessage(load.failure) : null }, { status: SCHOOL_LOAD_STATUS });
}

const EXAM_KIND_STYLE = { normal: "", makeup: "bg-amber-100 text-amber-800", retake: "bg-violet-100 text-violet-800" } as const;

export default function Grades() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const refreshing = navigation.state !== "idle" && navigation.formData?.get("intent") === "refresh";

  return (
    <Page title={msg.grades.title} back="/backpack">
      <SyncNotices
        error={actionData?.error ?? data.error}
        errorKind={data.errorKind}
        staleAge={data.staleAge}
        staleTemplate={msg.grades.staleNotice}
        synced={params.get("notice") === "synced"}
        syncedAt={data.syncedAt}
        formAction="/backpack/grades"
        refreshing={refreshing}
      />

      <section className="card grid grid-cols-3 gap-2 text-center" aria-label={msg.grades.overall}>
        <Figure label={msg.grades.overall} value={data.overall} testId="overall-gpa" />
        <Figure label={msg.grades.required} value={data.required} testId="required-gpa" />
        <Figure label={msg.grades.credits} value={String(data.credits)} testId="credits" />
      </section>

      <section className="card" aria-labelledby="chart-title">
        <h2 id="chart-title" className="mb-1 text-sm font-semibold text-slate-700">
          {msg.grades.chartTitle}
        </h2>
        <GpaChart chart={data.chart} />
      </section>

      <section id="ranking" className="card" aria-labelledby="ranking-title">
        <h2 id="ranking-title" className="mb-1 text-sm font-semibold text-slate-700">
          {msg.grades.ranking}
        </h2>
        {data.ranking ? (
          <p className="text-base font-semibold text-brand" data-testid="ranking">
            {data.ranking.total
              ? fillTemplate(msg.grades.rankingOf, { scope: data.ranking.scope, rank: data.ranking.rank, total: data.ranking.total })
              : fillTemplate(msg.grades.rankingValue, { scope: data.ranking.scope, rank: data.ranking.rank })}
          </p>
        ) : (
          <p className="text-sm text-slate-600" data-testid="ranking">
            {msg.grades.rankingUnavailable}
          </p>
        )}
      </section>

      {data.loaded && data.terms.length === 0 ? <p className="card text-center text-sm text-slate-500">{msg.grades.empty}</p> : null}

      {data.terms.map((term) => (
        <section key={term.term} className="card p-0" aria-labelledby={`term-${term.term}`}>
          <header className="flex items-baseline justify-between gap-2 border-b border-slate-100 px-3 py-2">
            <h2 id={`term-${term.term}`} className="text-sm font-semibold">
              {term.label}
            </h2>
            <p className="shrink-0 text-xs text-slate-600">
              <span className="font-semibold text-slate-800">{fillTemplate(msg.grades.termGpa, { gpa: term.gpa })}</span>
              {" · "}
              {fillTemplate(msg.grades.termCredits, { credits: term.credits })}
            </p>
          </header>
          <table className="w-full table-fixed text-sm">
            <thead>
              <tr className="text-left text-xs text-slate-500">
                <th scope="col" className="px-3 py-1.5 font-normal">
                  {msg.grades.course}
                </th>
                <th scope="col" className="w-10 py-1.5 text-center font-normal">
                  {msg.grades.credit}
                </th>
                <th scope="col" className="w-12 py-1.5 text-center font-normal">
                  {msg.grades.score}
                </th>
                <th scope="col" className="w-12 py-1.5 pr-3 text-right font-normal">
                  {msg.grades.point}
                </th>
              </tr>
            </thead>
            <tbody>
              {term.grades.map((grade, index) => (
                <tr key={`${grade.course}-${grade.examKind}-${index}`} className={`border-t border-slate-50 ${grade.counts ? "" : "text-slate-400"}`}>
                  <td className="px-3 py-2">
                    <span className="break-all">{grade.course}</span>
                    <span className="mt-0.5 flex flex-wrap gap-1 text-[10px]">
                      <span className={`rounded px-1 ${grade.courseType === "required" ? "bg-slate-100 text-slate-600" : "bg-sky-50 text-sky-700"}`}>
                        {grade.courseType === "required" ? msg.grades.required_ : msg.grades.elective}
                      </span>
                      {grade.examKind !== "normal" ? <span className={`rounded px-1 ${EXAM_KIND_STYLE[grade.examKind]}`}>{msg.grades.examKinds[grade.examKind]}</span> : null}
                      {grade.replaced ? <span>{msg.grades.replaced}</span> : !grade.counts ? <span>{msg.grades.notCounted}</span> : null}
                    </span>
                  </td>
                  <td className="py-2 text-center">{grade.credit}</td>
                  <td className={`py-2 text-center font-semibold ${grade.counts && isFailingScore(grade.score) ? "text-red-600" : ""}`}>{grade.score}</td>
                  <td className="py-2 pr-3 text-right">{grade.point}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}

      <p className="px-1 text-xs leading-relaxed text-slate-500">{msg.grades.pointsNote}</p>

      <section id="notify" className="card">
        <Form method="post" action="/backpack/grades" className="space-y-2">
          <input type="hidden" name="intent" value="notify" />
          <fieldset>
            <legend className="text-sm font-semibold text-slate-700">{msg.grades.notifyLegend}</legend>
            <label className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="notifyNewGrades" defaultChecked={data.notifyNewGrades} className="h-4 w-4" />
              {msg.grades.notifyLabel}
            </label>
            <p className="mt-1 text-xs text-slate-500">{msg.grades.notifyHint}</p>
          </fieldset>
          <div className="flex items-center gap-3">
            <button type="submit" className="btn-primary px-4 py-1.5">
              {msg.grades.notifySave}
            </button>
            {params.get("notice") === "notifySaved" ? (
              <span role="status" className="text-sm text-emerald-700">
                {msg.grades.notifySaved}
              </span>
            ) : null}
          </div>
        </Form>
      </section>

      <Link to="/backpack/exams" className="card flex items-center justify-between text-sm font-medium">
        {msg.grades.examsLink}
        <span aria-hidden="true">›</span>
      </Link>
    </Page>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div>
      <p className="text-2xl font-bold text-brand" data-testid={testId}>
        {value}
      </p>
      <p className="text-xs text-slate-500">{label}</p>
    </div>
  );
}
