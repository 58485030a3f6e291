// /same-data/:key: the captured page of /same-dom/:key, and with it the loader data the app's
// page carried (captured by `npm run bench` from the page's single-fetch .data answer), returned
// by this loader so that Remix encodes it into the page as it does for the app. The difference
// between the app's page and this one is the app's work before its data is ready (the pipeline,
// the session, the queries) and rendering its own components instead of parsed elements.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { capturedBody, capturedData } from "../lib/same-dom.server";

export const meta = () => [{ title: "reference same DOM and data" }];

export async function loader({ params }: LoaderFunctionArgs) {
  const key = params.key ?? "";
  const data = capturedData(key);
  if (capturedBody(key) === undefined || data === undefined) throw new Response("no such captured page", { status: 404 });
  return { key, data };
}

export default function SameData() {
  const { key } = useLoaderData<typeof loader>();
  return <>{typeof document === "undefined" ? capturedBody(key) : null}</>;
}
