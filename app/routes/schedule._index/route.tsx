import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Icon, type IconName } from "~/components/icons";
import { SyncFailure } from "~/components/grades/SyncNotices";
import { Page, useHydrated } from "~/components/Page";
import { copyText } from "~/components/share";
import { Overlay } from "~/components/schedule/Overlay";
import { app as appMessages } from "~/lib/messages/app";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { timetable as timetableMessages } from "~/lib/messages/timetable";
import { ALARM_CHOICES } from "~/lib/ics";
import { durationText } from "~/lib/timetable-board";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { loginPath } from "~/lib/redirect";
import { COURSE_REMINDER_MINUTES, TIME_SLOTS, keptScheduleParams, scheduleHref, weekLabel } from "~/lib/schedule";
import { ScheduleActionSchema } from "~/lib/schemas/schedule";
import { fillTemplate } from "~/lib/template";
import { logout } from "~/server/auth/session.server";
import { SCHOOL_LOAD_STATUS, schoolLoadMessage, schoolLoadNotice } from "~/server/http/schedule-refusals";
import { scheduleView, type CourseDetail } from "./schedule-view.server";
import { undoEdit } from "~/server/schedule/edits.server";
import { getScheduleSettings, resetCalendarToken, saveDisplaySettings, saveReminderSettings } from "~/server/schedule/settings.server";
import { loadTermInfo, loadTimetable } from "~/server/schedule/timetable.server";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, schedule: scheduleMessages, timetable: timetableMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.schedule} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const { failure, ...view } = await scheduleView(user, new URL(request.url));
  return { ...view, ...schoolLoadNotice(failure) };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: ScheduleActionSchema });
  if (submission.status !== "success") return redirect("/schedule");
  const value = submission.value;
  const back = (extra: Record<string, string> = {}) =>
    value.term && value.week ? scheduleHref(value.term, value.week, extra) : `/schedule?${new URLSearchParams(extra).toString()}`;

  switch (value.intent) {
    case "refresh": {
      const term = value.term ?? (await loadTermInfo(user)).info.currentTerm;
      const load = await loadTimetable(user, term, { refresh: true, returnTo: back() });
      if (load.source === "fresh") return redirect(back({ notice: "synced" }));
      return Response.json({ intent: "refresh" as const, error: load.failure ? schoolLoadMessage(load.failure) : null }, { status: SCHOOL_LOAD_STATUS });
    }
    case "reminders":
      await saveReminderSettings(user.id, {
        courseReminder: value.courseReminder === "on",
        substituteReminder: value.substituteReminder === "on",
        announcementReminder: value.announcementReminder === "on",
      });
      return redirect(back({ dialog: "notify", notice: "remindersSaved" }));
    case "calendar": {
      const had = (await getScheduleSettings(user.id)).calendarToken !== null;
      await resetCalendarToken(user.id);
      return redirect(back({ dialog: "notify", notice: had ? "calendarReset" : "calendarCreated" }));
    }
    case "display":
      await saveDisplaySettings(user.id, { showOtherWeeks: value.showOtherWeeks === "on", alarmMinutes: value.alarmMinutes });
      return redirect(back({ dialog: "notify", notice: "displaySaved" }));
    case "undo":
      return redirect(back((await undoEdit(user.id, value.edit)) ? { notice: "undone" } : {}));
    case "relogin":
      return redirect(loginPath(back()), { headers: { "Set-Cookie": await logout(request) } });
  }
}

