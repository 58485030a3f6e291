import { Form } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { grades as gradesMessages } from "~/lib/messages/grades";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { fillTemplate } from "~/lib/template";

const msg = { grades: gradesMessages, schedule: scheduleMessages };

/** The school's failure (with the age of the copy still shown), the refresh result and the sync time, with the refresh button. */
export function SyncNotices({
  error,
  errorKind,
  staleAge,
  staleTemplate,
  synced,
  syncedAt,
  formAction,
  refreshing,
  hidden = {},
}: {
  error: string | null;
  errorKind: string | null;
  staleAge: string | null;
  staleTemplate: string;
  synced: boolean;
  syncedAt: string | null;
  formAction: string;
  refreshing: boolean;
  hidden?: Record<string, string>;
}) {
  return (
    <>
      {error ? <SyncFailure error={error} errorKind={errorKind} staleNotice={staleAge ? fillTemplate(staleTemplate, { age: staleAge }) : null} formAction={formAction} /> : null}
      {synced && !error ? (
        <p role="status" className="flex items-center gap-1 rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-700">
          <Icon name="check" className="h-4 w-4" />
          {msg.grades.synced}
        </p>
      ) : null}
      <div className="flex items-center justify-end gap-2 px-1 text-xs text-slate-600">
        {syncedAt ? (
          <span className="flex items-center gap-1">
            <Icon name="clock" className="h-3.5 w-3.5" />
            {fillTemplate(msg.grades.syncedAt, { time: syncedAt })}
          </span>
        ) : null}
        <Form method="post" action={formAction}>
          <input type="hidden" name="intent" value="refresh" />
          {Object.entries(hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <button type="submit" disabled={refreshing} className="flex items-center gap-1 rounded-full border border-slate-200 bg-white px-2.5 py-1 text-xs text-slate-700">
            <Icon name="refresh" className={`h-3.5 w-3.5 ${refreshing ? "animate-spin" : ""}`} />
            {refreshing ? msg.grades.refreshing : msg.grades.refresh}
          </button>
        </Form>
      </div>
    </>
  );
}

/** The school could not be reached: why, how old the copy still shown is, and 重新登录 when the stored password no longer works. */
export function SyncFailure({ error, errorKind, staleNotice, formAction }: { error: string; errorKind: string | null; staleNotice: string | null; formAction: string }) {
  return (
    <div role="alert" className="flex items-start gap-2 rounded-xl bg-red-50 px-3 py-2 text-sm text-red-700">
      <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
      <div className="flex-1">
        <p>{error}</p>
        {staleNotice ? <p className="text-red-600/80">{staleNotice}</p> : null}
      </div>
      {errorKind === "credentials_missing" ? (
        <Form method="post" action={formAction}>
          <input type="hidden" name="intent" value="relogin" />
          <button type="submit" className="btn-primary px-3 py-1">
            {msg.schedule.relogin}
          </button>
        </Form>
      ) : null}
    </div>
  );
}
