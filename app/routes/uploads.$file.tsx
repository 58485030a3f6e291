import type { LoaderFunctionArgs } from "@remix-run/node";
import { log } from "~/server/log.server";
import { PRIVATE_UPLOAD_CACHE, uploadAccess } from "~/server/storage/upload-access.server";
import { fileStorage } from "~/server/storage/storage.server";

// Uploaded images: /uploads/<key>.jpg and /uploads/<key>.t.jpg, for signed-in students and
// operators, or with an unexpired signature (?e=…&s=…); anyone else gets 401 (403 for a bad or
// expired signature). Browsers may keep an image a while, shared caches never (private).
// With a public bucket address (UPLOADS_PUBLIC_BASE_URL) the browser is sent there, for good;
// with UPLOADS_S3_SIGNED_URLS to a presigned address of the private bucket; otherwise the app
// serves the file from its storage (a folder or a private bucket).
const NAME = /^[A-Za-z0-9_-]{22}(\.t)?\.jpg$/;
const REFUSED = { "Cache-Control": "no-store", "Content-Type": "text/plain; charset=utf-8" };

export async function loader({ params, request }: LoaderFunctionArgs) {
  const name = params.file ?? "";
  if (!NAME.test(name)) throw new Response("Not Found", { status: 404 });
  const access = await uploadAccess(request, name);
  if (!access.ok) {
    const status = access.reason === "no_credentials" ? 401 : 403;
    return new Response(status === 401 ? "Unauthorized" : "Forbidden", { status, headers: REFUSED });
  }
  // A signed address may be kept until it expires; a session's read for an hour.
  const cache = access.via === "signature" ? `private, max-age=${Math.max(0, access.expiresAt - Math.floor(Date.now() / 1000))}` : PRIVATE_UPLOAD_CACHE;
  const storage = fileStorage();
  const elsewhere = storage.publicUrl(name);
  // The bucket itself is public then (the operator chose it): the redirect stays out of shared caches.
  if (elsewhere?.permanent) return new Response(null, { status: 301, headers: { Location: elsewhere.url, "Cache-Control": PRIVATE_UPLOAD_CACHE } });
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
      "Cache-Control": cache,
    },
  });
}
