import { Form } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { campus as campusMessages } from "~/lib/messages/campus";
import { campusStatusLabel } from "~/lib/catalog";

const msg = { campus: campusMessages };

export type CampusOption = { code: string; name: string; status: string; active: boolean };

/**
 * The campus selector: a modal that cannot be dismissed (no close button, no backdrop or
 * Escape handling) until a campus is chosen. A plain form, so it works without JavaScript.
 */
export function CampusSelector({
  campuses,
  current,
  redirectTo,
  error,
}: {
  campuses: CampusOption[];
  current?: string | null;
  redirectTo: string;
  error?: string | null;
}) {
  return (
    <div className="fixed inset-0 z-50 !m-0 flex items-end justify-center bg-black/50 sm:items-center">
      <section
        role="dialog"
        aria-modal="true"
        aria-labelledby="campus-selector-title"
        className="w-full max-w-screen-sm rounded-t-3xl bg-white p-5 shadow-xl sm:rounded-3xl"
      >
        <h2 id="campus-selector-title" className="text-lg font-semibold">
          {msg.campus.selectTitle}
        </h2>
        <p className="mt-1 text-sm text-slate-500">{msg.campus.selectHint}</p>
        {campuses.length === 0 ? <p className="mt-4 text-sm text-slate-500">{msg.campus.none}</p> : null}
        <FieldError field={{ errors: error ? [error] : undefined }} alert />
        <Form method="post" action="/market/campus" className="mt-4 space-y-2">
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {campuses.map((campus) => (
            <button
              key={campus.code}
              type="submit"
              name="campus"
              value={campus.code}
              disabled={!campus.active}
              className={`flex w-full items-center justify-between rounded-2xl border px-4 py-3 text-left ${
                current === campus.code ? "border-brand bg-brand-soft" : "border-slate-200"
              } disabled:cursor-not-allowed disabled:opacity-60`}
            >
              <span className="font-medium">{campus.name}</span>
              <span
                className={`rounded-full px-2 py-0.5 text-xs ${campus.active ? "bg-green-100 text-green-700" : "bg-slate-100 text-slate-500"}`}
              >
                {campusStatusLabel(campus.status)}
              </span>
            </button>
          ))}
        </Form>
        {/* A campus not yet open is no dead end: the rest of the app does not need one. */}
        {campuses.some((campus) => !campus.active) ? (
          <div className="mt-4 rounded-2xl bg-slate-50 p-3">
            <p className="text-sm text-slate-600">{msg.campus.comingHint}</p>
            <div className="mt-3 grid grid-cols-2 gap-2">
              <a href="/schedule" className="btn-ghost">
                {msg.campus.goSchedule}
              </a>
              <a href="/circle" className="btn-ghost">
                {msg.campus.goCircle}
              </a>
            </div>
          </div>
        ) : null}
        <p className="mt-4 text-center text-xs text-slate-500">{msg.campus.missingFooter}</p>
      </section>
    </div>
  );
}
