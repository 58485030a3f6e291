import { createContext, useContext } from "react";

// The per-request CSP nonce, provided by entry.server around <RemixServer>. In the browser it
// is undefined, which is fine: scripts are only rendered into the first HTML.
const NonceContext = createContext<string | undefined>(undefined);
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
