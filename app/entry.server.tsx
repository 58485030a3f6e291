import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { log } from "./server/log.server";

// The server (server.mjs) reaches these through build.entry.module: the typed request pipeline
// (app/server/http), start and shutdown, and the operator command line.
export { createHttpApp } from "./server/http/app";
export { configureServer } from "./server/http/fairness";
export { metricsApp } from "./server/http/metrics";
export { shutdown, startup } from "./server/startup.server";
export { operatorCli } from "./server/cli/operator-cli.server";
export { log };

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
    const sink = pageSink((html) => {
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(html as unknown as BodyInit, { headers: responseHeaders, status: failed ? 500 : responseStatusCode }));
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

/**
 * Where React writes a page: the bytes are collected and handed to `done` once, NUL padding
 * removed. The sink emits no 'close': React's renderer listens for it and answers by ending its
 * destination a second time, which costs a Node error (a captured stack and a formatted message)
 * built and dropped on every page.
 */
export function pageSink(done: (html: Buffer) => void): Writable {
  const chunks: Buffer[] = [];
  return new Writable({
    emitClose: false,
    write(chunk: Buffer, _encoding, next) {
      // A copy: the renderer may reuse the memory of a chunk it has handed over.
      chunks.push(Buffer.from(chunk));
      next();
    },
    final(next) {
      done(withoutPadding(Buffer.concat(chunks)));
      next();
    },
  });
}

/**
 * React 18.3's Node stream renderer pads with NUL bytes: when a multi-byte character does not fit
 * at the end of its 2 KB view, it writes the whole view, unfilled bytes included
 * (writeStringChunk in react-dom-server.node). Every byte of the page is there; the NULs are extra
 * (tests/e2e/identity.spec.ts checks that no page has one). HTML never needs a NUL, so they go.
 */
export function withoutPadding(html: Buffer): Buffer {
  if (html.indexOf(0) === -1) return html;
  const out = Buffer.allocUnsafe(html.length);
  let length = 0;
  for (let start = 0; start < html.length; ) {
    const zero = html.indexOf(0, start);
    const end = zero === -1 ? html.length : zero;
    length += html.copy(out, length, start, end);
    start = end + 1;
  }
  return out.subarray(0, length);
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log("error", "loader-or-action", {
    path: new URL(request.url).pathname,
    error: error instanceof Error ? error.stack : String(error),
  });
}
