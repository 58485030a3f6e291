import { ErrorScreen } from "~/components/ErrorScreen";
import { errors as errorsMessages } from "~/lib/messages/errors";
import type { RouteHandle } from "~/root";

const msg = { errors: errorsMessages };

// Any URL no other route claims: a real 404 status with the app's own page.
/** No interaction: the page ships no JavaScript (root.tsx, decision 027). */
export const handle: RouteHandle = { hydrate: false };

export const loader = () => {
  throw new Response("Not Found", { status: 404 });
};

export default function NotFound() {
  return <ErrorScreen title={msg.errors.notFoundTitle} body={msg.errors.notFoundBody} code={404} />;
}

export function ErrorBoundary() {
  return <NotFound />;
}
