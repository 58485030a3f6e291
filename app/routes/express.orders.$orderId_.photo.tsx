import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/server/auth/session.server";
import { readDeliveryPhoto } from "~/server/storage/delivery-photos.server";

// /express/orders/:orderId/photo — the delivery photo of the student's own order (decision 047).
// Another student's order answers 404, as an unknown one does; the browser may keep the picture
// a while, shared caches never.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return new Response("Unauthorized", { status: 401, headers: REFUSED });
  const photo = await readDeliveryPhoto({ kind: "student", userId: user.id }, params.orderId ?? "");
  return photoResponse(photo);
}

const REFUSED = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };

function photoResponse(photo: Awaited<ReturnType<typeof readDeliveryPhoto>>) {
  if (photo.ok) return new Response(new Uint8Array(photo.data), { headers: { "Content-Type": photo.contentType, "Content-Length": String(photo.data.length), "Cache-Control": "private, max-age=3600" } });
  if (photo.reason === "unavailable") return new Response("Service Unavailable", { status: 503, headers: { ...REFUSED, "Retry-After": "5" } });
  if (photo.reason === "forbidden") return new Response("Forbidden", { status: 403, headers: REFUSED });
  return new Response("Not Found", { status: 404, headers: REFUSED });
}
