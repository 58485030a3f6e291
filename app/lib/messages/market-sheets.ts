// The labels of the market's panel routes (order-confirm sheet, address picker and form, parcel
// dialog), one module each so a panel loads only its own; together here for the server's answers.
import { addressSheet } from "./market-sheet-address";
import { checkoutSheet } from "./market-sheet-checkout";
import { entrySheet, parcelSheet } from "./market-sheet-parcel";

export const marketSheets = { checkout: checkoutSheet, address: addressSheet, parcel: parcelSheet, entry: entrySheet } as const;
