import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { log } from "./server/log.server";

// The server (server.mjs) reaches these through build.entry.module.
export { accessRedirect, rejectCrossSite } from "./server/auth/guard.server";
export { securityHeaders } from "./server/security.server";
export { BodyScanner, bodyRule, checkUrl, declaredTooLarge } from "./lib/request-limits";
export { isDataRequest, pagePath } from "./lib/request-kind";
export { refusalAnswer, refusalResponse } from "./server/request-bounds.server";
export { shutdown, startup } from "./server/startup.server";
export { operatorCli } from "./server/cli/operator-cli.server";
export { log };
export { requestIdFrom, runWithRequestContext } from "./server/log.server";
export { metricsText, observeRequest } from "./server/metrics.server";

// Single fetch (decision 027) hands the loader data to the page through a stream that React
// renders with Suspense, which renderToString cannot wait for. The page is rendered with
// renderToPipeableStream and sent once everything is ready (onAllReady): the app defers no data,
// so waiting costs nothing, the status code stays exact, and the page goes out as one buffer.
// Collecting raw bytes (never decoding chunk by chunk) keeps multi-byte Chinese text whole.
/** How long a page may wait for its streamed data (single fetch reads this export). */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.nonce === "string" ? loadContext.nonce : undefined;
  return new Promise<Response>((resolve, reject) => {
    let failed = false;
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        // A copy: the renderer may reuse the memory of a chunk it has handed over.
        chunks.push(Buffer.from(chunk));
        done();
      },
      final(done) {
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat([DOCTYPE, ...chunks]), { headers: responseHeaders, status: failed ? 500 : responseStatusCode }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} abortDelay={streamTimeout} />
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          clearTimeout(timer);
          pipe(sink);
        },
        onShellError(error) {
          clearTimeout(timer);
          reject(error);
        },
        onError(error) {
          failed = true;
          if (!request.signal.aborted) log("error", "render", { path: new URL(request.url).pathname, error: error instanceof Error ? error.stack : String(error) });
        },
      },
    );
    // Past the timeout React gives up on what is still pending (rendered as its fallback).
    const timer = setTimeout(abort, streamTimeout + 1_000);
  });
}

const DOCTYPE = Buffer.from("<!DOCTYPE html>");

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log("error", "loader-or-action", {
    path: new URL(request.url).pathname,
    error: error instanceof Error ? error.stack : String(error),
  });
}
