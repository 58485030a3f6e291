/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single fetch (decision 027): useLoaderData/useActionData infer what loaders and actions return
// as turbo-stream carries it (Dates stay Dates), not the JSON-serialized shape.
import "@remix-run/node";
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}
