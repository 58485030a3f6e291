// The few market links the page's own script needs (the full URL scheme is ./market-url.ts,
// used by the server and the panel routes), so the page does not carry all of it.

export const MARKET_TABS = ["express", "online", "errand"] as const;
export type MarketTab = (typeof MARKET_TABS)[number];

export const ADD_PARCEL_HREF = "/market/parcel/new";

export const tabHref = (tab: MarketTab) => (tab === "express" ? "/market" : `/market?tab=${tab}`);
