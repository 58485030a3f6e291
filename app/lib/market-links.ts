// The few market links the page's own script needs (the full URL scheme is ./market-url.ts,
// used by the server and the panel routes), so the page does not carry all of it.

export const MARKET_TABS = ["express", "online", "errand"] as const;
export type MarketTab = (typeof MARKET_TABS)[number];

export const ADD_PARCEL_HREF = "/market/parcel/new";

export const tabHref = (tab: MarketTab) => (tab === "express" ? "/market" : `/market?tab=${tab}`);

// Where each form posts: the route that holds its intents (docs/decisions/023).
/** The page's own intents (recognize, add-entries, delete-entry, the upload, the other tabs' forms). */
export const MARKET_ACTION = "/market?index";
/** The order-confirm sheet's intents (open-checkout, count, remark, pay). */
export const CHECKOUT_ACTION = "/market/checkout";
/** The address picker's intents (select-address, delete-address, default-address). */
export const ADDRESS_PICKER_ACTION = "/market/address";
