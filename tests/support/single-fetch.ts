// Data requests as the page's JavaScript sends them with Remix's single fetch (decision 027): the
// page's path plus `.data` (`/_root.data` for `/`), answered in turbo-stream, Remix's own encoding
// (turbo-stream is what @remix-run/server-runtime and @remix-run/react use to encode and decode).
import { decode } from "turbo-stream";

/** `/post/12/comment` → `/post/12/comment.data`, `/` → `/_root.data`; the query is kept. */
export function dataPath(path: string): string {
  const [pathname, query] = path.split("?") as [string, string | undefined];
  const page = pathname === "/" ? "/_root" : pathname.replace(/\/$/, "");
  return `${page}.data${query !== undefined ? `?${query}` : ""}`;
}

/** A redirect as single fetch carries it (status 202, the target inside the body). */
export type DataRedirect = { redirect: string; status: number; revalidate?: boolean; reload?: boolean; replace?: boolean };
/** An error a loader or action threw (a Response: its status and body). */
export type DataError = { status: number; statusText?: string; data: unknown };

/** The decoded body of a `.data` answer, as Remix's client sees it. */
export async function decodeData(body: string): Promise<unknown> {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(body));
      controller.close();
    },
  });
  const decoded = await decode(stream, {
    plugins: [
      (type: string, ...rest: unknown[]) => {
        if (type === "SanitizedError") return { value: new Error(String(rest[1])) };
        if (type === "ErrorResponse") return { value: { status: Number(rest[1]), statusText: rest[2] as string | undefined, data: rest[0] } satisfies DataError };
        if (type === "SingleFetchRedirect") return { value: { "(redirect)": rest[0] } };
        return undefined;
      },
      (type: string, value: unknown) => (type === "SingleFetchFallback" ? { value: undefined } : type === "SingleFetchClassInstance" ? { value } : undefined),
    ],
  });
  await decoded.done;
  return decoded.value;
}

/** An action's `.data` answer: its data, the error it threw, or where it redirects. */
export async function actionAnswer<T = unknown>(body: string): Promise<{ data?: T; error?: DataError; redirect?: DataRedirect }> {
  const value = (await decodeData(body)) as Record<string, unknown>;
  if ("redirect" in value) return { redirect: value as unknown as DataRedirect };
  if ("error" in value) return { error: value.error as DataError };
  return { data: value.data as T };
}

/** A GET `.data` answer: each loader's data or error by route id, or the redirect. */
export async function loaderAnswers(body: string): Promise<{ routes: Record<string, { data?: unknown; error?: DataError }>; redirect?: DataRedirect }> {
  const value = (await decodeData(body)) as Record<string, unknown>;
  const redirect = value["(redirect)"] as DataRedirect | undefined;
  if (redirect) return { routes: {}, redirect };
  return { routes: value as Record<string, { data?: unknown; error?: DataError }> };
}
