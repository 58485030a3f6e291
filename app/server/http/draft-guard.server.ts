// The guard of the draft forms (handle.keepsDraft, app/server/forum/draft-stash.server.ts): a form
// sent without a valid student session keeps its text for after the login, then goes to the login
// page with the draft's cookie.
import { draftFromForm, stashDraft, type DraftKind } from "../forum/draft-stash.server";
import { requireStudent } from "./guards.server";

/**
 * Keeps the form's draft, then throws requireStudent's redirect carrying the draft's cookie, for
 * every caller. `formData`: the body when the action already read it, null when it must not be
 * read (declared too large).
 */
export async function requireStudentKeepingDraft(
  request: Request,
  kind: DraftKind,
  path: string,
  formData: FormData | null | undefined,
  clientIp: string | undefined,
): Promise<never> {
  let setCookie: string | null = null;
  try {
    const form = formData === undefined ? await request.formData() : formData;
    if (form) setCookie = await stashDraft(request, kind, path, draftFromForm(kind, form), clientIp);
  } catch {
    // an unreadable body: nothing to keep
  }
  try {
    await requireStudent(request);
  } catch (thrown) {
    if (setCookie && thrown instanceof Response) thrown.headers.append("Set-Cookie", setCookie);
    throw thrown;
  }
  throw new Error("unreachable");
}
