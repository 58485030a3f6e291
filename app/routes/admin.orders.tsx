// /admin/orders — the operators' order management (docs/product-rules.md, "Admin orders").
// Status tabs with a count per group, a campus filter and a search box (a GET form), order cards
// 10 per page with 'load more' as a link (?page=2 shows the first 20), and the 'more actions'
// panel opened by the URL (?order=…). Complete, cancel, delete and the courier steps are form
// actions here told apart by `intent`; every loader and action requires an operator session and
// every action a same-origin request. The daily summary sits on top; the CSV export is
// /admin/export.csv with the same filters. The summary, tabs, cards and panel are components
// (AdminOrderList, AdminOrderParts) rendered from the loader's typed data.
import { isAdminRole } from "~/lib/operator-roles";
import type { SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, isRouteErrorResponse, useActionData, useLoaderData, useLocation, useRouteError } from "@remix-run/react";
import { FormError } from "~/components/FieldError";
import { AdminNav } from "~/components/admin/AdminNav";
import { ActionsPanel } from "~/components/admin/AdminOrderParts";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { OrderList, Summary, groupTone } from "~/components/admin/AdminOrderList";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { adminListQuery, type AdminListState, type AdminPanel } from "~/lib/admin-orders";
import { FAILURE_REASONS, failureReasonText } from "~/lib/delivery-exceptions";
import { ORDER_GROUPS, groupLabel } from "~/lib/order-status";
import { adminOrderData } from "~/lib/messages/adminOrderData";
import { adminOps } from "~/lib/messages/adminOps";
import { adminOrders as adminOrdersMessages } from "~/lib/messages/adminOrders";
import { app as appMessages } from "~/lib/messages/app";
import { AdminOrderActionSchema, AdminOrdersQuerySchema } from "~/lib/schemas/adminOrders";
import { fillTemplate } from "~/lib/template";
import { runOrderAction, type DoneNotice } from "~/server/admin/actions.server";
import { adminRefusal } from "~/server/http/admin-refusals";
import { adminOrderPage, campusOptions, dailySummary, findLiveOrder, panelCard, slotOptions, type AdminOrderCard } from "~/server/admin/orders.server";
import { readinessBanner } from "~/server/http/readiness-banner";
import { log } from "~/server/log.server";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { adminOrders: adminOrdersMessages, app: appMessages };
const m = msg.adminOrders;

