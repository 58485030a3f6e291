// /market/invite — the express tab's invite dialog (docs/product-rules.md, "Screens"): the invite code, the link,
// copy, share and the reward. Its own route, so its code loads only when it opens.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InviteShare } from "~/components/coupons/InviteShare";
import { Panel } from "~/components/market/Panel";
import { pricedTypesFor } from "~/server/coupons/wallet.server";
import { inviteShareOf } from "./market.promo-activity/invite-share.server";
import { requireMessengerUser } from "~/server/http/guards.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMessengerUser(request);
  const share = await inviteShareOf(request, user, await pricedTypesFor(user));
  if (!share) throw new Response(null, { status: 404 });
  return share;
}

export default function InviteDialog() {
  const share = useLoaderData<typeof loader>();
  return (
    <Panel title={share.labels.title} closeTo="/market" labelId="invite-dialog-title" variant="dialog">
      <InviteShare {...share} />
    </Panel>
  );
}
