// Code that the server's HTML already shows but the page's bundle left out (market/deferred.tsx)
// registers its loading here; entry.client hydrates once it has arrived, so React meets the real
// component, never a suspended one, at hydration (no error 421, no blink). Pages without such a
// part hydrate at once.
const pending: Promise<unknown>[] = [];

export function awaitBeforeHydration(loading: Promise<unknown>) {
  pending.push(loading.catch(() => undefined));
}

export function readyToHydrate(): Promise<unknown> {
  return Promise.all(pending);
}
