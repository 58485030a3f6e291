// GET /share-card/<key>.jpg: the picture of a post's share card, the thumbnail of its first image
// while the post is visible. Public (the messenger's servers fetch it without a cookie); every
// other uploaded image needs a session or a signature (/uploads/<file>).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { shareThumbnail } from "~/server/storage/upload-access.server";

export async function loader({ params }: LoaderFunctionArgs) {
  const found = await shareThumbnail(params.file ?? "");
  if (!found.ok) return new Response("Not Found", { status: 404, headers: { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" } });
  return new Response(new Uint8Array(found.data), {
    headers: {
      "Content-Type": found.contentType,
      "Content-Length": String(found.data.length),
      "Cache-Control": "public, max-age=86400",
    },
  });
}
