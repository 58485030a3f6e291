import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "./components/nonce";
import { log } from "./server/log.server";

// The server (server.mjs) reaches these through build.entry.module.
export { accessRedirect, rejectCrossSite } from "./server/auth/guard.server";
export { securityHeaders } from "./server/security.server";
export { shutdown, startup } from "./server/startup.server";
export { operatorCli } from "./server/cli/operator-cli.server";
export { log };
export { requestIdFrom, runWithRequestContext } from "./server/log.server";
export { metricsText, observeRequest } from "./server/metrics.server";

// Pages are rendered to a string, not streamed: we use no Suspense or deferred data, and React
// 18's streaming renderer can emit stray NUL bytes around multi-byte (Chinese) text at its
// 2 KB chunk boundaries, which would corrupt the embedded loader data.
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = typeof loadContext.nonce === "string" ? loadContext.nonce : undefined;
  const html = renderToString(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={nonce} />
    </NonceProvider>,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(`<!DOCTYPE html>${html}`, { headers: responseHeaders, status: responseStatusCode });
}

export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  log("error", "loader-or-action", {
    path: new URL(request.url).pathname,
    error: error instanceof Error ? error.stack : String(error),
  });
}