/** Opening a dialog changes only ?dialog=/?course=: the week on screen is already loaded. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (formMethod && formMethod !== "GET") return defaultShouldRevalidate;
  const same = (key: string) => currentUrl.searchParams.get(key) === nextUrl.searchParams.get(key);
  if (currentUrl.pathname === nextUrl.pathname && same("term") && same("week") && nextUrl.searchParams.get("notice") !== "synced") return false;
  return defaultShouldRevalidate;
};

const CARD_COLOURS = [
  "bg-sky-100 text-sky-900 border-sky-300",
  "bg-emerald-100 text-emerald-900 border-emerald-300",
  "bg-amber-100 text-amber-900 border-amber-300",
  "bg-rose-100 text-rose-900 border-rose-300",
  "bg-violet-100 text-violet-900 border-violet-300",
  "bg-teal-100 text-teal-900 border-teal-300",
  "bg-orange-100 text-orange-900 border-orange-300",
  "bg-indigo-100 text-indigo-900 border-indigo-300",
];


export default function Schedule() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const submit = useSubmit();
  const hydrated = useHydrated();

  // Links keep what the student closed (the empty-week notice, the notes panel).
  const href = (extra: Record<string, string> = {}) => scheduleHref(data.term.code, data.week, keptScheduleParams(params, extra));
  const thisWeekHref = scheduleHref(data.current.term, data.current.week);
  const formAction = `/schedule?index&${new URLSearchParams({ term: data.term.code, week: String(data.week) }).toString()}`;
  const dialog = params.get("dialog");
  const course = data.courses.find((entry) => String(entry.index) === params.get("course"));
  const refreshing = navigation.state !== "idle" && navigation.formData?.get("intent") === "refresh";
  const showEmpty = data.loaded && !data.weekHasClasses && !dialog && !course && params.get("empty") !== "seen";
  const notesHidden = params.get("notes") === "hide";
  const lastSlot = TIME_SLOTS.length - 1;
  // The offline copy of this week (public/schedule-sw.js): registered here only, so no other page pays for it.
  useEffect(() => {
    navigator.serviceWorker?.register("/schedule-sw.js", { scope: "/schedule" }).catch(() => undefined);
  }, []);

  return (
    <Page
      title={msg.titles.schedule}
      withTabBar
      actions={
        <span className="flex items-center gap-1">
          <Link to={`/schedule/courses/new?${new URLSearchParams({ term: data.term.code, week: String(data.week) })}`} className="rounded-full p-1 hover:bg-white/10" aria-label={msg.timetable.addCourse}>
            <Icon name="plus" className="h-6 w-6" />
          </Link>
          <Link to={href({ dialog: "summary" })} preventScrollReset className="rounded-full p-1 hover:bg-white/10" aria-label={msg.schedule.summaryTitle}>
            <Icon name="info" className="h-6 w-6" />
          </Link>
        </span>
      }
    >
      {/* The offline copy's mark: public/schedule-sw.js shows it, with the copy's time, when it answers offline. */}
      <p id="offline-mark" hidden data-time="" className="offline-mark rounded-xl bg-slate-800 px-3 py-2 text-sm text-white" {...(data.isViewingCurrent ? { "data-schedule-current": "" } : {})}>
        {fillTemplate(msg.timetable.offline, { time: "" })}
      </p>
      <section className="card space-y-1.5 p-3">
        <Form method="get" action="/schedule" className="flex items-center gap-2">
          <label htmlFor="term" className="sr-only">
            {msg.schedule.term}
          </label>
          <select
            key={data.term.code}
            id="term"
            name="term"
            defaultValue={data.term.code}
            onChange={(event) => submit(event.currentTarget.form)}
            className="field-input flex-1 py-1.5 text-sm"
          >
            {data.terms.map((term) => (
              <option key={term.code} value={term.code}>
                {term.label}
              </option>
            ))}
          </select>
          <button type="submit" className={`btn-ghost shrink-0 px-3 ${hydrated ? "hidden" : ""}`}>
            {msg.schedule.switchTerm}
          </button>
        </Form>
        <nav aria-label={msg.schedule.pickWeek} className="flex items-center justify-between gap-2">
          <WeekStep to={data.week > data.minWeek ? href({ week: String(data.week - 1) }) : null} label={msg.schedule.prevWeek} icon="back" />
          <Link
            to={href({ dialog: "weeks" })}
            preventScrollReset
            // The name contains all the visible text, 本周 included (label-content-name-mismatch).
            aria-label={`${msg.schedule.pickWeek}：${weekLabel(data.week)}${data.isCurrentTerm && data.week === data.thisWeek ? ` ${msg.schedule.thisWeek}` : ""}`}
            className="flex flex-1 items-center justify-center gap-1 rounded-full py-1.5 text-base font-semibold hover:bg-slate-50"
          >
            {weekLabel(data.week)}
            {data.isCurrentTerm && data.week === data.thisWeek ? (
              <span className="rounded-full bg-brand-soft px-2 py-0.5 text-xs font-medium text-brand-dark">{msg.schedule.thisWeek}</span>
            ) : null}
            <Icon name="down" className="h-4 w-4 text-slate-500" />
          </Link>
          <WeekStep to={data.week < data.maxWeek ? href({ week: String(data.week + 1) }) : null} label={msg.schedule.nextWeek} icon="chevron" />
        </nav>
        {/* Today sits in this card, two lines high, so the whole grid still clears the floating buttons. */}
        {data.today ? <TodayCard today={data.today} open={params.get("today") === "all"} href={href} /> : null}
      </section>

      <Notices data={data} refreshError={actionData?.error ?? null} synced={params.get("notice") === "synced"} formAction={formAction} />
      <ChangeNotice changed={params.get("notice")} edit={params.get("edit")} clash={params.get("clash")} formAction={formAction} data={data} />

      <section aria-label={fillTemplate(msg.schedule.gridLabel, { week: weekLabel(data.week) })} className="overflow-hidden rounded-2xl bg-white shadow-sm">
        <table className="w-full table-fixed border-collapse">
          <thead>
            <tr className="border-b border-slate-100">
              <th scope="col" className="w-8 py-1 text-[11px] font-medium text-slate-500">
                {fillTemplate(msg.schedule.month, { month: data.month })}
              </th>
              {data.days.map((day) => (
                <th key={day.date} scope="col" className="px-0.5 py-1 font-normal" aria-current={day.isToday ? "date" : undefined}>
                  <span className={`mx-auto flex w-10 flex-col items-center rounded-xl py-0.5 leading-tight ${day.isToday ? "bg-brand text-white" : "text-slate-600"}`}>
                    <span className="text-xs font-medium">{day.label}</span>
                    <span className={`text-[10px] ${day.isToday ? "text-white" : "text-slate-500"}`}>{day.short}</span>
                  </span>
                  {day.holiday || day.makeup || day.examWeek ? (
                    <span title={day.holiday ?? day.examWeek ?? undefined} className={`mx-auto mt-0.5 block w-10 truncate rounded px-0.5 text-[9px] leading-tight ${day.holiday ? "bg-rose-100 text-rose-800" : day.makeup ? "bg-amber-100 text-amber-900" : "bg-violet-100 text-violet-900"}`}>
                      {day.holiday ? msg.timetable.holidayTag : day.makeup ? fillTemplate(msg.timetable.makeupTag, { weekday: day.makeup.slice(1) }) : msg.timetable.examWeekTag}
                    </span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {TIME_SLOTS.map((slot, row) => (
              <tr key={slot.id} className={row < lastSlot ? "border-b border-slate-100" : undefined}>
                <th scope="row" className="bg-slate-50/70 px-0.5 text-center align-middle font-normal leading-tight">
                  <span className="block text-xs font-semibold text-slate-600">{slot.period}</span>
                  <span className="mt-0.5 block text-[9px] text-slate-500">{slot.start}</span>
                  <span className="block text-[9px] text-slate-500">{slot.end}</span>
                </th>
                {data.grid[row].map((cards, day) => (
                  <td key={day} className={`h-[5.125rem] p-0.5 align-top ${data.days[day].isToday ? "bg-brand-soft/40" : ""}`}>
                    {/* A fixed height: a class and an exam in one cell share it instead of growing the row. */}
                    <div className="flex h-[4.875rem] flex-col gap-0.5">
                      {cards.map((card) => (
                        <Link
                          key={`${card.kind}-${card.index}`}
                          to={card.kind === "exam" ? "/backpack/exams" : href({ course: String(card.index) })}
                          preventScrollReset={card.kind !== "exam"}
                          className={`relative block min-h-0 flex-1 overflow-hidden rounded-lg border-l-2 px-0.5 py-1 text-left ${
                            card.kind === "exam"
                              ? "border-red-500 bg-red-50 text-red-900"
                              : card.kind === "other-week"
                                ? "border-dashed border-slate-300 bg-slate-50 text-slate-500"
                                : CARD_COLOURS[card.colour]
                          } ${card.clash ? "ring-2 ring-inset ring-red-500" : ""}`}
                        >
                          {card.kind !== "class" || card.clash ? (
                            <span className={`mb-0.5 block w-fit rounded px-0.5 text-[9px] font-semibold leading-tight ${card.kind === "other-week" ? "bg-slate-200 text-slate-600" : "bg-red-600 text-white"}`}>
                              {card.kind === "exam" ? msg.timetable.examTag : card.kind === "other-week" ? msg.timetable.otherWeekTag : msg.timetable.clashTag}
                            </span>
                          ) : null}
                          <span className="line-clamp-3 text-[11px] font-semibold leading-[1.25] tracking-tighter [overflow-wrap:anywhere]">{card.name}</span>
                          {card.location ? (
                            <span className="mt-0.5 line-clamp-2 text-[10px] leading-tight opacity-90 [overflow-wrap:anywhere]">@{card.location}</span>
                          ) : null}
                          {card.own || card.edited ? <span aria-label={card.own ? msg.timetable.ownTag : msg.timetable.editedTag} className="absolute right-0.5 top-0.5 h-1.5 w-1.5 rounded-full bg-current opacity-60" /> : null}
                        </Link>
                      ))}
                    </div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      {data.hiddenCourses.length > 0 ? <HiddenCourses data={data} formAction={formAction} /> : null}

      {data.notes.length > 0 ? <NotesPanel notes={data.notes} hidden={notesHidden} href={href} /> : null}

      {/* Room to scroll the last row out from under the floating buttons. */}
      <div className="h-36" aria-hidden="true" />

      {/* One row under the grid: a column of three would cover the last periods of Saturday and Sunday. */}
      <div className="fixed bottom-[calc(4.75rem+env(safe-area-inset-bottom))] right-3 z-20 !m-0 flex flex-row gap-2 sm:right-[calc(50%-18rem)]">
        <FloatLink to={thisWeekHref} icon="target" label={msg.schedule.backToThisWeek} short={msg.schedule.thisWeek} />
        <Form method="post" action={formAction}>
          <input type="hidden" name="intent" value="refresh" />
          <input type="hidden" name="term" value={data.term.code} />
          <input type="hidden" name="week" value={data.week} />
          <button type="submit" disabled={refreshing} aria-label={msg.schedule.refresh} className={FLOAT_CLASS}>
            <Icon name="refresh" className={`h-5 w-5 ${refreshing ? "animate-spin" : ""}`} />
            <span className="text-[10px] leading-none">{refreshing ? msg.schedule.refreshing : msg.schedule.refreshShort}</span>
          </button>
        </Form>
        <FloatLink to={href({ dialog: "notify" })} icon="bell" label={msg.schedule.notifications} short={msg.schedule.notifyShort} />
      </div>

      {course ? <CourseDialog course={course} closeHref={href()} materials={params.get("materials") === "soon"} href={href} /> : null}
      {dialog === "weeks" ? <WeekPicker data={data} closeHref={href()} /> : null}
      {dialog === "summary" ? <Summary data={data} closeHref={href()} thisWeekHref={thisWeekHref} /> : null}
      {dialog === "notify" ? <NotifySheet data={data} closeHref={href()} formAction={formAction} saved={params.get("notice")} /> : null}
      {showEmpty ? (
        <Overlay id="empty" title={data.emptyReason === "after" ? msg.schedule.emptyWeekAfterTitle : msg.schedule.emptyWeekTitle} closeHref={href({ empty: "seen" })} role="alertdialog">
          <p className="text-sm text-slate-600">
            {data.emptyReason === "after"
              ? fillTemplate(msg.schedule.emptyWeekAfterBody, { week: data.week, last: data.lastTeachingWeek ?? data.week })
              : fillTemplate(msg.schedule.emptyWeekBody, { week: data.week })}
          </p>
          <div className={`mt-4 grid gap-2 ${data.isViewingCurrent ? "grid-cols-1" : "grid-cols-2"}`}>
            <Link to={href({ empty: "seen" })} replace preventScrollReset className="btn-ghost">
              {msg.schedule.emptyWeekOk}
            </Link>
            {data.isViewingCurrent ? null : (
              <Link to={thisWeekHref} className="btn-primary">
                {msg.schedule.backToThisWeek}
              </Link>
            )}
          </div>
        </Overlay>
      ) : null}
    </Page>
  );
}

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

const FLOAT_CLASS =
  "flex h-11 w-11 flex-col items-center justify-center gap-0.5 rounded-2xl bg-white/95 text-brand shadow-lg ring-1 ring-slate-200 backdrop-blur active:scale-95 disabled:opacity-70";

function FloatLink({ to, icon, label, short }: { to: string; icon: IconName; label: string; short: string }) {
  return (
    <Link to={to} preventScrollReset aria-label={label} className={FLOAT_CLASS}>
      <Icon name={icon} className="h-5 w-5" />
      <span className="text-[10px] leading-none">{short}</span>
    </Link>
  );
}

function NotesPanel({ notes, hidden, href }: { notes: Data["notes"]; hidden: boolean; href: (extra?: Record<string, string>) => string }) {
  const place = "fixed bottom-[calc(4.75rem+env(safe-area-inset-bottom))] left-3 z-20 !m-0 sm:left-[calc(50%-18rem)]";
  if (hidden) {
    return (
      <Link to={href({ notes: "" })} preventScrollReset replace className={`${place} btn border border-amber-200 bg-amber-50 text-amber-800 shadow-lg`}>
        <Icon name="book" className="h-4 w-4" />
        {fillTemplate(msg.schedule.notesShow, { n: notes.length })}
      </Link>
    );
  }
  return (
    <section aria-labelledby="notes-title" className="fixed bottom-[calc(8.25rem+env(safe-area-inset-bottom))] left-3 right-3 z-20 !m-0 max-h-[40vh] overflow-y-auto rounded-2xl border border-amber-200 bg-amber-50/95 p-3 shadow-lg backdrop-blur sm:left-[calc(50%-18rem)] sm:right-[calc(50%-18rem)]">
      <div className="mb-1 flex items-center gap-1.5">
        <Icon name="book" className="h-4 w-4 text-amber-600" />
        <h2 id="notes-title" className="flex-1 text-sm font-semibold text-amber-900">
          {msg.schedule.notesTitle}
        </h2>
        <Link to={href({ notes: "hide" })} preventScrollReset replace className="rounded-full px-2 py-0.5 text-xs text-amber-700 hover:bg-amber-100">
          {msg.schedule.notesClose}
        </Link>
      </div>
      <ul className="divide-y divide-amber-200/60">
        {notes.map((note, i) => (
          <li key={i} className="py-1.5 text-xs leading-relaxed">
            <p className="text-sm font-semibold text-slate-800">{note.name}</p>
            <p className="text-slate-500">{[note.teacher, note.location, note.weeksText].filter(Boolean).join(" · ")}</p>
            {note.description ? <p className="text-slate-600">{note.description}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function WeekStep({ to, label, icon }: { to: string | null; label: string; icon: IconName }) {
  const className = "flex h-9 w-9 items-center justify-center rounded-full border border-slate-200";
  if (!to) {
    return (
      <span aria-disabled="true" aria-label={label} className={`${className} text-slate-300`}>
        <Icon name={icon} className="h-5 w-5" />
      </span>
    );
  }
  return (
    <Link to={to} preventScrollReset aria-label={label} className={`${className} text-slate-600 hover:bg-slate-50`}>
      <Icon name={icon} className="h-5 w-5" />
    </Link>
  );
}

function Notices({ data, refreshError, synced, formAction }: { data: Data; refreshError: string | null; synced: boolean; formAction: string }) {
  const error = refreshError ?? data.error;
  return (
    <>
      {data.termFallback ? (
        <p role="status" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-800">
          {msg.schedule.fallbackTermNotice}
        </p>
      ) : null}
      {error ? <SyncFailure error={error} errorKind={data.errorKind} staleNotice={data.staleAge ? fillTemplate(msg.schedule.staleNotice, { age: data.staleAge }) : null} formAction={formAction} /> : null}
      {synced && !error ? (
        <p role="status" className="flex items-center gap-1 rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-700">
          <Icon name="check" className="h-4 w-4" />
          {msg.schedule.refreshed}
        </p>
      ) : null}
      {data.syncedAt ? (
        <p className="-mt-1 flex items-center justify-end gap-1 px-1 text-xs text-slate-600">
          <Icon name="clock" className="h-3.5 w-3.5" />
          {fillTemplate(msg.schedule.syncedAt, { time: data.syncedAt })}
        </p>
      ) : null}
    </>
  );
}

function CourseDialog({
  course,
  closeHref,
  materials,
  href,
}: {
  course: CourseDetail;
  closeHref: string;
  materials: boolean;
  href: (extra?: Record<string, string>) => string;
}) {
  const rows: [string, string][] = [
    [msg.schedule.teacher, course.teacher],
    [msg.schedule.location, course.location],
    [msg.schedule.weeks, course.weeksText],
    [msg.schedule.time, `${course.weekday} ${fillTemplate(msg.schedule.slot, { period: course.period })} ${course.start}-${course.end}`],
  ];
  if (course.note) rows.push([msg.timetable.note, course.note]);
  return (
    <Overlay id="course" title={course.name} closeHref={closeHref}>
      {course.source === "own" || course.edited ? (
        <p className="mb-2 w-fit rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{course.source === "own" ? msg.timetable.ownTag : msg.timetable.editedTag}</p>
      ) : null}
      <dl className="space-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex gap-3">
            <dt className="w-10 shrink-0 text-slate-500">{label}</dt>
            <dd className="flex-1 text-slate-800">{value || "—"}</dd>
          </div>
        ))}
      </dl>
      {materials ? (
        <p role="status" className="mt-3 rounded-xl bg-slate-50 px-3 py-2 text-sm text-slate-600">
          {msg.schedule.materialsComing}
        </p>
      ) : null}
      <div className="mt-4 grid grid-cols-2 gap-2">
        <Link to={href({ course: String(course.index), materials: "soon" })} replace preventScrollReset className="btn-ghost">
          <Icon name="material" className="h-4 w-4" />
          {msg.schedule.materials}
        </Link>
        {course.helpHref ? (
          <Link to={course.helpHref} className="btn-primary">
            <Icon name="hand" className="h-4 w-4" />
            {msg.titles.mutualHelp}
          </Link>
        ) : null}
        <Link to={course.editHref} className={`btn-ghost ${course.helpHref ? "col-span-2" : ""}`}>
          <Icon name="edit" className="h-4 w-4" />
          {msg.timetable.editThisCourse}
        </Link>
      </div>
    </Overlay>
  );
}

function WeekPicker({ data, closeHref }: { data: Data; closeHref: string }) {
  const weeks = Array.from({ length: data.maxWeek - data.minWeek + 1 }, (_, i) => data.minWeek + i);
  return (
    <Overlay id="weeks" title={msg.schedule.pickWeek} closeHref={closeHref} variant="sheet">
      <ul className="grid grid-cols-5 gap-2">
        {weeks.map((week) => {
          const selected = week === data.week;
          const isThis = data.isCurrentTerm && week === data.thisWeek;
          return (
            <li key={week}>
              <Link
                to={scheduleHref(data.term.code, week)}
                aria-current={selected ? "page" : undefined}
                className={`flex h-12 flex-col items-center justify-center rounded-xl text-sm ${
                  selected ? "bg-brand font-semibold text-white" : "bg-slate-50 text-slate-700 hover:bg-slate-100"
                }`}
              >
                {week}
                {isThis ? <span className={`text-[10px] leading-none ${selected ? "text-white/85" : "text-brand"}`}>{msg.schedule.thisWeek}</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </Overlay>
  );
}

function Summary({ data, closeHref, thisWeekHref }: { data: Data; closeHref: string; thisWeekHref: string }) {
  const first = data.days[0];
  const last = data.days[6];
  const rows: [string, string][] = [
    [msg.schedule.term, data.term.label],
    [msg.schedule.summaryWeek1, data.week1Start],
    [msg.schedule.summaryViewing, weekLabel(data.week)],
    [msg.schedule.summaryDates, `${first.date} ~ ${last.date}`],
    [msg.schedule.summaryCourses, fillTemplate(msg.schedule.summaryCoursesCount, { n: data.weekPeriods })],
  ];
  return (
    <Overlay id="summary" title={msg.schedule.summaryTitle} closeHref={closeHref}>
      <dl className="space-y-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-3">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-right text-slate-800">{value}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 rounded-xl bg-brand-soft/60 px-3 py-2 text-sm text-brand-dark">
        {data.todayWeek ? fillTemplate(msg.schedule.summaryToday, { week: data.todayWeek }) : msg.schedule.summaryNotInTerm}
      </p>
      {data.syncedAt ? <p className="mt-2 text-xs text-slate-500">{fillTemplate(msg.schedule.syncedAt, { time: data.syncedAt })}</p> : null}
      <div className="mt-4 grid grid-cols-2 gap-2">
        <Link to={closeHref} replace preventScrollReset className="btn-ghost">
          {msg.app.close}
        </Link>
        <Link to={thisWeekHref} className="btn-primary">
          {msg.schedule.backToThisWeek}
        </Link>
      </div>
    </Overlay>
  );
}

const SWITCHES = [
  {
    name: "courseReminder",
    label: msg.schedule.courseReminder,
    hint: fillTemplate(msg.schedule.courseReminderHint, { minutes: COURSE_REMINDER_MINUTES }),
  },
  { name: "substituteReminder", label: msg.schedule.substituteReminder, hint: msg.schedule.substituteReminderHint },
  { name: "announcementReminder", label: msg.schedule.announcementReminder, hint: msg.schedule.announcementReminderHint },
] as const;

/** 复制: with JavaScript only (without it the address field above is there to select). */
function CopyAddressButton({ text }: { text: string }) {
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!hydrated) return null;
  return (
    <button type="button" className="btn-ghost" onClick={() => void copyText(text).then((ok) => setState(ok ? "copied" : "failed"))}>
      {state === "copied" ? <Icon name="check" className="h-4 w-4" /> : null}
      <span aria-live="polite">{state === "copied" ? msg.schedule.calendarCopied : state === "failed" ? msg.schedule.calendarCopyFailed : msg.schedule.calendarCopy}</span>
    </button>
  );
}

function NotifySheet({ data, closeHref, formAction, saved }: { data: Data; closeHref: string; formAction: string; saved: string | null }) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const webcal = data.calendarUrl?.replace(/^https?:/, "webcal:");
  return (
    <Overlay id="notify" title={msg.schedule.reminderTitle} closeHref={closeHref} variant="sheet">
      <Form method="post" action={formAction} preventScrollReset replace>
        <input type="hidden" name="intent" value="reminders" />
        <input type="hidden" name="term" value={data.term.code} />
        <input type="hidden" name="week" value={data.week} />
        <ul className="divide-y divide-slate-100 rounded-2xl bg-slate-50 px-3">
          {SWITCHES.map((entry) => (
            <li key={entry.name}>
              <label className="flex cursor-pointer items-center gap-3 py-3">
                <span className="flex-1">
                  <span className="block text-sm font-medium text-slate-800">{entry.label}</span>
                  <span className="block text-xs text-slate-500">{entry.hint}</span>
                </span>
                <input
                  type="checkbox"
                  role="switch"
                  name={entry.name}
                  defaultChecked={data.reminders[entry.name]}
                  className="peer sr-only"
                />
                <span
                  aria-hidden="true"
                  className="relative h-7 w-12 shrink-0 rounded-full bg-slate-300 transition peer-checked:bg-brand peer-focus-visible:ring-2 peer-focus-visible:ring-brand/40 after:absolute after:left-0.5 after:top-0.5 after:h-6 after:w-6 after:rounded-full after:bg-white after:shadow after:transition peer-checked:after:translate-x-5"
                />
              </label>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-xs text-slate-500">{msg.schedule.reminderNote}</p>
        <div className="mt-3 flex items-center gap-3">
          <button type="submit" className="btn-primary" disabled={busy}>
            {msg.schedule.reminderSave}
          </button>
          {saved === "remindersSaved" ? (
            <span role="status" className="flex items-center gap-1 text-sm text-emerald-700">
              <Icon name="check" className="h-4 w-4" />
              {msg.schedule.reminderSaved}
            </span>
          ) : null}
        </div>
      </Form>

      <DisplaySettingsForm data={data} formAction={formAction} saved={saved === "displaySaved"} />

      <section aria-labelledby="calendar-title" className="mt-5 border-t border-slate-100 pt-4">
        <h3 id="calendar-title" className="flex items-center gap-1.5 text-base font-semibold">
          <Icon name="calendar" className="h-5 w-5 text-brand" />
          {msg.schedule.calendarTitle}
        </h3>
        <p className="mt-1 text-sm text-slate-500">{msg.schedule.calendarHint}</p>
        {data.calendarUrl ? (
          <div className="mt-3 space-y-2">
            <label htmlFor="calendar-url" className="field-label">
              {msg.schedule.calendarAddress}
            </label>
            <input id="calendar-url" readOnly value={data.calendarUrl} onFocus={(event) => event.currentTarget.select()} className="field-input text-xs" />
            <p className="text-xs text-amber-700">{msg.schedule.calendarPrivate}</p>
            <details className="rounded-xl bg-slate-50 px-3 py-2 text-xs text-slate-600">
              <summary className="cursor-pointer font-medium text-slate-700">{msg.timetable.calendarMessengerTitle}</summary>
              <ol className="mt-1 list-decimal space-y-1 pl-4">
                {msg.timetable.calendarMessengerSteps.map((step) => (
                  <li key={step}>{step}</li>
                ))}
              </ol>
            </details>
          </div>
        ) : null}
        {saved === "calendarCreated" || saved === "calendarReset" ? (
          <p role="status" className="mt-2 flex items-center gap-1 text-sm text-emerald-700">
            <Icon name="check" className="h-4 w-4" />
            {saved === "calendarReset" ? msg.schedule.calendarResetDone : msg.schedule.calendarCreated}
          </p>
        ) : null}
        <div className="mt-3 flex flex-wrap gap-2">
          {webcal ? (
            <a href={webcal} className="btn-primary">
              {msg.schedule.calendarOpen}
            </a>
          ) : null}
          {/* The messenger does not open webcal: links; the same feed over https does open. */}
          {data.calendarUrl ? (
            <a href={data.calendarUrl} className="btn-ghost">
              {msg.schedule.calendarOpenHttps}
            </a>
          ) : null}
          {data.calendarUrl ? <CopyAddressButton text={data.calendarUrl} /> : null}
          <Form method="post" action={formAction} preventScrollReset replace>
            <input type="hidden" name="intent" value="calendar" />
            <input type="hidden" name="term" value={data.term.code} />
            <input type="hidden" name="week" value={data.week} />
            <button type="submit" className={data.calendarUrl ? "btn-ghost" : "btn-primary"} disabled={busy}>
              {data.calendarUrl ? msg.schedule.calendarReset : msg.schedule.calendarCreate}
            </button>
          </Form>
        </div>
      </section>
    </Overlay>
  );
}

function TodayCard({ today, open, href }: { today: NonNullable<Data["today"]>; open: boolean; href: (extra?: Record<string, string>) => string }) {
  const focus = today.focus;
  const t = msg.timetable;
  const headline = today.holiday
    ? fillTemplate(t.todayHoliday, { label: today.holiday })
    : today.items.length === 0
      ? t.todayFree
      : focus
        ? null
        : t.todayDone;
  const linkOf = (item: NonNullable<Data["today"]>["items"][number]) => (item.kind === "exam" ? "/backpack/exams" : href({ course: String(item.index) }));
  return (
    <section aria-labelledby="today-title">
      <div className={`flex min-h-[2.875rem] items-center gap-2 rounded-xl px-2 py-1.5 ${focus?.item.kind === "exam" ? "bg-red-50 text-red-900" : "bg-brand-soft/60 text-brand-dark"}`}>
        <h2 id="today-title" className="w-7 shrink-0 text-center text-[11px] font-semibold leading-tight">
          {t.todayTitle}
        </h2>
        {focus ? (
          <Link to={linkOf(focus.item)} preventScrollReset className="min-w-0 flex-1 leading-tight">
            <span className="block truncate text-sm">
              <span className="text-xs">
                {focus.state === "now" ? t.todayNow : t.todayNext}
                {focus.item.kind === "exam" ? ` · ${t.examTag}` : ""}
              </span>{" "}
              <span className="font-semibold">{focus.item.name}</span>
            </span>
            <span className="block truncate text-xs opacity-80">
              {focus.item.start}-{focus.item.end}
              {focus.item.location ? ` · ${focus.item.location}` : ""}
            </span>
          </Link>
        ) : (
          <p className="min-w-0 flex-1 text-sm leading-tight text-slate-600">
            {headline}
            {today.makeup ? <span className="mt-0.5 block text-xs text-amber-800">{fillTemplate(t.todayMakeup, { weekday: today.makeup })}</span> : null}
          </p>
        )}
        <div className="shrink-0 text-right leading-tight">
          {focus ? (
            <span role="timer" className="block text-xs font-semibold">
              {focus.state === "now"
                ? fillTemplate(focus.item.kind === "exam" ? t.todayExamEndsIn : t.todayEndsIn, { time: durationText(focus.minutes) })
                : fillTemplate(t.todayStartsIn, { time: durationText(focus.minutes) })}
            </span>
          ) : null}
          {focus && today.makeup ? <span className="block text-[11px] text-amber-800">{fillTemplate(t.todayMakeup, { weekday: today.makeup })}</span> : null}
          {today.items.length > 0 ? (
            <Link to={href({ today: open ? "" : "all" })} preventScrollReset replace aria-expanded={open} className="mt-0.5 inline-flex items-center gap-0.5 text-[11px] text-slate-600 underline-offset-2 hover:underline">
              {fillTemplate(open ? t.todayListClose : t.todayListOpen, { n: today.items.length })}
              <Icon name="down" className={`h-3 w-3 ${open ? "rotate-180" : ""}`} />
            </Link>
          ) : null}
        </div>
      </div>
      {open && today.items.length > 0 ? (
        <ol aria-label={t.todayTitle} className="mt-1 divide-y divide-slate-100 text-sm">
          {today.items.map((item) => (
            <li key={`${item.kind}-${item.index}`} className={item.state === "done" ? "text-slate-400" : "text-slate-700"}>
              <Link to={linkOf(item)} preventScrollReset className="flex items-center gap-2 py-1.5">
                <span className="w-[5.5rem] shrink-0 tabular-nums">
                  {item.start}-{item.end}
                </span>
                <span className="flex-1 truncate font-medium">
                  {item.kind === "exam" ? <span className="mr-1 rounded bg-red-600 px-1 text-[10px] text-white">{t.examTag}</span> : null}
                  {item.name}
                </span>
                <span className="max-w-[7rem] truncate text-xs">{item.location}</span>
              </Link>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

function ChangeNotice({ changed, edit, clash, formAction, data }: { changed: string | null; edit: string | null; clash: string | null; formAction: string; data: Data }) {
  const t = msg.timetable;
  const label = ({ saved: t.saved, hidden: t.hidden, restored: t.restored, deleted: t.deleted, shown: t.shown, undone: t.undone, imported: t.imported } as Record<string, string>)[changed ?? ""];
  if (!label) return null;
  return (
    <div role="status" className="space-y-1 rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
      <div className="flex items-center gap-2">
        <Icon name="check" className="h-4 w-4" />
        <span className="flex-1">{label}</span>
        {edit && /^\d+$/.test(edit) && changed !== "undone" ? (
          <Form method="post" action={formAction} preventScrollReset replace>
            <input type="hidden" name="intent" value="undo" />
            <input type="hidden" name="edit" value={edit} />
            <input type="hidden" name="term" value={data.term.code} />
            <input type="hidden" name="week" value={data.week} />
            <button type="submit" className="rounded-full px-2 py-0.5 font-semibold text-emerald-900 underline">
              {t.undo}
            </button>
          </Form>
        ) : null}
      </div>
      {clash ? <p className="text-red-700">{fillTemplate(t.clashWarning, { name: clash })}</p> : null}
    </div>
  );
}

function HiddenCourses({ data, formAction }: { data: Data; formAction: string }) {
  return (
    <section aria-labelledby="hidden-title" className="card p-3">
      <h2 id="hidden-title" className="text-sm font-semibold text-slate-700">
        {msg.timetable.hiddenTitle}
      </h2>
      <ul className="mt-1 divide-y divide-slate-100">
        {data.hiddenCourses.map((course) => (
          <li key={course.editId} className="flex items-center gap-2 py-1.5 text-sm">
            <span className="flex-1 text-slate-500 line-through">{course.name}</span>
            <Form method="post" action={`/schedule/courses/edit?${new URLSearchParams({ term: data.term.code, week: String(data.week), edit: String(course.editId) })}`}>
              <input type="hidden" name="intent" value="show" />
              <input type="hidden" name="term" value={data.term.code} />
              <input type="hidden" name="week" value={data.week} />
              <button type="submit" className="btn-ghost px-3 py-1 text-xs">
                {msg.timetable.showCourse}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

function DisplaySettingsForm({ data, formAction, saved }: { data: Data; formAction: string; saved: boolean }) {
  const t = msg.timetable;
  return (
    <Form method="post" action={formAction} preventScrollReset replace className="mt-5 space-y-3 border-t border-slate-100 pt-4">
      <h3 className="text-base font-semibold">{t.displayTitle}</h3>
      <input type="hidden" name="intent" value="display" />
      <input type="hidden" name="term" value={data.term.code} />
      <input type="hidden" name="week" value={data.week} />
      <label className="flex cursor-pointer items-center gap-3 rounded-2xl bg-slate-50 px-3 py-3">
        <span className="flex-1">
          <span className="block text-sm font-medium text-slate-800">{t.showOtherWeeks}</span>
          <span className="block text-xs text-slate-500">{t.showOtherWeeksHint}</span>
        </span>
        <input type="checkbox" name="showOtherWeeks" defaultChecked={data.display.showOtherWeeks} className="h-5 w-5 accent-brand" />
      </label>
      <label className="block">
        <span className="field-label">{t.alarmLabel}</span>
        <select name="alarmMinutes" defaultValue={String(data.display.alarmMinutes)} className="field-input py-2 text-sm">
          {ALARM_CHOICES.map((n) => (
            <option key={n} value={n}>
              {n === 0 ? t.alarmNone : fillTemplate(t.alarmMinutes, { n })}
            </option>
          ))}
        </select>
        <span className="mt-1 block text-xs text-slate-500">{t.alarmHint}</span>
      </label>
      <div className="flex items-center gap-3">
        <button type="submit" className="btn-primary">
          {t.save}
        </button>
        {saved ? (
          <span role="status" className="flex items-center gap-1 text-sm text-emerald-700">
            <Icon name="check" className="h-4 w-4" />
            {t.displaySaved}
          </span>
        ) : null}
      </div>
    </Form>
  );
}
