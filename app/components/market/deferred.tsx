import { lazy, memo, Suspense, type ComponentType } from "react";
import * as onServer from "./deferred-parts.server";

// Rarely shown parts of the market (the campus selector, the ?sheet= info panels, the assist
// dialog) kept out of every market route's first-visit JavaScript (docs/decisions/023).
// `entry.server` renders with renderToString, which draws a Suspense fallback for anything lazy,
// so the server does not use the lazy component: it renders the real one from
// ./deferred-parts.server (empty in the browser) inside the same Suspense boundary. In the browser
// the lazy component suspends while hydrating; React 18 keeps the server's HTML of that boundary
// (it stays usable without JS: links and forms) and hydrates it once the chunk has arrived.
// A part opened later (a client navigation) is fetched then, and shows when it has loaded.
// Their props must be loader data (stable objects), not objects built while rendering.
const server = onServer as Partial<typeof onServer>;

function deferred<Props extends object>(name: keyof typeof onServer, load: () => Promise<ComponentType<Props>>) {
  // When the server drew the part into this page, its chunk is fetched as soon as this module runs
  // (before hydration), so it is usually there when React reaches the boundary.
  const early = typeof document !== "undefined" && document.querySelector(`template[data-deferred="${name}"]`) ? load() : null;
  const Lazy = lazy(async () => ({ default: await (early ?? load()) }));
  function Deferred(props: Props) {
    // The props are checked at the call (Props); the part itself is one of two equal components.
    const Part = (server[name] ?? Lazy) as unknown as ComponentType<object>;
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
