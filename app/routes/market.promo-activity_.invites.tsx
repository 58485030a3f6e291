// /market/promo-activity/invites — every invite of the signed-in user ('view all' on the promo
// page): only ever their own.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { InviteList } from "~/components/coupons/PromoParts";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { fillTemplate } from "~/lib/template";
import { milestoneProgress } from "~/lib/invites";
import { inviteRecords } from "~/server/coupons/campaign.server";
import { loadRules } from "~/server/coupons/wallet.server";
import { promoTexts, recordView } from "./market.promo-activity/promo-texts.server";
import { requireMessengerUser } from "~/server/http/guards.server";

export const meta: MetaFunction = ({ data }) => [{ title: `${(data as { t?: { promo: { allTitle: string } } } | undefined)?.t?.promo.allTitle ?? titlesMessages.promo} · ${appMessages.name}` }];

/** /market/promo-activity/invites: every invite of the signed-in user. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireMessengerUser(request);
  const now = new Date();
  const list = await inviteRecords(user.id, { now });
  const rules = await loadRules();
  const thresholds = [...new Set(rules.filter((rule) => rule.event === "milestone").map((rule) => rule.threshold))];
  return {
    t: promoTexts(),
    completed: list.completed,
    total: list.total,
    items: list.records.map((record) => recordView(record, now)),
    progress: milestoneProgress(list.completed, thresholds),
  };
}

export default function AllInvites() {
  const data = useLoaderData<typeof loader>();
  const t = data.t;
  return (
    <Page title={t.promo.allTitle} back="/market/promo-activity">
      <section className="card space-y-2">
        <p className="text-sm text-orange-600">{fillTemplate(t.promo.completed, { count: data.completed })}</p>
        {data.items.length === 0 ? <p className="rounded-xl bg-slate-50 px-3 py-5 text-center text-sm text-slate-500">{t.promo.empty}</p> : <InviteList items={data.items} labels={{ title: t.promo.recordsTitle, plus: t.promo.plus }} />}
      </section>
    </Page>
  );
}
