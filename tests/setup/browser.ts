// A browser for db tests that call our loaders in turn: it keeps the cookies they set, drops the
// ones they clear (Max-Age=0 or an empty value), and sends them back with each request.
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
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  request(path: string, init: RequestInit = {}) {
    const headers = new Headers({ ...this.headers, ...Object.fromEntries(new Headers(init.headers)) });
    if (!headers.has("Accept")) headers.set("Accept", "text/html,application/xhtml+xml");
    return request(path, { ...init, headers, cookie: this.header() || undefined });
  }

  async call(loader: Loader, path: string, init: RequestInit = {}) {
    const response = await settle(loader({ request: this.request(path, init), params: {}, context: {} }));
    for (const setCookie of response.headers.getSetCookie()) {
      const [pair] = setCookie.split(";");
      const index = pair!.indexOf("=");
      const name = pair!.slice(0, index);
      if (/max-age=0\b/i.test(setCookie) || pair!.slice(index + 1) === "") this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(index + 1));
    }
    return response;
  }
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
