import type { LoaderFunctionArgs } from "@remix-run/node";
import { getUser } from "~/server/auth/session.server";
import { readDeliveryPhoto } from "~/server/storage/delivery-photos.server";
import { REFUSED, photoResponse } from "~/server/http/photo-answer.server";

// /express/orders/:orderId/photo — the delivery photo of the student's own order (decision 047).
// Another student's order answers 404, as an unknown one does; the browser may keep the picture
// a while, shared caches never.
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (!user) return new Response("Unauthorized", { status: 401, headers: REFUSED });
  const photo = await readDeliveryPhoto({ kind: "student", userId: user.id }, params.orderId ?? "");
  return photoResponse(photo);
}
