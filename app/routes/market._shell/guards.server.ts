// The guards of the market's routes (the layout and its panels): each throws the redirect that
// app/server/ never answers itself.
import { redirect, redirectDocument } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { getUser, type User } from "~/server/auth/session.server";
import { checkoutState } from "~/server/market/market-state.server";

/** Where the messenger authorization brings the visitor back: the page they were on. */
export function returnPath(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return url.pathname + url.search;
}

/**
 * The messenger identity that recognition, the checkout and addresses need. Without it the
 * browser goes through the messenger authorization (a full document redirect, also from a fetcher).
 */
export async function requireMarketUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user?.openid) return user;
  throw redirectDocument(messengerAuthPath(returnPath(request)));
}

/**
 * The guard of a route that works on the checkout: the messenger identity, a campus with its
 * config, the checkout itself. A missing campus sends the browser back to /market.
 */
export async function requireCheckout(request: Request) {
  const user = await requireMarketUser(request);
  const state = await checkoutState(request, user);
  if (!state) throw redirect(marketHref({}));
  return { user, ...state };
}
