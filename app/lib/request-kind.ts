// What kind of request reached the server (decision 027). With Remix's single fetch
// (future.v3_singleFetch) the page's JavaScript asks for a page's data at the page's path plus
// `.data` (`/_root.data` for `/`), with `?_routes=` naming the loaders it wants and `?index` for
// an index route. Code that runs before Remix (the access guard, body limits, rate limits) sees
// that URL and must treat it as the page it stands for; nothing decides an action's answer by it
// (actions answer every caller alike: data to stay, a redirect to move on).

const DATA_SUFFIX = ".data";
/**
 * Query parameters single fetch adds to a data request (and the old `?_data` of Remix v2), and the
 * `?index` that points a request (a form's too) at an index route: none names a page.
 */
const DATA_PARAMS = ["_routes", "_data", "index"] as const;

function pathOf(url: string | URL): string {
  if (typeof url !== "string") return url.pathname;
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  // An absolute URL: keep the path only.
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  return scheme ? path.slice(scheme[0].length) || "/" : path;
}

/** True for a single-fetch data request (`/post/12.data`, `/_root.data`). */
export function isDataRequest(url: string | URL): boolean {
  return pathOf(url).endsWith(DATA_SUFFIX);
}

/** The page path a request is for: `/post/12.data` → `/post/12`, `/_root.data` → `/`; others unchanged. */
export function pagePath(pathname: string): string {
  if (!pathname.endsWith(DATA_SUFFIX)) return pathname;
  const path = pathname.slice(0, -DATA_SUFFIX.length);
  return path === "/_root" || path === "" ? "/" : path;
}

/**
 * Removes single fetch's `_routes`, `index` (and any old `_data`) from a query: a loader's
 * request.url keeps them (Remix strips only the `.data` suffix), and a return address must not
 * carry them.
 */
export function deleteDataParams(params: URLSearchParams): URLSearchParams {
  for (const name of DATA_PARAMS) params.delete(name);
  return params;
}

/** True when a query carries any of the parameters deleteDataParams removes. */
export function hasDataParams(params: URLSearchParams): boolean {
  return DATA_PARAMS.some((name) => params.has(name));
}

/** The page URL a request is for: the path as pagePath, without the data-request parameters. */
export function pageUrl(url: string | URL): URL {
  const page = new URL(url.toString(), "http://localhost");
  page.pathname = pagePath(page.pathname);
  deleteDataParams(page.searchParams);
  return page;
}

/** The page's search string (`?a=1`, or "") without the data-request parameters. */
export function pageSearch(url: string | URL): string {
  const search = pageUrl(url).searchParams.toString();
  return search ? `?${search}` : "";
}
