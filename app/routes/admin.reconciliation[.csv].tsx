// GET /admin/reconciliation.csv?day= — the day's reconciliation as CSV (UTF-8 with a byte order
// mark, CRLF): every payment and refund of the day, every order paid that day with where its money
// is now, and the differences with the provider's trade bill. Operators only; audited.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { CSV_BOM, csvLine } from "~/lib/admin-orders";
import { adminReconciliation } from "~/lib/messages/adminReconciliation";
import { formatYuan } from "~/lib/money";
import { ReconciliationQuerySchema } from "~/lib/schemas/adminReconciliation";
import { fillTemplate } from "~/lib/template";
import { formatShanghai, shanghaiToday } from "~/lib/time";
import { recordAudit } from "~/server/admin/audit.server";
import { db } from "~/server/db/db.server";
import { reconcileDay } from "~/server/orders/reconciliation.server";
import { requireAdmin } from "~/server/http/guards.server";

const m = adminReconciliation;
const c = m.csv;
const yuan = (fen: number | null) => (fen === null ? "" : formatYuan(fen, { style: "amount" }));

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const query = ReconciliationQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const day = query.day ?? shanghaiToday();
  const books = await reconcileDay(day);
  let body = CSV_BOM;
  body += csvLine([c.section, c.number, c.refundNumber, c.transaction, c.time, c.amount, c.detail]);
  for (const entry of books.payments) body += csvLine([m.payments, entry.outTradeNo, "", entry.transactionId, formatShanghai(entry.at), yuan(entry.fen), ""]);
  for (const entry of books.refunds) {
    body += csvLine([m.refunds, entry.outTradeNo, entry.outRefundNo, entry.refundId, formatShanghai(entry.at), yuan(entry.fen), [m.refundKinds[entry.refundKind], entry.reason].filter(Boolean).join("：")]);
  }
  body += "\r\n";
  body += csvLine([m.ordersList, c.number, c.campus, c.received, c.refunded, c.earned, c.heldCol]);
  for (const order of books.orders) body += csvLine(["", order.orderNumber, order.campusName, yuan(order.receivedFen), yuan(order.refundedFen), yuan(order.earnedFen), yuan(order.heldFen)]);
  body += "\r\n";
  body += csvLine([c.difference, c.number, c.detail, m.ours, m.bill]);
  for (const difference of books.differences) body += csvLine([m.kinds[difference.kind], difference.key, m.problems[difference.problem], yuan(difference.oursFen), yuan(difference.billFen)]);
  await recordAudit(db(), operator, { action: "export", detail: fillTemplate(c.fileDetail, { day }) });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="reconciliation-${day}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
