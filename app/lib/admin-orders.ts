// Rules of the operators' order pages that need no I/O: the page size, the list's URL (tab,
// campus, search, page, the open panel), how a search term is read, and the CSV export's cells.
// Safe in the browser; the status groups, labels and allowed actions are never restated here —
// they come from the one status table (app/lib/order-status.ts) on the server.
import type { OrderGroup } from "./order-status";
import { ORDER_NUMBER_PATTERN } from "./order-limits";
import { compactShanghai } from "./time";

/** Product rules: the admin order page lists 10 orders per page. */
export const ADMIN_PAGE_SIZE = 10;
/** 'Load more' shows the first page × 10 orders; beyond this the search is the better tool. */
export const ADMIN_MAX_PAGES = 50;
/** Pickup codes, stations and phone tails are searched among the orders of the last days only (stations reuse codes). */
export const PICKUP_SEARCH_DAYS = 30;
/** A search never returns more orders than this (the list pages through them). */
export const SEARCH_MAX_MATCHES = 500;
/** The CSV export's limit per file (narrow the filter for more). */
export const EXPORT_MAX_ROWS = 5000;
export const AUDIT_PAGE_SIZE = 20;
export const SEARCH_MAX = 64;

/** The courier's finer steps, in order (the table's `next` says which apply to an order). */
export const COURIER_STEPS = ["assigned", "picking", "delivering"] as const;
export type CourierStep = (typeof COURIER_STEPS)[number];

export type AdminPanel = "actions" | "cancel" | "fail" | "delete";

/** What the list's URL holds. `group` null: all orders. */
export type AdminListState = {
  group: OrderGroup | null;
  campus: string | null;
  /** A delivery slot: the promised instant (ISO), as orders.estimated_delivery_at holds it. */
  slot?: string | null;
  q: string;
  page: number;
};

/** The list's query string for a state (defaults left out), with an order's panel when given. */
export function adminListQuery(state: AdminListState, panel?: { order: string; panel: AdminPanel } | null) {
  const params = new URLSearchParams();
  if (state.group) params.set("status", state.group);
  if (state.campus) params.set("campus", state.campus);
  if (state.slot) params.set("slot", state.slot);
  if (state.q) params.set("q", state.q);
  if (state.page > 1) params.set("page", String(state.page));
  if (panel) {
    params.set("order", panel.order);
    if (panel.panel !== "actions") params.set("panel", panel.panel);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

export type SearchTerm = {
  /** As typed, trimmed, inner spaces collapsed. */
  text: string;
  /** An order number in upper case, when the text can be one. */
  orderNumber: string | null;
  /** The digits of a phone number (spaces and dashes dropped), when the text is one. */
  phone: string | null;
  /** Four digits: the phone's last four (among the recent orders, as pickup codes are). */
  phoneTail: string | null;
  /** A pickup code, tracking number or station (part of one) is searched when the text has at least 2 characters. */
  pickup: string | null;
};

/** How a search box entry is matched: order number, recipient name, phone (or its last four), pickup code or station. */
export function readSearch(input: string): SearchTerm | null {
  const text = input.normalize("NFKC").trim().replace(/\s+/g, " ").slice(0, SEARCH_MAX);
  if (!text) return null;
  const upper = text.toUpperCase();
  const digits = text.replace(/[\s-]/g, "");
  return {
    text,
    orderNumber: ORDER_NUMBER_PATTERN.test(upper) ? upper : null,
    phone: /^\+?\d{5,15}$/.test(digits) ? digits.replace(/^\+86/, "") : null,
    phoneTail: /^\d{4}$/.test(digits) ? digits : null,
    pickup: text.length >= 2 ? text : null,
  };
}

/** UTF-8 byte order mark: spreadsheet programs then read the Chinese text as UTF-8. */
export const CSV_BOM = "\uFEFF";

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. A text that a
 * spreadsheet would run as a formula (=, +, -, @, tab, CR at the start) gets a leading
 * apostrophe, so a recipient name like '=HYPERLINK(…)' stays text.
 */
export function csvCell(value: string | number | null | undefined) {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: (string | number | null | undefined)[]) {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** 'orders-20260302-1405.csv' in Shanghai time. */
export function exportFileName(at: Date) {
  return `orders-${compactShanghai(at)}.csv`;
}
