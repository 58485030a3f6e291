// The contact-service dialog (child route …/contact): the hours of the order page (9:00–21:00)
// and the phone.
import { Link } from "@remix-run/react";
import { orderDialogs as orderDialogsMessages } from "~/lib/messages/order-dialogs";
import { fillTemplate } from "~/lib/template";
import { Icon } from "../icons";
import { Sheet } from "~/components/ui/Sheet";

const msg = { orders: orderDialogsMessages };

export function ContactDialog({ path, hours, phone, phoneHref }: { path: string; hours: string; phone: string; phoneHref: string }) {
  return (
    <Sheet title={msg.orders.contactDialog.title} closeTo={path}>
      <div className="space-y-3">
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Icon name="clock" className="h-4 w-4 text-brand" />
          {fillTemplate(msg.orders.contactDialog.hours, { hours })}
        </p>
        <p className="flex items-center gap-2 text-sm text-slate-600">
          <Icon name="phone" className="h-4 w-4 text-brand" />
          {msg.orders.contactDialog.phone} <span className="font-medium text-slate-900">{phone}</span>
        </p>
        <div className="flex gap-2">
          <Link to="/CustomerService" className="btn-ghost h-11 flex-1">
            {msg.orders.contactDialog.more}
          </Link>
          <a href={phoneHref} className="btn-primary h-11 flex-1">
            <Icon name="phone" className="h-4 w-4" />
            {msg.orders.contactDialog.call}
          </a>
        </div>
      </div>
    </Sheet>
  );
}
