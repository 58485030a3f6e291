// A browser for tests: it keeps the cookies responses set, drops the ones they clear (Max-Age=0
// or an empty value), and sends them back with each request. CookieBrowser calls our loaders
// in-process; keepCookies and cookieHeader serve a jar that speaks HTTP to a running server.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { request } from "./helpers";

type Loader = (args: LoaderFunctionArgs) => unknown;

export class CookieBrowser {
  cookies = new Map<string, string>();

  /** `cookie`: a `name=value` it starts with; `headers`: sent with every request (a User-Agent). */
  constructor(
    cookie?: string,
    private readonly headers: Record<string, string> = {},
  ) {
    if (cookie) this.add(cookie);
  }

  add(pair: string) {
    const index = pair.indexOf("=");
    this.cookies.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
  }

  header() {
    return cookieHeader(this.cookies);
  }

  request(path: string, init: RequestInit = {}) {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) });
    if (!headers.has("Accept")) headers.set("Accept", "text/html,application/xhtml+xml");
    return request(path, { ...init, headers, cookie: this.header() || undefined });
  }

  async call(loader: Loader, path: string, init: RequestInit = {}) {
    return keepCookies(this.cookies, await settle(loader({ request: this.request(path, init), params: {}, context: {} })));
  }
}

/** The Cookie header of the cookies kept. */
export function cookieHeader(cookies: Map<string, string>) {
  return [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** Keeps what a response's Set-Cookie headers set and drops what they clear; answers the response. */
export function keepCookies(cookies: Map<string, string>, response: Response) {
  for (const setCookie of response.headers.getSetCookie()) {
    const [pair] = setCookie.split(";");
    const index = pair!.indexOf("=");
    const name = pair!.slice(0, index);
    if (/max-age=0\b/i.test(setCookie) || pair!.slice(index + 1) === "") cookies.delete(name);
    else cookies.set(name, pair!.slice(index + 1));
  }
  return response;
}

/** A loader's or guard's answer, whether it was returned or thrown. */
export async function settle(value: unknown): Promise<Response> {
  try {
    const answer = await value;
    if (answer instanceof Response) return answer;
    throw new Error("expected a Response");
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}
