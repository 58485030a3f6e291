import type { SubmissionResult } from "@conform-to/react";
import { errorsOf, submittedText } from "~/lib/form-result";

// The market's forms show conform's reply (submission.reply() from the action, validated with the
// zod schema in app/lib/schemas) without conform's client runtime: @conform-to/react's useForm
// adds 9.0 KB gzip to a route, and every /market route is already within 3 KB of the 110 KB
// budget (docs/decisions/023). Same reply, same ids as useForm (`<form>-<field>`, `…-error`),
// constraints computed in the loader with getZodConstraint from the same schema. It reads the
// reply with ~/lib/form-result, the app's one reader of a SubmissionResult.

export type Constraint = { required?: boolean; minLength?: number; maxLength?: number; pattern?: string };
export type Constraints = Record<string, Constraint>;
export type FormReply = SubmissionResult<string[]> | undefined;

/** The fields of a form: their ids, errors, the value to show (what was sent, else the default) and constraint attributes. */
export function formReply(formId: string, reply: FormReply, constraints: Constraints | undefined, defaults: Record<string, string | undefined> = {}) {
  return {
    /** Errors of the whole form (the rule that was broken, an address from another campus). */
    errors: errorsOf(reply, "").length ? errorsOf(reply, "") : undefined,
    errorId: `${formId}-error`,
    field(name: string) {
      const id = `${formId}-${name}`;
      const errorId = `${id}-error`;
      const list = errorsOf(reply, name);
      const sent = reply?.initialValue ? (submittedText(reply, name) ?? "") : undefined;
      const constraint = constraints?.[name] ?? {};
      return {
        id,
        errorId,
        errors: list.length ? list : undefined,
        /** What was sent (after a refusal), else the default. */
        value: sent ?? defaults[name] ?? "",
        props: {
          id,
          name,
          required: constraint.required || undefined,
          minLength: constraint.minLength,
          maxLength: constraint.maxLength,
          pattern: constraint.pattern,
          "aria-invalid": list.length ? true : undefined,
          "aria-describedby": list.length ? errorId : undefined,
        },
      };
    },
  };
}
