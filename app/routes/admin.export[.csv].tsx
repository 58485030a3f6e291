// GET /admin/export.csv — the orders of /admin/orders' current filter (tab, campus, slot, search)
// as CSV for the operator's accounting, and as a pick list (the promise, each parcel's station,
// carrier, pickup code and tracking number, in the same order per column, joined by "；"; a parcel
// left at the station is not among them): UTF-8 with a byte order mark so spreadsheet programs read the
// Chinese text, CRLF lines, amounts in yuan as numbers, times in Shanghai. Operators only; the
// export itself is written to the audit log (it carries customers' names and phones).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { orderAddress } from "~/lib/address";
import { CSV_BOM, csvLine, exportFileName } from "~/lib/admin-orders";
import { formatYuan } from "~/lib/money";
import { parsePickupCodes } from "~/lib/orders";
import { adminOps } from "~/lib/messages/adminOps";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { orders as ordersMessages } from "~/lib/messages/orders";
import { STATUS_TABLE, groupLabel } from "~/lib/order-status";
import { AdminOrdersQuerySchema } from "~/lib/schemas/adminOrders";
import { fillTemplate } from "~/lib/template";
import { formatShanghai } from "~/lib/time";
import { recordAudit } from "~/server/admin/audit.server";
import { exportOrders } from "~/server/admin/orders.server";
import { db } from "~/server/db/db.server";
import { leftPositions, supplementsOfOrdersQuery } from "~/server/orders/supplements.server";
import { requireAdmin } from "~/server/http/guards.server";

const c = adminOrderData.csv;
const o = ordersMessages;

const ops = adminOps.csv;

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const query = AdminOrdersQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = { group: query.status ?? null, campus: query.campus ?? null, slot: query.slot ?? null, q: query.q ?? "" };
  const rows = await exportOrders(filter);
  let body = CSV_BOM;
  body += csvLine([c.number, c.status, c.group, c.payment, c.refund, c.campus, c.dorm, c.room, c.address, c.recipient, c.phone, ops.promise, ops.station, ops.company, ops.codes, ops.tracking, c.parcels, c.original, c.discount, c.amount, c.remark, c.createdAt, c.paidAt, c.completedAt]);
  // A parcel left at the station (its supplement declined) is not fetched: left out, as on the pick list.
  const left = leftPositions(await supplementsOfOrdersQuery(rows.map((row) => row.id)).execute());
  for (const row of rows) {
    const parcels = parsePickupCodes(row.pickup_codes).filter((_, position) => !left.has(`${row.id}:${position}`));
    const column = (pick: (parcel: (typeof parcels)[number]) => string | null | undefined) => parcels.map((parcel) => pick(parcel) ?? "").join("；");
    body += csvLine([
      row.order_number,
      STATUS_TABLE[row.status].label,
      groupLabel(STATUS_TABLE[row.status].group),
      o.paymentStatus[row.payment_status],
      row.refund_state ? o.refundState[row.refund_state] : "",
      row.campus_name,
      row.recipient_dorm,
      row.recipient_room,
      orderAddress(row),
      row.recipient_name,
      row.recipient_phone,
      formatShanghai(row.estimated_delivery_at),
      column((parcel) => parcel.station),
      column((parcel) => parcel.company),
      column((parcel) => parcel.code),
      column((parcel) => parcel.trackingNumber),
      row.parcel_count,
      formatYuan(row.original_fen, { style: "amount" }),
      formatYuan(row.discount_fen, { style: "amount" }),
      formatYuan(row.amount_fen, { style: "amount" }),
      row.remark,
      formatShanghai(row.created_at),
      row.paid_at ? formatShanghai(row.paid_at) : "",
      row.completed_at ? formatShanghai(row.completed_at) : "",
    ]);
  }
  // The filter, but not the search text: it may be a customer's name or phone, and the audit log
  // outlives the customer's account.
  const filters = [filter.group ? groupLabel(filter.group) : null, filter.campus, filter.q ? c.searched : null].filter(Boolean).join(" ");
  await recordAudit(db(), operator, { action: "export", detail: [fillTemplate(c.exportDetail, { count: rows.length }), filters].filter(Boolean).join(" ") });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName(new Date())}"`,
      "Cache-Control": "no-store",
    },
  });
}
