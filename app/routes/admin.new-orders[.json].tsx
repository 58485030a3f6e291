// GET /admin/new-orders.json?since=<instant> — how many orders were paid since then (the admin
// pages' badge, public/admin-poll.js), and the server's time to ask from next. Without `since`:
// the count is 0 and `now` starts the count. Operators only; read by orders_paid_idx.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { paidSinceCount } from "~/server/admin/orders.server";
import { requireAdmin } from "~/server/http/guards.server";

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const since = new URL(request.url).searchParams.get("since");
  const now = new Date().toISOString();
  const count = since && INSTANT.test(since) ? await paidSinceCount(since) : 0;
  return Response.json({ now, count }, { headers: { "Cache-Control": "no-store" } });
}
