// The guards of the market's routes (the layout and its panels): each throws the redirect that
// app/server/ never answers itself.
import { redirect, redirectDocument } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import { messengerAuthPathFor } from "~/lib/wechat-auth";
import { getUser, type User } from "~/server/auth/session.server";
import { checkoutState } from "~/server/market/market-state.server";

/**
 * The messenger identity that recognition, the checkout and addresses need. Without it the
 * browser goes through the messenger authorization (a full document redirect, also from a fetcher).
 */
export async function requireMarketUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user?.openid) return user;
  throw redirectDocument(messengerAuthPathFor(request.url));
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
