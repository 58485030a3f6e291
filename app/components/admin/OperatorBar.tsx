import { Form, Link } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";

const msg = { admin: adminMessages };

/** The operator's name with links to the orders and settings, and the logout button (a POST). */
export function OperatorBar({ displayName, current }: { displayName: string; current: "orders" | "settings" }) {
  return (
    <section className="card flex items-center gap-3">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
        <Icon name="user" className="h-5 w-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="text-xs text-slate-500">{msg.admin.signedInAs}</p>
        <p className="truncate text-base font-semibold" data-testid="operator-name">
          {displayName}
        </p>
      </div>
      {current === "orders" ? (
        <Link to="/admin/settings" className="rounded-full p-2 text-slate-600 hover:bg-slate-100" aria-label={msg.admin.settings}>
          <Icon name="settings" className="h-5 w-5" />
        </Link>
      ) : (
        <Link to="/admin/orders" className="rounded-full p-2 text-slate-600 hover:bg-slate-100" aria-label={msg.admin.orders}>
          <Icon name="order" className="h-5 w-5" />
        </Link>
      )}
      <Form method="post" action="/admin/logout">
        <button type="submit" className="btn-ghost px-3 text-red-600">
          <Icon name="logout" className="h-4 w-4" />
          {msg.admin.logout}
        </button>
      </Form>
    </section>
  );
}
