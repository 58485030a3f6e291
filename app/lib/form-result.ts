// Reading a conform SubmissionResult (what `submission.reply()` answers) in a component without
// shipping conform's client: the circle's pages are near the JS budget. Browser-safe.

export type FormResult = {
  status?: "success" | "error";
  initialValue?: Record<string, unknown> | null;
  error?: Record<string, string[] | null> | null;
};

/** The messages of one field ("" is the form itself). */
export function errorsOf(result: FormResult | null | undefined, field: string): string[] {
  return result?.error?.[field] ?? [];
}

/** Every message of the result, form-level first. */
export function allErrors(result: FormResult | null | undefined): string[] {
  if (!result?.error) return [];
  const form = result.error[""] ?? [];
  const fields = Object.entries(result.error)
    .filter(([name]) => name !== "")
    .flatMap(([, messages]) => messages ?? []);
  return [...form, ...fields];
}

/** A submitted text value, to put back into the field after an error. */
export function submittedText(result: FormResult | null | undefined, field: string): string | undefined {
  const value = result?.initialValue?.[field];
  return typeof value === "string" ? value : undefined;
}
