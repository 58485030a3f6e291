import type { LoaderFunctionArgs } from "@remix-run/node";
import { log } from "~/server/log.server";
import { fileStorage, IMMUTABLE_CACHE } from "~/server/storage/storage.server";

// Uploaded images: /uploads/<key>.jpg and /uploads/<key>.t.jpg. Files never change under a
// name (a new upload gets a new random key), so browsers and proxies may keep them for a year.
// With a public bucket address (UPLOADS_PUBLIC_BASE_URL) the browser is sent there, for good;
// with UPLOADS_S3_SIGNED_URLS to a presigned address of the private bucket; otherwise the app
// serves the file from its storage (a folder or a private bucket).
const NAME = /^[A-Za-z0-9_-]{22}(\.t)?\.jpg$/;

export async function loader({ params }: LoaderFunctionArgs) {
  const name = params.file ?? "";
  if (!NAME.test(name)) throw new Response("Not Found", { status: 404 });
  const storage = fileStorage();
  const elsewhere = storage.publicUrl(name);
  if (elsewhere?.permanent) return new Response(null, { status: 301, headers: { Location: elsewhere.url, "Cache-Control": IMMUTABLE_CACHE } });
  // A presigned address is the same for the hour it was signed in and lives two: the browser may
  // keep this redirect half an hour, and the image itself (its own cache header) as long as it likes.
  if (elsewhere) return new Response(null, { status: 302, headers: { Location: elsewhere.url, "Cache-Control": "private, max-age=1800" } });
  let file: Awaited<ReturnType<typeof storage.get>>;
  try {
    file = await storage.get(name);
  } catch (error) {
    // The store is unreachable: a short, uncached 503 the browser may retry, not an error page.
    log("error", "upload-read", { storage: storage.kind, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
    return new Response("Service Unavailable", { status: 503, headers: { "Retry-After": "5", "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" } });
  }
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(new Uint8Array(file.data), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(file.data.length),
      "Cache-Control": IMMUTABLE_CACHE,
    },
  });
}
