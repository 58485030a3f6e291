import { Link } from "@remix-run/react";
import { admin as adminMessages } from "~/lib/messages/admin";

const msg = { admin: adminMessages };

export type AdminSection = "orders" | "refunds" | "audit";

/** The operator pages: orders, the refund queue (with its waiting count), the audit log, and the circle's moderation. */
export function AdminNav({ current, refundRequests }: { current: AdminSection; refundRequests?: number }) {
  const m = msg.admin;
  const links: { to: string; label: string; section?: AdminSection; badge?: number }[] = [
    { to: "/admin/orders", label: m.orders, section: "orders" },
    { to: "/admin/refunds", label: m.navRefunds, section: "refunds", badge: refundRequests },
    { to: "/admin/audit", label: m.navAudit, section: "audit" },
    { to: "/admin/moderation", label: m.navModeration },
  ];
  return (
    <nav aria-label={m.nav} className="-mx-3 overflow-x-auto px-3">
      <ul className="flex gap-2 whitespace-nowrap">
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
  );
}
