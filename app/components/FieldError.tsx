/**
 * A field's first error, under it, with the id its input's aria-describedby names (conform's field
 * metadata, or any `{ errorId, errors }`; a message no input points at may go without an id).
 * `alert` announces it (role="alert"), `all` shows every error joined by "；" (the post sheets),
 * `as="span"` (styled `block`) is for an error inside a <label>, where a <p> is invalid.
 */
export function FieldError({
  field,
  alert,
  all,
  as: Tag = "p",
  className,
}: {
  field: { errorId?: string; errors?: string[] };
  alert?: boolean;
  all?: boolean;
  as?: "p" | "span";
  className?: string;
}) {
  if (!field.errors?.length) return null;
  const base = Tag === "span" ? "field-error block" : "field-error";
  return (
    <Tag id={field.errorId} role={alert ? "alert" : undefined} className={className ? `${base} ${className}` : base}>
      {all ? field.errors.join("；") : field.errors[0]}
    </Tag>
  );
}

/**
 * The form's own refusal (conform's form-level error, or what an action answered), announced,
 * above or below its fields; `id` is the one the form's aria-describedby names.
 */
export function FormError({ message, id, className }: { message?: string | null; id?: string; className?: string }) {
  return message ? (
    <p id={id} role="alert" className={className ? `form-error ${className}` : "form-error"}>
      {message}
    </p>
  ) : null;
}
