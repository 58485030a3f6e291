import { decideAccess } from "~/lib/access";
import { isMessengerBrowser } from "~/lib/browser";
import { requestReturnPath } from "~/lib/redirect";
import { pageSearch, pageUrl } from "~/lib/request-kind";
import { config } from "../config.server";
import { hasStudentAccount, loginReasonOf, lookupSession, silentResumePath } from "./session.server";

/** What the router knows of the request's route (app/server/http/routes.ts). */
export type GuardedRoute = { exists?: boolean; keepsDraft?: boolean };

/**
 * The access table applied to a request: null to let it through, or where to send it.
 * The server runs it before Remix for every request; protected loaders also call requireStudent
 * (app/server/http/guards.server.ts).
 */
export async function accessRedirect(request: Request, route: GuardedRoute = {}): Promise<string | null> {
  // An unknown path gets the 404 page, logged in or not: the login page would only mislead.
  if (route.exists === false) return null;
  // A single-fetch data request (/schedule.data?_routes=…) is judged as the page it is for.
  const url = pageUrl(request.url);
  // A form whose route keeps drafts (handle.keepsDraft) checks the session itself, so that a form
  // sent after the session ended keeps its text for after the login on the way there.
  if (request.method === "POST" && route.keepsDraft) return null;
  const lookup = await lookupSession(request);
  const decision = decideAccess({
    pathname: url.pathname,
    search: pageSearch(url),
    hasStudent: lookup.state === "active" && hasStudentAccount(lookup.user),
    isMessenger: isMessengerBrowser(request.headers.get("User-Agent")),
    // ALLOW_ANY_BROWSER defaults to true outside production; set to false it applies there too.
    messengerOnly: !config().allowAnyBrowser,
  });
  if (decision.kind === "allow") return null;
  if (decision.reason === "login-required" && lookup.state === "ended") {
    const resume = await silentResumePath(request, lookup, requestReturnPath(request.url));
    if (resume) return resume;
    const reason = loginReasonOf(lookup);
    if (reason) return `${decision.location}${decision.location.includes("?") ? "&" : "?"}reason=${reason}`;
  }
  return decision.location;
}
