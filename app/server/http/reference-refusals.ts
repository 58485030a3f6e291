// What the admin reference-data routes (schools, campuses, delivery slots) answer when a change
// is refused (app/server/admin/reference.server.ts): the status, and conform's reply with the
// catalogue's message beside its field (or at the form). Four routes answer the same refusals.
import { adminReference } from "~/lib/messages/adminReference";
import type { ReferenceRefusal, ReferenceResult } from "~/server/admin/reference.server";
import type { RefusalTable } from "./refusal-table";

const e = adminReference.errors;

export const REFERENCE_REFUSALS: RefusalTable<ReferenceRefusal> = {
  code_taken: { status: 409, message: e.codeTaken },
  name_taken: { status: 409, message: e.nameTaken },
  not_found: { status: 404, message: e.notFound },
  need_building: { status: 400, message: e.needBuilding },
  last_building: { status: 400, message: e.lastBuilding },
  invalid: { status: 400, message: e.invalid },
  failed: { status: 500, message: adminReference.failed },
};

type Replyable<Reply> = { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => Reply };

/** A refused change: its status, and conform's reply with the message beside its field (or at the form). */
export function referenceRefusal<Reply>(submission: Replyable<Reply>, refused: Extract<ReferenceResult, { ok: false }>): { status: number; reply: Reply } {
  const { status, message } = REFERENCE_REFUSALS[refused.reason];
  const reply = refused.field ? submission.reply({ fieldErrors: { [refused.field]: [message] } }) : submission.reply({ formErrors: [message] });
  return { status, reply };
}
