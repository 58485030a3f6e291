// The answer of a delivery photo's address (the student's and the operators'): the picture, kept
// a while by the browser and never by a shared cache, or the refusal as plain text.
import type { readDeliveryPhoto } from "~/server/storage/delivery-photos.server";

export const REFUSED = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };

export function photoResponse(photo: Awaited<ReturnType<typeof readDeliveryPhoto>>) {
  if (photo.ok) return new Response(new Uint8Array(photo.data), { headers: { "Content-Type": photo.contentType, "Content-Length": String(photo.data.length), "Cache-Control": "private, max-age=3600" } });
  if (photo.reason === "unavailable") return new Response("Service Unavailable", { status: 503, headers: { ...REFUSED, "Retry-After": "5" } });
  if (photo.reason === "forbidden") return new Response("Forbidden", { status: 403, headers: REFUSED });
  return new Response("Not Found", { status: 404, headers: REFUSED });
}
