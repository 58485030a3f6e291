// /orders: the student's orders, newest first, `?page=n` shows the first n × 10.
import { listOrders, ORDERS_PAGE_SIZE } from "~/server/orders/orders.server";
import { requireStudent } from "~/server/http/guards.server";

/** 'More' stops here: 20 pages (200 orders); older ones are rare. */
const MAX_PAGES = 20;

export async function ordersListLoader(request: Request) {
  const user = await requireStudent(request);
  const page = Math.min(MAX_PAGES, Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1));
  const { items, next } = await listOrders(user.id, { limit: page * ORDERS_PAGE_SIZE });
  return { items, page, more: next !== null };
}
