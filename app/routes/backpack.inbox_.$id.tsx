// GET /backpack/inbox/:id — opening an inbox item: marks it read and goes where it points (the
// post, the order), or back to the inbox. Another user's id is simply not found.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirect } from "~/lib/redirect";
import { openItem } from "~/server/notify/inbox.server";
import { requireStudent } from "~/server/http/guards.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  const id = Number(params.id);
  const item = Number.isSafeInteger(id) && id > 0 ? await openItem(user.id, id) : null;
  if (!item) throw new Response("Not Found", { status: 404 });
  return redirect(safeRedirect(item.link, "/backpack/inbox"), { headers: { "Cache-Control": "no-store" } });
}
