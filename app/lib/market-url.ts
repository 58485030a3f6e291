// The market page's URL state: the tab and the open panel (sheet) live in the query string, so
// every dialog is a link that works without JavaScript and survives a reload.

import { MARKET_TABS, type MarketTab } from "./market-links";

export { MARKET_TABS, type MarketTab };

// Panels that are their own routes (their code loads only when they open) and read-only panels
// the layout renders from the server as a query parameter.
export const ROUTE_SHEETS = ["confirm", "address", "address-form", "edit", "add"] as const;
export const STATIC_SHEETS = ["size", "notice", "contact", "tip", "ordering"] as const;
export const MARKET_SHEETS = [...ROUTE_SHEETS, ...STATIC_SHEETS] as const;
export type MarketSheet = (typeof MARKET_SHEETS)[number];
export type StaticSheet = (typeof STATIC_SHEETS)[number];

export function parseTab(value: string | null): MarketTab {
  return (MARKET_TABS as readonly string[]).includes(value ?? "") ? (value as MarketTab) : "express";
}

export function parseStaticSheet(value: string | null): StaticSheet | null {
  return (STATIC_SHEETS as readonly string[]).includes(value ?? "") ? (value as StaticSheet) : null;
}

export type MarketLocation = { tab?: MarketTab; sheet?: MarketSheet | null; entry?: string; type?: string; address?: number | string; base?: string };

/**
 * Where a market panel lives: /market/checkout (the order-confirm sheet), /market/address (the
 * picker), /market/address/new and /market/address/:id (the form), /market/parcel/new and
 * /market/parcel/:id (add or edit a parcel); the read-only panels are ?sheet=… over `base`
 * (the page they open from, /market by default).
 */
export function marketHref(location: MarketLocation = {}) {
  const params = new URLSearchParams();
  if (location.tab && location.tab !== "express") params.set("tab", location.tab);
  let path = location.base ?? "/market";
  switch (location.sheet) {
    case "confirm":
      path = "/market/checkout";
      break;
    case "address":
      path = "/market/address";
      break;
    case "address-form":
      path = `/market/address/${location.address ?? "new"}`;
      break;
    case "edit":
      path = `/market/parcel/${encodeURIComponent(location.entry ?? "")}`;
      break;
    case "add":
      path = "/market/parcel/new";
      break;
    case null:
    case undefined:
      break;
    default:
      params.set("sheet", location.sheet);
      if (location.type) params.set("type", location.type);
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
