import { lazy, memo, Suspense, type ComponentType } from "react";
import { awaitBeforeHydration } from "~/components/deferred-ready";
import * as onServer from "./deferred-parts.server";

// Rarely shown parts of the market (the campus selector, the ?sheet= info panels, the assist
// dialog) kept out of every market route's first-visit JavaScript (docs/decisions/023).
// The server renders the real component from ./deferred-parts.server (empty in the browser). In
// the browser, a part the server drew into this page has its chunk fetched as soon as this module
// runs and entry.client hydrates after it has arrived (components/deferred-ready.ts), so hydration
// meets the real component. A part opened later (a client navigation) is fetched then (React.lazy)
// and shows when it has loaded. Their props must be loader data (stable objects).
const server = onServer as Partial<typeof onServer>;

function deferred<Props extends object>(name: keyof typeof onServer, load: () => Promise<ComponentType<Props>>) {
  // When the server drew the part into this page, its chunk is fetched now and hydration waits for it.
  let loaded: ComponentType<Props> | null = null;
  const early = typeof document !== "undefined" && document.querySelector(`template[data-deferred="${name}"]`) ? load() : null;
  if (early) awaitBeforeHydration(early.then((component) => (loaded = component)));
  const Lazy = lazy(async () => ({ default: await (early ?? load()) }));
  function Deferred(props: Props) {
    // The props are checked at the call (Props); the part itself is one of two equal components.
    const Part = (server[name] ?? loaded ?? Lazy) as unknown as ComponentType<object>;
    return (
      <>
        <template hidden data-deferred={name} />
        <Suspense fallback={null}>
          <Part {...props} />
        </Suspense>
      </>
    );
  }
  Deferred.displayName = `Deferred(${name})`;
  // Memoised: a boundary that is still waiting for its chunk must not receive an update (the
  // layout's re-render after hydration, say), or React drops the server's HTML and renders it on
  // the client (error 421). Its props are loader data, the same objects until the data changes.
  return memo(Deferred);
}

export const CampusSelector = deferred("CampusSelector", () => import("~/components/CampusSelector").then((m) => m.CampusSelector));
export const AssistDialog = deferred("AssistDialog", () => import("./AssistDialog").then((m) => m.AssistDialog));
export const InfoPanel = deferred("InfoPanel", () => import("./InfoPanel").then((m) => m.InfoPanel));
