import type { LoaderFunctionArgs } from "@remix-run/node";
import { readDeliveryPhoto } from "~/server/storage/delivery-photos.server";
import { photoResponse } from "~/server/http/photo-answer.server";
import { requireOperator } from "~/server/http/guards.server";

// /admin/orders/:number/photo — an order's delivery photo for the operators (decision 047): any
// operator but a rider, and the rider who carried the order; another rider gets 403. Under /admin
// because the operator's cookie is scoped there. Shared caches never keep it.
export async function loader({ request, params }: LoaderFunctionArgs) {
  // Like every /admin URL: anyone without an operator session goes to the operator login.
  const operator = await requireOperator(request);
  const photo = await readDeliveryPhoto({ kind: "operator", operator }, params.number ?? "");
  return photoResponse(photo);
}
