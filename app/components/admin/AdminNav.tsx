import { Link } from "@remix-run/react";
import { useNonce } from "~/components/nonce";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";

// The reference catalogue (messages/adminReference, ~3 KB gzip) stays off the pages that only
// link to it: the banner's texts come with its data (readinessBanner).
const msg = { admin: adminMessages };

export type AdminSection = "orders" | "refunds" | "audit" | "reference" | "riders" | "pick-list" | "reconciliation";

/** What the readiness banner shows (readinessBanner() in app/server/http/readiness-banner). */
export type Readiness = { lines: string[]; simulated: boolean; schoolsOff: boolean; texts: { title: string; simulated: string; schoolsLink: string } };

/**
 * The operator pages: orders, the refund queue (with its waiting count), the day's
 * reconciliation, the audit log, the
 * circle's moderation and the reference data; above them, the capabilities that are still off.
 */
export function AdminNav({ current, refundRequests, readiness }: { current: AdminSection; refundRequests?: number; readiness?: Readiness }) {
  const m = msg.admin;
  const links: { to: string; label: string; section?: AdminSection; badge?: number }[] = [
    { to: "/admin/orders", label: m.orders, section: "orders" },
    { to: "/admin/pick-list", label: m.navPickList, section: "pick-list" },
    { to: "/admin/riders", label: m.navRiders, section: "riders" },
    { to: "/admin/refunds", label: m.navRefunds, section: "refunds", badge: refundRequests },
    { to: "/admin/reconciliation", label: m.navReconciliation, section: "reconciliation" },
    { to: "/admin/audit", label: m.navAudit, section: "audit" },
    { to: "/admin/moderation", label: m.navModeration },
    { to: "/admin/campuses", label: m.navReference, section: "reference" },
  ];
  return (
    <>
      {readiness ? <ReadinessBanner readiness={readiness} /> : null}
      <script src="/admin-poll.js" defer nonce={useNonce()} />
      <nav aria-label={m.nav}>
        <ul className="flex flex-wrap gap-2 whitespace-nowrap">
          {links.map((link) => {
            const active = link.section === current;
            return (
              <li key={link.to}>
                <Link
                  to={link.to}
                  aria-current={active ? "page" : undefined}
                  className={`inline-flex items-center gap-1 rounded-full px-3 py-1.5 text-sm font-medium ${
                    active ? "bg-brand text-white" : "bg-white text-slate-700 shadow-sm"
                  }`}
                >
                  {link.label}
                  {link.badge ? (
                    <span className={`rounded-full px-1.5 text-xs ${active ? "bg-white/25" : "bg-red-500 text-white"}`}>{link.badge}</span>
                  ) : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
}

/** One line per capability that is off (payment, template messages, the academic system). */
export function ReadinessBanner({ readiness }: { readiness: Readiness }) {
  const r = readiness.texts;
  if (readiness.lines.length === 0) return null;
  return (
    <section role="note" aria-label={r.title} className="rounded-2xl bg-amber-50 p-3 text-sm text-amber-900" data-testid="readiness-banner">
      <p className="font-semibold">
        {r.title}
        {readiness.simulated ? <span className="font-normal">{r.simulated}</span> : null}
      </p>
      <ul className="mt-1 list-disc space-y-0.5 pl-5">
        {readiness.lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {readiness.schoolsOff ? (
        <Link to="/admin/schools" className="mt-1 inline-block font-medium text-brand underline">
          {r.schoolsLink}
        </Link>
      ) : null}
    </section>
  );
}
