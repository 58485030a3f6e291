import { fillTemplate } from "~/lib/template";

/** A coupon ticket: "5折" over "×2". */
export function Ticket({ label, count }: { label: string; count?: number }) {
  return (
    <span className="inline-flex min-w-[3.75rem] flex-col items-center rounded-xl bg-white px-2.5 py-1.5 text-orange-700 shadow-sm">
      <span className="text-lg font-bold leading-5">{label}</span>
      {count ? <span className="text-[11px] text-orange-700">×{count}</span> : null}
    </span>
  );
}

export type InviteItem = {
  id: number;
  status: "pending" | "completed" | "expired";
  statusLabel: string;
  nickname: string;
  avatar: string | null;
  time: string;
  rewards: { name: string; count: number }[];
};

/** Invite records: the assistant's avatar and nickname, the time, and the reward (or the status). */
export function InviteList({ items, labels }: { items: InviteItem[]; labels: { title: string; plus: string } }) {
  return (
    <ul className="divide-y divide-slate-100" aria-label={labels.title}>
      {items.map((item) => (
        <li key={item.id} className="flex items-center gap-3 py-2.5" data-testid="invite-record">
          {item.avatar ? (
            <img src={item.avatar} alt="" className="h-9 w-9 shrink-0 rounded-full object-cover" referrerPolicy="no-referrer" />
          ) : (
            <span className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-orange-100 text-sm font-semibold text-orange-700" aria-hidden="true">
              {item.nickname.slice(0, 1)}
            </span>
          )}
          <span className="min-w-0 flex-1">
            <span className="block truncate text-sm font-medium text-slate-800">{item.nickname}</span>
            <span className="block text-xs text-slate-500">{item.time}</span>
          </span>
          {item.status === "completed" ? (
            <span className="flex flex-col items-end gap-0.5">
              {item.rewards.map((reward) => (
                <span key={reward.name} className="text-xs text-orange-700">
                  {reward.name} <span className="font-semibold">{fillTemplate(labels.plus, { count: reward.count })}</span>
                </span>
              ))}
            </span>
          ) : (
            <span className={`rounded-full px-2 py-0.5 text-xs ${item.status === "pending" ? "bg-amber-50 text-amber-700" : "bg-slate-100 text-slate-500"}`}>{item.statusLabel}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
