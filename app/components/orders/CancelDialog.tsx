// The cancel dialog (child route …/cancel): an optional reason; a paid order is refunded.
import { Form, Link } from "@remix-run/react";
import { orderDialogs as orderDialogsMessages } from "~/lib/messages/order-dialogs";
import { REASON_MAX } from "~/lib/order-limits";
import { FormError } from "~/components/FieldError";
import { useSubmitting, type Base } from "./dialog-parts";
import { Sheet } from "~/components/ui/Sheet";

const msg = { orders: orderDialogsMessages };

export function CancelDialog({ path, error, paid }: Base & { paid: boolean }) {
  const submitting = useSubmitting("cancel");
  return (
    <Sheet title={msg.orders.cancelDialog.title} closeTo={path}>
      <Form method="post" action={`${path}/cancel`} preventScrollReset className="space-y-3">
        <input type="hidden" name="intent" value="cancel" />
        <p className="text-sm text-slate-600">{paid ? msg.orders.cancelDialog.paidHint : msg.orders.cancelDialog.unpaidHint}</p>
        <label className="block">
          <span className="field-label">{msg.orders.cancelDialog.reason}</span>
          <textarea name="reason" rows={2} maxLength={REASON_MAX} placeholder={msg.orders.cancelDialog.reasonPlaceholder} className="field-input text-sm" />
        </label>
        <FormError message={error} id="cancel-error" />
        <div className="flex gap-2">
          <Link to={path} replace preventScrollReset className="btn-ghost h-11 flex-1">
            {msg.orders.cancelDialog.keep}
          </Link>
          <button type="submit" className="btn h-11 flex-1 bg-red-600 text-white hover:bg-red-700" disabled={submitting}>
            {msg.orders.cancelDialog.confirm}
          </button>
        </div>
      </Form>
    </Sheet>
  );
}
