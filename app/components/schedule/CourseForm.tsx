import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { FieldError, FormError } from "~/components/FieldError";
import { schedule as scheduleMessages } from "~/lib/messages/schedule";
import { timetable as t } from "~/lib/messages/timetable";
import { COURSE_COLOURS } from "~/lib/schedule";
import { fillTemplate } from "~/lib/template";
import { MAX_PERIOD } from "~/lib/timetable-edits";

/** The card colours of the grid, in courseColour's order (the swatches of the form). */
export const SWATCHES = ["bg-sky-300", "bg-emerald-300", "bg-amber-300", "bg-rose-300", "bg-violet-300", "bg-teal-300", "bg-orange-300", "bg-indigo-300"];

export type CourseFormValues = {
  name?: string;
  teacher?: string;
  location: string;
  weekday: number;
  startPeriod: number;
  endPeriod: number;
  weeks: string;
  note: string;
  colour: number | null;
};

type Fields = {
  name?: string;
  teacher?: string;
  location?: string;
  weekday?: string;
  startPeriod?: string;
  endPeriod?: string;
  weeks?: string;
  note?: string;
  colour?: string;
  term?: string;
  week?: string;
};

/**
 * The course form: a plain POST that works without JavaScript (the action answers a refused form
 * with conform's reply, and the fields come back with what was typed and the Chinese errors).
 * `withName`: the student's own course (name and teacher editable); a school course keeps its name.
 */
export function CourseForm({
  id,
  action,
  term,
  week,
  withName,
  defaults,
  lastResult,
  constraint,
}: {
  id: string;
  action: string;
  term: string;
  week: number;
  withName: boolean;
  defaults: CourseFormValues;
  lastResult: SubmissionResult<string[]> | undefined;
  constraint: Record<string, { required?: boolean; maxLength?: number; minLength?: number; min?: string | number; max?: string | number; pattern?: string }>;
}) {
  const navigation = useNavigation();
  const [form, fields] = useForm<Fields>({
    id,
    lastResult,
    constraint,
    shouldValidate: "onSubmit",
    defaultValue: {
      name: defaults.name ?? "",
      teacher: defaults.teacher ?? "",
      location: defaults.location,
      weekday: String(defaults.weekday),
      startPeriod: String(defaults.startPeriod),
      endPeriod: String(defaults.endPeriod),
      weeks: defaults.weeks,
      note: defaults.note,
      colour: defaults.colour === null ? "" : String(defaults.colour),
    },
  });
  const periods = Array.from({ length: MAX_PERIOD }, (_, i) => i + 1);
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith(action.split("?")[0]) === true;
  const input = "field-input";
  const colourValue = fields.colour.initialValue ?? "";

  return (
    <Form method="post" action={action} {...getFormProps(form)} noValidate className="space-y-3">
      <input type="hidden" name="term" value={term} />
      <input type="hidden" name="week" value={week} />
      <FormError id={form.errorId} message={form.errors?.[0]} />
      <section className="card space-y-3">
        {withName ? (
          <>
            <div>
              <label htmlFor={fields.name.id} className="field-label">
                {t.courseName}
              </label>
              <input {...getInputProps(fields.name, { type: "text" })} key={fields.name.key} className={input} />
              <FieldError field={fields.name} alert />
            </div>
            <div>
              <label htmlFor={fields.teacher.id} className="field-label">
                {t.teacher}
              </label>
              <input {...getInputProps(fields.teacher, { type: "text" })} key={fields.teacher.key} className={input} />
              <FieldError field={fields.teacher} alert />
            </div>
          </>
        ) : null}
        <div>
          <label htmlFor={fields.location.id} className="field-label">
            {t.room}
          </label>
          <input {...getInputProps(fields.location, { type: "text" })} key={fields.location.key} className={input} />
          <FieldError field={fields.location} alert />
        </div>
        <div className="grid grid-cols-3 gap-2">
          <div>
            <label htmlFor={fields.weekday.id} className="field-label">
              {t.weekday}
            </label>
            <select {...getSelectProps(fields.weekday)} key={fields.weekday.key} className={input}>
              {scheduleMessages.weekdays.map((label, i) => (
                <option key={label} value={i + 1}>
                  {label}
                </option>
              ))}
            </select>
            <FieldError field={fields.weekday} alert />
          </div>
          <div>
            <label htmlFor={fields.startPeriod.id} className="field-label">
              {t.startPeriod}
            </label>
            <select {...getSelectProps(fields.startPeriod)} key={fields.startPeriod.key} className={input}>
              {periods.map((n) => (
                <option key={n} value={n}>
                  {fillTemplate(t.periodOption, { n })}
                </option>
              ))}
            </select>
            <FieldError field={fields.startPeriod} alert />
          </div>
          <div>
            <label htmlFor={fields.endPeriod.id} className="field-label">
              {t.endPeriod}
            </label>
            <select {...getSelectProps(fields.endPeriod)} key={fields.endPeriod.key} className={input}>
              {periods.map((n) => (
                <option key={n} value={n}>
                  {fillTemplate(t.periodOption, { n })}
                </option>
              ))}
            </select>
            <FieldError field={fields.endPeriod} alert />
          </div>
        </div>
        <div>
          <label htmlFor={fields.weeks.id} className="field-label">
            {t.weeks}
          </label>
          <input
            {...getInputProps(fields.weeks, { type: "text", ariaDescribedBy: fields.weeks.descriptionId })}
            key={fields.weeks.key}
            inputMode="text"
            autoComplete="off"
            className={input}
          />
          <p id={fields.weeks.descriptionId} className="mt-1 text-xs text-slate-500">
            {t.weeksHint}
          </p>
          <FieldError field={fields.weeks} alert />
        </div>
        <div>
          <label htmlFor={fields.note.id} className="field-label">
            {t.note}
          </label>
          <textarea {...getTextareaProps(fields.note)} key={fields.note.key} rows={2} className={input} />
          <FieldError field={fields.note} alert />
        </div>
        <fieldset>
          <legend className="field-label">{t.colour}</legend>
          <div className="flex flex-wrap gap-2">
            <label className="flex cursor-pointer items-center gap-1 rounded-full border border-slate-200 px-2 py-1 text-xs has-[:checked]:border-brand has-[:checked]:ring-2 has-[:checked]:ring-brand/40">
              <input type="radio" name={fields.colour.name} value="" defaultChecked={colourValue === ""} className="sr-only" />
              {t.colourAuto}
            </label>
            {Array.from({ length: COURSE_COLOURS }, (_, n) => (
              <label
                key={n}
                className="flex h-7 w-7 cursor-pointer items-center justify-center rounded-full border border-slate-200 has-[:checked]:ring-2 has-[:checked]:ring-brand"
              >
                <input type="radio" name={fields.colour.name} value={n} defaultChecked={colourValue === String(n)} aria-label={fillTemplate(t.colourName, { n: n + 1 })} className="sr-only" />
                <span aria-hidden="true" className={`h-5 w-5 rounded-full ${SWATCHES[n]}`} />
              </label>
            ))}
          </div>
        </fieldset>
      </section>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {t.save}
      </button>
    </Form>
  );
}
