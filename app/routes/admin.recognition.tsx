// /admin/recognition — the recognition correction loop (decision 034): the original messages
// students agreed to share when they corrected a recognised parcel (or typed one by hand after
// recognition found nothing), masked, grouped by sender tag, with what was recognised and what
// was entered. Kept 90 days. Operators only (requireAdmin).
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ReadinessBanner } from "~/components/admin/AdminNav";
import { Page } from "~/components/Page";
import { adminRecognition } from "~/lib/messages/adminRecognition";
import { app as appMessages } from "~/lib/messages/app";
import { fillTemplate } from "~/lib/template";
import { readinessBanner } from "~/server/http/readiness-banner";
import { listCorrections, type CorrectionRow } from "~/server/market/corrections.server";
import { requireAdmin } from "~/server/http/guards.server";

const m = adminRecognition;

export const meta: MetaFunction = () => [{ title: `${m.title} · ${appMessages.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [groups, readiness] = await Promise.all([listCorrections(), readinessBanner()]);
  return { groups, readiness };
}

export default function AdminRecognition() {
  const { groups, readiness } = useLoaderData<typeof loader>();
  return (
    <Page title={m.title} back="/admin/orders">
      <ReadinessBanner readiness={readiness} />
      <p className="px-1 text-xs text-slate-500">{m.hint}</p>
      {groups.length === 0 ? <p className="card text-center text-sm text-slate-500">{m.empty}</p> : null}
      {groups.map((group) => (
        <section key={group.senderTag} className="card space-y-3" aria-label={group.senderTag || m.noTag} data-testid="correction-group">
          <h2 className="flex items-baseline justify-between text-sm font-semibold text-slate-900">
            <span>{group.senderTag ? `【${group.senderTag}】` : m.noTag}</span>
            <span className="text-xs font-normal text-slate-500">{fillTemplate(m.count, { count: group.rows.length })}</span>
          </h2>
          <ul className="space-y-3">
            {group.rows.map((row) => (
              <Correction key={row.id} row={row} />
            ))}
          </ul>
        </section>
      ))}
    </Page>
  );
}

function Correction({ row }: { row: CorrectionRow }) {
  const fields = (value: CorrectionRow["entered"] | null) =>
    value ? [`${m.code}：${value.pickupCode ?? "—"}`, `${m.company}：${value.company ?? "—"}`, `${m.station}：${value.stationName ?? "—"}`].join("　") : m.nothing;
  return (
    <li className="space-y-1 rounded-xl bg-slate-50 p-3 text-xs text-slate-700" data-testid="correction">
      <p className="break-words text-sm text-slate-900">
        <span className="mr-1 text-slate-500">{m.original}</span>
        {row.original || m.screenshot}
      </p>
      <p className="break-words">
        <span className="mr-1 text-slate-500">{m.recognized}</span>
        {fields(row.recognized)}
      </p>
      <p className="break-words font-medium">
        <span className="mr-1 text-slate-500">{m.entered}</span>
        {fields(row.entered)}
      </p>
      <p className="text-[11px] text-slate-400">{row.createdAt.slice(0, 16).replace("T", " ")}</p>
    </li>
  );
}
