/** A field's first error, under it, with the id its input's aria-describedby names (conform's field metadata). */
export function FieldError({ field }: { field: { errorId: string; errors?: string[] } }) {
  return field.errors?.length ? (
    <p id={field.errorId} className="field-error">
      {field.errors[0]}
    </p>
  ) : null;
}
