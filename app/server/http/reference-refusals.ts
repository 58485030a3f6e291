// The admin reference-data routes' action (schools, campuses, delivery slots), written once: the
// admin guard, the posted form read with its schema, the change (app/server/admin/reference.server.ts)
// and what is answered when it is refused: the status, and conform's reply with the catalogue's
// message beside its field (or at the form), tagged with the form that was posted.
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import type * as z from "zod";
import { adminReference } from "~/lib/messages/adminReference";
import type { Operator } from "~/server/auth/operator.server";
import type { ReferenceRefusal, ReferenceResult } from "~/server/admin/reference.server";
import { requireAdminPage } from "./admin-guard";
import type { RefusalTable } from "./refusal-table";

const e = adminReference.errors;

const REFERENCE_REFUSALS: RefusalTable<ReferenceRefusal> = {
  code_taken: { status: 409, message: e.codeTaken },
  name_taken: { status: 409, message: e.nameTaken },
  not_found: { status: 404, message: e.notFound },
  need_building: { status: 400, message: e.needBuilding },
  last_building: { status: 400, message: e.lastBuilding },
  invalid: { status: 400, message: e.invalid },
  base_url_format: { status: 400, message: e.baseUrlFormat },
  base_url_forbidden: { status: 400, message: e.baseUrlForbidden },
  failed: { status: 500, message: adminReference.failed },
};

type Replyable<Reply> = { reply: (options?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => Reply };

/** A refused change: its status, and conform's reply with the message beside its field (or at the form). */
function referenceRefusal<Reply>(submission: Replyable<Reply>, refused: Extract<ReferenceResult, { ok: false }>): { status: number; reply: Reply } {
  const { status, message } = REFERENCE_REFUSALS[refused.reason];
  const reply = refused.field ? submission.reply({ fieldErrors: { [refused.field]: [message] } }) : submission.reply({ formErrors: [message] });
  return { status, reply };
}

/** Which form of the page was posted: the intent, and the row it names. */
function postedFormId(formData: FormData) {
  const intent = String(formData.get("intent") ?? "").slice(0, 40);
  const key = String(formData.get("id") ?? formData.get("code") ?? "").slice(0, 40);
  return key && !intent.startsWith("create") && !intent.startsWith("add") && intent !== "campus" && intent !== "prices" ? `${intent}-${key}` : intent || "form";
}

/**
 * A reference page's action: an admin's posted form, checked by `schema`, saved by `save`; then
 * the page again with `?notice=saved` at `savedAt`, or the form's reply (400 for invalid input,
 * the refusal's status otherwise).
 */
export async function referenceAction<Schema extends z.ZodType>(
  request: Request,
  schema: Schema,
  save: (operator: Operator, value: z.output<Schema>) => Promise<ReferenceResult>,
  savedAt: (value: z.output<Schema>) => string,
) {
  const operator = await requireAdminPage(request);
  const formData = await request.formData();
  const formId = postedFormId(formData);
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return Response.json({ formId, reply: submission.reply() }, { status: 400 });
  const result = await save(operator, submission.value);
  if (!result.ok) {
    const refused = referenceRefusal(submission, result);
    return Response.json({ formId, reply: refused.reply }, { status: refused.status });
  }
  return redirect(`${savedAt(submission.value)}?notice=saved`);
}
