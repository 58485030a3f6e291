import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { readyToHydrate } from "~/components/deferred-ready";

// Route modules are imported before this runs; a part they left out of the bundle but the server
// drew is awaited first (components/deferred-ready.ts). Nothing to wait for on most pages.
void readyToHydrate().then(() =>
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  }),
);
