import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/redirect";
import { CampusChoiceSchema } from "~/lib/schemas/campus";
import { getUser } from "~/server/auth/session.server";
import { clearCampusChoice, findCampus, saveCampusChoice } from "~/server/campus/campus.server";
import type { CampusChoiceRefusal } from "~/server/campus/selector.server";

// The campus selector posts here from any page; the answer is always a redirect back, with the
// selector reopened and the reason when the choice was refused.
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: CampusChoiceSchema });
  const back = safeRedirect(formData.get("redirectTo"), "/market");
  const user = await getUser(request);
  // Product rules: when selecting fails, the stored campus is removed and the selector reopens.
  const refuse = async (reason: CampusChoiceRefusal) =>
    redirect(withSelector(back, reason), { headers: { "Set-Cookie": await clearCampusChoice(user) } });
  if (submission.status !== "success") return refuse("required");
  const campus = await findCampus(submission.value.campus);
  if (!campus) return refuse("unknown");
  if (!campus.active) return refuse("inactive");
  const setCookie = await saveCampusChoice(user, campus.code);
  return redirect(withoutSelector(back), { headers: { "Set-Cookie": setCookie } });
}

export const loader = () => redirect("/market");

function withSelector(path: string, error: CampusChoiceRefusal) {
  const url = new URL(path, "http://x");
  url.searchParams.set("selectCampus", "1");
  url.searchParams.set("campusError", error);
  return url.pathname + url.search;
}

function withoutSelector(path: string) {
  const url = new URL(path, "http://x");
  url.searchParams.delete("selectCampus");
  url.searchParams.delete("campusError");
  return url.pathname + url.search;
}
