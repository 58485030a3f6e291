import { readiness } from "~/server/readiness.server";

// GET /readyz: whether this instance can serve (the proxy's and the orchestrator's readiness
// check). 200 {status:"ok"} or 503 naming what failed: the database, the upload storage (a write
// and a delete) or the background jobs. /healthz stays the liveness check (the process answers).
export async function loader() {
  const report = await readiness();
  return Response.json(report, { status: report.status === "ok" ? 200 : 503, headers: { "Cache-Control": "no-store" } });
}
