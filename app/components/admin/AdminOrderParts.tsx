// The operators' 'more actions' panel with its cancel and delete confirmations. It is opened by
// the URL (?order=…, &panel=cancel|delete), so it renders on the server and works without
// JavaScript; each form posts to the panel's own URL, so a refused action shows its message
// inside the open panel. (The cards and the summary are plain server HTML: order-html.server.)
import { getFormProps, getTextareaProps, useForm, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import { FieldError, FormError } from "~/components/FieldError";
import { Sheet } from "~/components/ui/Sheet";
import { Icon } from "~/components/icons";
import { adminOrders as adminOrdersMessages } from "~/lib/messages/adminOrders";
import { REASON_MAX } from "~/lib/order-limits";
import type { AdminOrderCard } from "~/server/admin/orders.server";

export type PanelOrder = AdminOrderCard & { tone: string };

const msg = { adminOrders: adminOrdersMessages };
const m = msg.adminOrders;

function useBusy() {
  return useNavigation().state !== "idle";
}

function Hidden({ intent, order }: { intent: string; order: string }) {
  return (
    <>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="order" value={order} />
    </>
  );
}

/**
 * The 'more actions' dialog: the courier steps, complete, cancel, delete and the call link, as
 * the status table allows them now.
 */
export function ActionsPanel({
  order,
  panel,
  urls,
  error,
  reply,
  cancelConstraint,
  failReasons = [],
}: {
  order: PanelOrder;
  panel: "actions" | "cancel" | "fail" | "delete";
  /** self: this panel (the forms post here); close: the list; actions, cancel, fail, delete: the panels. */
  urls: { self: string; close: string; actions: string; cancel: string; fail: string; delete: string };
  error?: string | null;
  /** conform's reply of the last post, and the cancel form's constraints (from the loader). */
  reply?: SubmissionResult<string[]>;
  cancelConstraint?: Record<string, { required?: boolean; maxLength?: number }>;
  /** 配送失败's causes, labelled by the loader. */
  failReasons?: { code: string; label: string }[];
}) {
  const self = urls.self;
  const a = m.actions;
  const busy = useBusy();
  if (panel === "cancel") {
    return <CancelPanel order={order} urls={urls} reply={reply} constraint={cancelConstraint ?? {}} />;
  }
  if (panel === "fail") {
    return <FailPanel order={order} urls={urls} reply={reply} reasons={failReasons} />;
  }
  if (panel === "delete") {
    return (
      <ConfirmSheet title={a.deleteTitle} intent="delete" order={order} hint={a.deleteHint} urls={urls} error={error} confirm={a.confirmDelete} />
    );
  }
  const can = (action: string) => order.actions.includes(action as never);
  const nothing = order.steps.length === 0 && !can("complete") && !can("cancel") && !can("fail") && !can("delete");
  return (
    <Sheet title={a.title} closeTo={urls.close}>
      <div className="flex items-center gap-2 text-sm">
        <span className="flex-1 font-mono font-semibold">{order.orderNumber}</span>
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${order.tone}`}>{order.label}</span>
      </div>
      {order.refundLabel ? <p className="text-xs font-medium text-purple-700">{order.refundLabel}</p> : null}
      <FormError message={error} />
      {order.steps.length > 0 ? (
        <div className="space-y-1.5">
          <p className="text-xs text-slate-500">{a.courier}</p>
          <div className="flex gap-2">
            {order.steps.map((step) => (
              <Form key={step.to} method="post" action={self} preventScrollReset className="flex-1">
                <Hidden intent={step.to} order={order.orderNumber} />
                <button type="submit" disabled={busy} className="btn-ghost h-10 w-full px-2 text-xs" title={step.label}>
                  {a[step.to]}
                </button>
              </Form>
            ))}
          </div>
        </div>
      ) : null}
      <div className="grid grid-cols-1 gap-2">
        {can("complete") ? (
          <Form method="post" action={self} preventScrollReset>
            <Hidden intent="complete" order={order.orderNumber} />
            <button type="submit" disabled={busy} className="btn-primary h-11 w-full">
              <Icon name="check" className="h-4 w-4" />
              {a.complete}
            </button>
          </Form>
        ) : null}
        {order.recipientPhone ? (
          <a href={`tel:${order.recipientPhone}`} className="btn-ghost h-11 w-full">
            <Icon name="phone" className="h-4 w-4" />
            {a.call} {order.recipientPhone}
          </a>
        ) : (
          <p className="flex h-11 items-center justify-center gap-1 rounded-full bg-slate-50 text-sm text-slate-500" data-testid="no-phone">
            <Icon name="phone" className="h-4 w-4" />
            {a.noPhone}
          </p>
        )}
        {can("cancel") ? (
          <Link to={urls.cancel} replace preventScrollReset className="btn h-11 w-full border border-red-200 bg-white text-red-600">
            {order.paid ? a.cancelRefund : a.cancel}
          </Link>
        ) : null}
        {can("fail") ? (
          <Link to={urls.fail} replace preventScrollReset className="btn h-11 w-full border border-amber-300 bg-white text-amber-700">
            {a.fail}
          </Link>
        ) : null}
        {can("delete") ? (
          <Link to={urls.delete} replace preventScrollReset className="btn h-11 w-full text-slate-500">
            {a.delete}
          </Link>
        ) : null}
        {nothing ? <p className="text-center text-sm text-slate-500">{a.none}</p> : null}
        <Link to={`/admin/audit?order=${order.orderNumber}`} className="text-center text-xs text-brand">
          {a.log}
        </Link>
      </div>
    </Sheet>
  );
}

/**
 * 配送失败: the reason (required, the student reads it) and, per size of the order, how many
 * parcels were not delivered (all of them by default: the whole order is refunded).
 */
function FailPanel({
  order,
  urls,
  reply,
  reasons,
}: {
  order: PanelOrder;
  urls: { self: string; actions: string };
  reply?: SubmissionResult<string[]>;
  reasons: { code: string; label: string }[];
}) {
  const a = m.actions;
  const [form, fields] = useForm<{ intent: string; order: string; reason: string; reason_code: string }>({ id: "fail", lastResult: reply });
  const picked = (reply?.initialValue as Record<string, unknown> | undefined)?.reason_code;
  const formError = form.errors?.[0] ?? fields.order.errors?.[0] ?? null;
  return (
    <ConfirmSheet
      title={a.failTitle}
      intent="fail"
      order={order}
      hint={a.failHint}
      urls={urls}
      form={form}
      error={formError}
      confirm={a.confirmFail}
      amber
    >
      <fieldset className="space-y-1.5">
        <legend className="field-label">{a.missing}</legend>
        {order.parcels.map((parcel) => (
          <label key={parcel.type} className="flex items-center justify-between gap-2 text-sm">
            <span>{parcel.name}</span>
            <span className="flex items-center gap-1">
              <input type="number" name={`missing_${parcel.type}`} min={0} max={parcel.count} defaultValue={parcel.count} inputMode="numeric" className="field-input h-9 w-16 text-center" />
              <span className="text-slate-500">/ {parcel.count}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="space-y-1">
        <legend className="field-label">{a.failReason}</legend>
        <div className="flex flex-wrap gap-1.5">
          {reasons.map((reason) => (
            <label key={reason.code} className="flex h-9 items-center gap-1 rounded-full border px-3 text-sm">
              <input type="radio" name="reason_code" value={reason.code} defaultChecked={picked === reason.code} />
              {reason.label}
            </label>
          ))}
        </div>
      </fieldset>
      <ReasonField field={fields.reason} label={a.failReason} placeholder={a.failReasonPlaceholder} hideLabel />
    </ConfirmSheet>
  );
}

/** The cancel confirmation: conform's form, the reason's message beside it and the typed reason kept. */
function CancelPanel({
  order,
  urls,
  reply,
  constraint,
}: {
  order: PanelOrder;
  urls: { self: string; actions: string };
  reply?: SubmissionResult<string[]>;
  constraint: Record<string, { required?: boolean; maxLength?: number }>;
}) {
  const a = m.actions;
  const [form, fields] = useForm<{ intent: string; order: string; reason: string }>({ id: "cancel", lastResult: reply, constraint });
  const formError = form.errors?.[0] ?? fields.order.errors?.[0] ?? null;
  return (
    <ConfirmSheet
      title={a.cancelTitle}
      intent="cancel"
      order={order}
      hint={order.paid ? a.cancelPaidHint : a.cancelUnpaidHint}
      urls={urls}
      form={form}
      error={formError}
      confirm={order.paid ? a.cancelRefund : a.confirmCancel}
    >
      <ReasonField field={fields.reason} label={a.reason} placeholder={a.reasonPlaceholder} />
    </ConfirmSheet>
  );
}

/**
 * A confirmation over the actions panel: the order's number and what the step does, the step's
 * fields, its refusal, and back beside the confirm button. Posts to the panel's own URL.
 */
function ConfirmSheet({
  title,
  intent,
  order,
  hint,
  urls,
  form,
  error,
  confirm,
  amber,
  children,
}: {
  title: string;
  intent: string;
  order: PanelOrder;
  hint: string;
  urls: { self: string; actions: string };
  /** conform's form (the cancel and fail steps); the delete step is a plain post. */
  form?: FormMetadata<any, string[]>;
  error?: string | null;
  /** The confirm button's words; `amber` for 配送失败 (red otherwise). */
  confirm: string;
  amber?: boolean;
  children?: ReactNode;
}) {
  return (
    <Sheet title={title} closeTo={urls.actions}>
      <Form method="post" action={urls.self} preventScrollReset {...(form && getFormProps(form))} className="space-y-3">
        <Hidden intent={intent} order={order.orderNumber} />
        <p className="text-sm text-slate-600">
          <span className="font-mono">{order.orderNumber}</span>　{hint}
        </p>
        {children}
        <FormError id={form?.errorId} message={error} />
        <div className="flex gap-2">
          <Link to={urls.actions} replace preventScrollReset className="btn-ghost h-11 flex-1">
            {m.actions.back}
          </Link>
          <button type="submit" disabled={useBusy()} className={amber ? "btn h-11 flex-1 bg-amber-600 text-white hover:bg-amber-700" : "btn h-11 flex-1 bg-red-600 text-white hover:bg-red-700"}>
            {confirm}
          </button>
        </div>
      </Form>
    </Sheet>
  );
}

/** The typed reason, its label (only for screen readers where a legend above already says it) and its message. */
function ReasonField({ field, label, placeholder, hideLabel }: { field: FieldMetadata<string>; label: string; placeholder: string; hideLabel?: boolean }) {
  return (
    <label className="block">
      <span className={hideLabel ? "sr-only" : "field-label"}>{label}</span>
      <textarea {...getTextareaProps(field)} rows={2} maxLength={REASON_MAX} placeholder={placeholder} className="field-input text-sm" />
      <FieldError field={field} as="span" />
    </label>
  );
}
