// /same-dom/:key: one of the app's pages as captured by `npm run bench`, rendered as React
// elements (lib/same-dom.server.ts). The loader only names the page: the app's loader data and
// its encoding are the app's own work, which this page leaves out on purpose.
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { capturedBody } from "../lib/same-dom.server";

export const meta = () => [{ title: "reference same DOM" }];

export async function loader({ params }: LoaderFunctionArgs) {
  const key = params.key ?? "";
  if (capturedBody(key) === undefined) throw new Response("no such captured page", { status: 404 });
  return json({ key });
}

export default function SameDom() {
  const { key } = useLoaderData<typeof loader>();
  return <>{typeof document === "undefined" ? capturedBody(key) : null}</>;
}
