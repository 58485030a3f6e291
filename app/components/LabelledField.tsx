// A module of its own rather than a part of ./FieldError: that chunk is loaded by some thirty pages
// with a form, this one only by the pages that use it (the two login forms, the address form).
import type { ReactNode } from "react";
import { FieldError } from "~/components/FieldError";

/** A field's label, its control and its first error under it. */
export function LabelledField({ field, label, children }: { field: { id: string; errorId?: string; errors?: string[] }; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      {children}
      <FieldError field={field} />
    </div>
  );
}
