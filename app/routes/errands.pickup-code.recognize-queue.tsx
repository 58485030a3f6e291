// GET /errands/pickup-code/recognize-queue — the signed-in user's screenshots in the recognition
// queue: { success, data: [{ uploadId, state: "waiting" | "reading", ahead }] }, so the page can
// show each image's place while its POST waits.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { queuePosition } from "~/server/market/ocr.server";
import { requireMessengerUser } from "~/server/http/guards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMessengerUser(request);
  return Response.json({ success: true, data: queuePosition(String(user.id)) }, { headers: { "Cache-Control": "no-store" } });
}
