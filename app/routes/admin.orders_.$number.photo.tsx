import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireOperator } from "~/server/auth/operator.server";
import { readDeliveryPhoto } from "~/server/storage/delivery-photos.server";

// /admin/orders/:number/photo — an order's delivery photo for the operators (decision 047): any
// operator but a rider, and the rider who carried the order; another rider gets 403. Under /admin
// because the operator's cookie is scoped there. Shared caches never keep it.
export async function loader({ request, params }: LoaderFunctionArgs) {
  // Like every /admin URL: anyone without an operator session goes to the operator login.
  const operator = await requireOperator(request);
  const photo = await readDeliveryPhoto({ kind: "operator", operator }, params.number ?? "");
  return photoResponse(photo);
}

const REFUSED = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };

function photoResponse(photo: Awaited<ReturnType<typeof readDeliveryPhoto>>) {
  if (photo.ok) return new Response(new Uint8Array(photo.data), { headers: { "Content-Type": photo.contentType, "Content-Length": String(photo.data.length), "Cache-Control": "private, max-age=3600" } });
  if (photo.reason === "unavailable") return new Response("Service Unavailable", { status: 503, headers: { ...REFUSED, "Retry-After": "5" } });
  if (photo.reason === "forbidden") return new Response("Forbidden", { status: 403, headers: REFUSED });
  return new Response("Not Found", { status: 404, headers: REFUSED });
}
