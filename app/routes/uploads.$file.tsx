import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileStorage } from "~/server/storage/storage.server";

// Uploaded images: /uploads/<key>.jpg and /uploads/<key>.t.jpg. Files never change under a
// name (a new upload gets a new random key), so browsers and proxies may keep them for a year.
const NAME = /^[A-Za-z0-9_-]{22}(\.t)?\.jpg$/;

export async function loader({ params }: LoaderFunctionArgs) {
  const name = params.file ?? "";
  if (!NAME.test(name)) throw new Response("Not Found", { status: 404 });
  const file = await fileStorage().get(name);
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "Cache-Control": "public, max-age=31536000, immutable",
    },
  });
}
