import type { FormResult } from "~/lib/form-result";

// What a page needs to show conform's server reply (`submission.reply()`) next to its fields,
// without shipping conform's client (~9 KB gzip) to pages that sit near the JS budget. The
// server still parses every form with conform's parseWithZod; this only reads the answer.

export type FieldMeta = { id: string; name: string; errorId: string; errors?: string[]; initialValue?: string };

export function useServerForm<Name extends string>(
  formId: string,
  result: FormResult | null | undefined,
  names: readonly Name[],
  defaults: Partial<Record<Name, string>> = {},
) {
  const fields = {} as Record<Name, FieldMeta>;
  for (const name of names) {
    const errors = result?.error?.[name];
    const submitted = result?.initialValue?.[name];
    fields[name] = {
      id: `${formId}-${name}`,
      name,
      errorId: `${formId}-${name}-error`,
      errors: errors?.length ? errors : undefined,
      initialValue: typeof submitted === "string" ? submitted : defaults[name],
    };
  }
  const formErrors = result?.error?.[""];
  const form = { id: formId, errorId: `${formId}-error`, errors: formErrors?.length ? formErrors : undefined };
  return [form, fields] as const;
}

/** id, name, the typed value after an error, and the ARIA links to the field's message. */
export function fieldProps(field: FieldMeta) {
  return {
    id: field.id,
    name: field.name,
    defaultValue: field.initialValue,
    "aria-invalid": field.errors ? true : undefined,
    "aria-describedby": field.errors ? field.errorId : undefined,
  };
}

export function formProps(form: { id: string; errorId: string; errors?: string[] }) {
  return { id: form.id, "aria-describedby": form.errors ? form.errorId : undefined };
}
