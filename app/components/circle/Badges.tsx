import { postStatusLabel } from "~/lib/post-status";

export function CategoryTag({ name }: { name: string }) {
  return <span className="shrink-0 rounded-full bg-brand-soft px-2 py-0.5 text-xs text-brand-dark">{name}</span>;
}

export function TitleTag({ title }: { title: string }) {
  return <span className="min-w-0 truncate rounded-full bg-amber-50 px-2 py-0.5 text-xs text-amber-700 ring-1 ring-inset ring-amber-200"># {title}</span>;
}

/** Only posts that have a status (mutual-help posts) show it. */
export function StatusBadge({ status }: { status: string | null }) {
  const label = postStatusLabel(status);
  if (!label) return null;
  return (
    <span className={`shrink-0 rounded px-1.5 py-0.5 text-xs font-medium ${label.ongoing ? "bg-emerald-50 text-emerald-700" : "bg-slate-100 text-slate-500"}`}>
      {label.label}
    </span>
  );
}
