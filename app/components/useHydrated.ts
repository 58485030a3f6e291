import { useEffect, useState } from "react";

/**
 * False in the server's HTML and until React runs in the browser: a control that needs
 * JavaScript (copy a link, show the password) is left out until it can work.
 */
export function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