export const meta: MetaFunction = () => [{ title: `${m.title} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

function readState(url: URL) {
  const query = AdminOrdersQuerySchema.parse(Object.fromEntries(url.searchParams));
  const state: AdminListState = { group: query.status ?? null, campus: query.campus ?? null, slot: query.slot ?? null, q: query.q ?? "", page: query.page };
  return { state, order: query.order ?? null, panel: (query.order ? (query.panel ?? "actions") : null) as AdminPanel | null };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const url = new URL(request.url);
  const { state, order, panel } = readState(url);
  const done = url.searchParams.get("notice");
  try {
    const [page, summary, campuses, panelRow, readiness, slots] = await Promise.all([
      adminOrderPage({ group: state.group, campus: state.campus, slot: state.slot, q: state.q }, state.page),
      dailySummary(),
      campusOptions(),
      order ? findLiveOrder(order) : Promise.resolve(undefined),
      readinessBanner(),
      slotOptions(state.campus, state.slot ?? null),
    ]);
    // Deleting is the admin role's (decision 030): other operators are not offered it.
    const forOperator = (card: AdminOrderCard): AdminOrderCard => (isAdminRole(operator.role) ? card : { ...card, actions: card.actions.filter((action) => action !== "delete") });
    const panelOrder = panelRow ? forOperator(await panelCard(panelRow, panel)) : null;
    return {
      displayName: operator.display_name,
      readiness,
      state,
      panel,
      done: done && done in adminOrderData.done ? adminOrderData.done[done as DoneNotice] : null,
      refundRequests: summary.refundRequests,
      summary,
      page: { ...page, items: page.items.map(forOperator) },
      // The tabs' labels from the status table, here (the table stays off the page).
      tabs: ORDER_GROUPS.map((group) => ({ group, label: groupLabel(group) })),
      campuses,
      slots,
      panelOrder,
      // The cancel form's constraints, from the schema on the server (zod stays off the page).
      cancelConstraint: panel === "cancel" ? getZodConstraint(AdminOrderActionSchema.options[4]) : {},
      // 配送失败's causes with their labels (the words stay off the page's JavaScript).
      failReasons: panel === "fail" ? FAILURE_REASONS.map((code) => ({ code, label: adminOps.failReasons[code] })) : [],
    };
  } catch (error) {
    // The product rules' 'failed to load orders', shown by the ErrorBoundary with a retry link.
    log("error", "admin-orders-load", { error: String(error) });
    throw Response.json({ message: m.failures.load }, { status: 500 });
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: AdminOrderActionSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  const missing =
    value.intent === "fail"
      ? Object.fromEntries((["pocket", "small", "medium", "large"] as const).map((size) => [size, Number((value as Record<string, unknown>)[`missing_${size}`] ?? 0)]))
      : null;
  // No size named: the whole order was not delivered.
  const anyMissing = missing && Object.values(missing).some((count) => count > 0);
  const reason =
    value.intent === "fail" ? failureReasonText(value.reason_code ?? null, value.reason, adminOps.failReasons) : "reason" in value ? (value.reason ?? null) : null;
  const supplementMissing = value.intent === "fail" && Number((value as Record<string, unknown>).missing_supplement ?? 0) > 0;
  const result = await runOrderAction(operator, { intent: value.intent, order: value.order, reason, missing: anyMissing ? missing : null, supplementMissing });
  // A refused action answers on the panel's own URL, so the open panel shows the message.
  if (!result.ok) {
    const refused = adminRefusal(result);
    return Response.json(submission.reply({ formErrors: [refused.message] }), { status: refused.status });
  }
  const { state } = readState(new URL(request.url));
  const query = adminListQuery(state);
  return redirect(`/admin/orders${query}${query ? "&" : "?"}notice=${result.done}`);
}

export default function AdminOrders() {
  const data = useLoaderData<typeof loader>();
  // conform's reply: the cancel form shows it beside its reason; the buttons-only forms answer
  // with its first message.
  const reply = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const error = Object.values(reply?.error ?? {}).find((messages) => messages?.length)?.[0] ?? null;
  const { state, campuses, panelOrder, panel } = data;
  const list = (patch: Partial<AdminListState>) => `/admin/orders${adminListQuery({ ...state, ...patch })}`;
  const panelUrl = (order: string, which: AdminPanel) => `/admin/orders${adminListQuery(state, { order, panel: which })}`;

  return (
    <Page title={m.title}>
      <OperatorBar displayName={data.displayName} current="orders" />
      <AdminNav current="orders" refundRequests={data.refundRequests} readiness={data.readiness} />
      {data.done ? (
        <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-sm text-green-700">
          {data.done}
        </p>
      ) : null}
      {!panelOrder ? <FormError message={error} /> : null}
      <Summary summary={data.summary} />

      {/* Keyed by the URL's filter, so a link that changes it (clear, a tab) also resets the fields. */}
      <Form key={`${state.campus}|${state.slot}|${state.q}`} method="get" action="/admin/orders" role="search" className="card space-y-2">
        {state.group ? <input type="hidden" name="status" value={state.group} /> : null}
        <div className="flex gap-2">
          <label className="relative min-w-0 flex-1">
            <span className="sr-only">{m.searchLabel}</span>
            <Icon name="search" className="pointer-events-none absolute left-2.5 top-2.5 h-5 w-5 text-slate-500" />
            <input type="search" name="q" defaultValue={state.q} maxLength={64} placeholder={m.searchPlaceholder} className="field-input h-10 py-1.5 pl-9 text-sm" enterKeyHint="search" />
          </label>
          <button type="submit" className="btn-primary h-10 shrink-0 px-4">
            {m.search}
          </button>
        </div>
        <div className="flex items-center gap-2 text-xs text-slate-500">
          <select
            name="campus"
            aria-label={m.campus}
            defaultValue={state.campus ?? ""}
            className="field-input h-9 w-auto py-1 text-sm"
            onChange={(event) => event.currentTarget.form?.requestSubmit()}
          >
            <option value="">{m.allCampuses}</option>
            {campuses.map((campus) => (
              <option key={campus.code} value={campus.code}>
                {campus.name}
              </option>
            ))}
          </select>
          <select
            name="slot"
            aria-label={data.slots.label}
            defaultValue={state.slot ?? ""}
            className="field-input h-9 w-auto py-1 text-sm"
          >
            {data.slots.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <span className="min-w-0 flex-1 truncate">{state.q ? fillTemplate(m.resultsFor, { q: state.q }) : null}</span>
          {state.q || state.campus || state.slot ? (
            <Link to={list({ q: "", campus: null, slot: null, page: 1 })} className="shrink-0 text-brand">
              {m.clearSearch}
            </Link>
          ) : null}
        </div>
      </Form>

      <OrderList state={state} page={data.page} tabs={data.tabs} />

      {panelOrder && panel ? (
        <ActionsPanel
          order={{ ...panelOrder, tone: groupTone(panelOrder.group) }}
          panel={panel}
          error={error}
          reply={reply}
          cancelConstraint={data.cancelConstraint}
          failReasons={data.failReasons}
          urls={{
            self: panelUrl(panelOrder.orderNumber, panel),
            close: list({}),
            actions: panelUrl(panelOrder.orderNumber, "actions"),
            cancel: panelUrl(panelOrder.orderNumber, "cancel"),
            delete: panelUrl(panelOrder.orderNumber, "delete"),
            fail: panelUrl(panelOrder.orderNumber, "fail"),
          }}
        />
      ) : null}
    </Page>
  );
}

/**
 * The loader's failure ('failed to load orders'), or no answer at all when the page's data was
 * fetched by JavaScript (the product rules' 'network error'); both with a retry link.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const network = !isRouteErrorResponse(error) && error instanceof TypeError;
  return (
    <Page title={m.title}>
      <section role="alert" className="card space-y-3 py-10 text-center">
        <Icon name="alert" className="mx-auto h-10 w-10 text-red-400" />
        <p className="text-sm text-red-700">{network ? m.failures.network : m.failures.load}</p>
        <a href={`${location.pathname}${location.search}`} className="btn-ghost">
          {m.failures.retry}
        </a>
      </section>
    </Page>
  );
}
