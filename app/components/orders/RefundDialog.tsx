// The refund request dialog (child route …/refund): a reason is required; it also offers
// contacting service.
import { Form, Link } from "@remix-run/react";
import { FieldError, FormError } from "~/components/FieldError";
import { orderDialogs as orderDialogsMessages } from "~/lib/messages/order-dialogs";
import { REASON_MAX } from "~/lib/order-limits";
import { Icon } from "../icons";
import { useSubmitting, type Base } from "./dialog-parts";
import { Sheet } from "~/components/ui/Sheet";

const msg = { orders: orderDialogsMessages };

export function RefundDialog({ path, error, fieldError }: Base & { fieldError?: string | null }) {
  const submitting = useSubmitting("refund");
  return (
    <Sheet title={msg.orders.refundDialog.title} closeTo={path}>
      {/* The server answers an empty reason with '请输入退款原因' beside the field (not the browser's own bubble). */}
      <Form method="post" action={`${path}/refund`} preventScrollReset className="space-y-3" noValidate>
        <input type="hidden" name="intent" value="refund" />
        <p className="text-sm text-slate-600">{msg.orders.refundDialog.hint}</p>
        <label className="block">
          <span className="field-label">{msg.orders.refundDialog.reason}</span>
          <textarea
            name="reason"
            rows={3}
            required
            maxLength={REASON_MAX}
            placeholder={msg.orders.refundDialog.reasonPlaceholder}
            className="field-input text-sm"
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? "refund-reason-error" : undefined}
          />
          <FieldError field={{ errorId: "refund-reason-error", errors: fieldError ? [fieldError] : undefined }} as="span" />
        </label>
        <FormError message={error} id="refund-error" />
        <div className="flex gap-2">
          <Link to={`${path}/contact`} replace preventScrollReset className="btn-ghost h-11 flex-1">
            <Icon name="service" className="h-4 w-4" />
            {msg.orders.refundDialog.contact}
          </Link>
          <button type="submit" className="btn-primary h-11 flex-1" disabled={submitting}>
            {msg.orders.refundDialog.submit}
          </button>
        </div>
      </Form>
    </Sheet>
  );
}
