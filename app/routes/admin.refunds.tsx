// /admin/refunds — customers' refund requests waiting for an operator: the order,
// amount, reason and time, with approve (the refund goes through the pay provider at once; the
// order becomes 'refund succeeded' on the provider's confirmation) and reject (with a reason the
// customer reads on the order page; ?reject=<id> opens its form). Operators only; every action
// also requires a same-origin request.
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import type { Constraints } from "~/components/admin/ReferenceParts";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { FieldError, FormError } from "~/components/FieldError";
import { Sheet } from "~/components/ui/Sheet";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { adminRefunds as adminRefundsMessages } from "~/lib/messages/adminRefunds";
import { app as appMessages } from "~/lib/messages/app";
import { AdminRefundActionSchema } from "~/lib/schemas/adminOrders";
import { formatYuan } from "~/lib/money";
import { REASON_MAX } from "~/lib/order-limits";
import { formatShanghai } from "~/lib/time";
import { approveRefundRequest, refundQueue, rejectRefundRequest, type DoneNotice } from "~/server/admin/actions.server";
import { adminRefusal } from "~/server/http/admin-refusals";
import { readinessBanner } from "~/server/http/readiness-banner";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { adminRefunds: adminRefundsMessages, app: appMessages };
const r = msg.adminRefunds;

export const meta: MetaFunction = () => [{ title: `${r.title} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const url = new URL(request.url);
  const items = (await refundQueue()).map((item) => ({ ...item, amountText: formatYuan(item.amountFen, { style: "amount", symbol: true }), createdText: formatShanghai(item.createdAt) }));
  const rejectId = Number(url.searchParams.get("reject"));
  const done = url.searchParams.get("notice");
  return {
    displayName: operator.display_name,
    readiness: await readinessBanner(),
    items,
    rejecting: items.find((item) => item.id === rejectId) ?? null,
    // The reject form's constraints, from the schema on the server (zod stays off the page).
    constraint: getZodConstraint(AdminRefundActionSchema.options[1]),
    done: done && done in adminOrderData.done ? adminOrderData.done[done as DoneNotice] : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: AdminRefundActionSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  const result = value.intent === "approve" ? await approveRefundRequest(operator, value.refund) : await rejectRefundRequest(operator, value.refund, value.reason);
  if (!result.ok) {
    const refused = adminRefusal(result);
    return Response.json(submission.reply({ formErrors: [refused.message] }), { status: refused.status });
  }
  return redirect(`/admin/refunds?notice=${result.done}`);
}

export default function AdminRefunds() {
  const { displayName, items, rejecting, done, readiness, constraint } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const busy = useNavigation().state !== "idle";
  const location = useLocation();
  // An approve (buttons only) answers at the top of the page.
  const pageError = rejecting ? null : (Object.values(reply?.error ?? {}).find((messages) => messages?.length)?.[0] ?? null);

  return (
    <Page title={r.title} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="refunds" refundRequests={items.length} readiness={readiness} />
      {done ? (
        <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-sm text-green-700">
          {done}
        </p>
      ) : null}
      <FormError message={pageError} />
      {items.length === 0 ? (
        <section className="card flex flex-col items-center gap-2 py-12 text-center">
          <Icon name="check" className="h-10 w-10 text-slate-300" />
          <p className="text-sm text-slate-500">{r.empty}</p>
        </section>
      ) : (
        <>
          <p className="px-1 text-xs text-slate-500">{r.approveHint}</p>
          <ul className="space-y-3">
            {items.map((item) => (
              <li key={item.id}>
                <article className="card space-y-2 text-sm" aria-label={`${r.order} ${item.orderNumber}`} data-testid={`refund-${item.orderNumber}`}>
                  <header className="flex items-center gap-2">
                    <Link to={`/admin/orders?q=${item.orderNumber}`} className="flex-1 font-mono font-semibold text-brand">
                      {item.orderNumber}
                    </Link>
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{item.statusLabel}</span>
                  </header>
                  <dl className="grid grid-cols-[4.5em_1fr] gap-x-2 gap-y-1">
                    <dt className="text-slate-500">{r.amount}</dt>
                    <dd className="font-semibold text-red-600 tabular-nums">{item.amountText}</dd>
                    <dt className="text-slate-500">{r.reason}</dt>
                    <dd className="whitespace-pre-wrap break-words">{item.reason ?? "—"}</dd>
                    <dt className="text-slate-500">{r.requestedAt}</dt>
                    <dd>
                      <time dateTime={item.createdAt}>{item.createdText}</time>
                      <span className="ml-2 text-xs text-slate-500">{item.campusName}</span>
                    </dd>
                  </dl>
                  <div className="flex gap-2 border-t border-slate-100 pt-2">
                    <Link to={`/admin/refunds?reject=${item.id}`} preventScrollReset className="btn-ghost h-10 flex-1" aria-label={`${r.reject} ${item.orderNumber}`}>
                      {r.reject}
                    </Link>
                    <Form method="post" className="flex-1" preventScrollReset>
                      <input type="hidden" name="intent" value="approve" />
                      <input type="hidden" name="refund" value={item.id} />
                      <button type="submit" disabled={busy} className="btn-primary h-10 w-full" aria-label={`${r.approve} ${item.orderNumber}`}>
                        {r.approve}
                      </button>
                    </Form>
                  </div>
                </article>
              </li>
            ))}
          </ul>
        </>
      )}
      {/* Mounted afresh at each location: a reopened sheet shows no stale message. */}
      {rejecting ? <RejectSheet key={location.key} rejecting={rejecting} reply={reply} constraint={constraint} busy={busy} /> : null}
    </Page>
  );
}

type Rejecting = NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["rejecting"]>;

/** The reject sheet: conform's form, the reason's message beside it and the typed reason kept. */
function RejectSheet({ rejecting, reply, constraint, busy }: { rejecting: Rejecting; reply?: SubmissionResult<string[]>; constraint: Constraints; busy: boolean }) {
  const [form, fields] = useForm<{ intent: string; refund: string; reason: string }>({ id: "reject", lastResult: reply, constraint });
  return (
    <Sheet title={r.rejectTitle} closeTo="/admin/refunds">
      <Form method="post" action={`/admin/refunds?reject=${rejecting.id}`} preventScrollReset {...getFormProps(form)} className="space-y-3">
        <input type="hidden" name="intent" value="reject" />
        <input type="hidden" name="refund" value={rejecting.id} />
        <p className="text-sm text-slate-600">
          <span className="font-mono">{rejecting.orderNumber}</span>　{rejecting.amountText}
        </p>
        <label className="block">
          <span className="field-label">{r.rejectReason}</span>
          <textarea {...getTextareaProps(fields.reason)} rows={3} maxLength={REASON_MAX} placeholder={r.rejectPlaceholder} className="field-input text-sm" />
          <FieldError field={fields.reason} as="span" />
        </label>
        <FormError id={form.errorId} message={(form.errors ?? fields.refund.errors)?.[0]} />
        <div className="flex gap-2">
          <Link to="/admin/refunds" replace preventScrollReset className="btn-ghost h-11 flex-1">
            {r.back}
          </Link>
          <button type="submit" disabled={busy} className="btn h-11 flex-1 bg-red-600 text-white hover:bg-red-700">
            {r.confirmReject}
          </button>
        </div>
      </Form>
    </Sheet>
  );
}
