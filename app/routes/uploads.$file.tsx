import type { LoaderFunctionArgs } from "@remix-run/node";
import { fileStorage, IMMUTABLE_CACHE } from "~/server/storage/storage.server";

// Uploaded images: /uploads/<key>.jpg and /uploads/<key>.t.jpg. Files never change under a
// name (a new upload gets a new random key), so browsers and proxies may keep them for a year.
// With a public bucket address (UPLOADS_PUBLIC_BASE_URL) the browser is sent there, for good;
// otherwise the app serves the file from its storage (a folder or a private bucket).
const NAME = /^[A-Za-z0-9_-]{22}(\.t)?\.jpg$/;

export async function loader({ params }: LoaderFunctionArgs) {
  const name = params.file ?? "";
  if (!NAME.test(name)) throw new Response("Not Found", { status: 404 });
  const storage = fileStorage();
  const publicUrl = storage.publicUrl(name);
  if (publicUrl) return new Response(null, { status: 301, headers: { Location: publicUrl, "Cache-Control": IMMUTABLE_CACHE } });
  const file = await storage.get(name);
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "Cache-Control": IMMUTABLE_CACHE,
    },
  });
}
