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

// opentype.js 0.7 ships no types; the captcha (captcha-image.server.ts) uses loadSync only and
// types the font it returns itself.
declare module "opentype.js" {
  const opentype: { loadSync(path: string): unknown };
  export default opentype;
}
