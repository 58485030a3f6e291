// /admin/pick-list — one delivery slot's parcels (the next slot unless ?slot= names another),
// by pickup station: the full code, carrier, size, order number, the station's deadline when the
// SMS gave one, the rider, and a 已取到 mark per parcel kept on the server. The admin assigns one
// order, the ticked orders or a whole station's to a rider (and reassigns the same way).
// Operators only; server-rendered without JavaScript, printable (decision 038).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { riders as ridersMessages } from "~/lib/messages/riders";
import { isAdminRole } from "~/lib/operator-roles";
import { groupByStation, slotPicker } from "~/lib/riders";
import { PickListActionSchema } from "~/lib/schemas/riders";
import { assignOrders, listRiders } from "~/server/riders/riders.server";
import { markPicked, pickList } from "~/server/riders/run.server";
import { FormError } from "~/components/FieldError";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { app: appMessages, riders: ridersMessages };
const m = msg.riders;

export const handle = { hydrate: false };

export const meta: MetaFunction = () => [{ title: `${m.pickListTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const url = new URL(request.url);
  const at = new Date();
  const [list, riders] = await Promise.all([pickList(url.searchParams.get("slot"), at), isAdminRole(operator.role) ? listRiders() : Promise.resolve([])]);
  const assigned = Number(url.searchParams.get("assigned"));
  const skipped = Number(url.searchParams.get("skipped"));
  return {
    displayName: operator.display_name,
    canAssign: isAdminRole(operator.role),
    riders: riders.filter((rider) => rider.available && !rider.disabled).map((rider) => ({ id: rider.id, name: rider.displayName })),
    ...slotPicker(list, at, m.slotPast),
    orders: list.orders,
    parcels: list.parcels.length,
    picked: list.parcels.filter((parcel) => parcel.picked).length,
    stations: groupByStation(list.parcels),
    done: Number.isInteger(assigned) && assigned >= 0 && url.searchParams.get("notice") === "assigned"
      ? (skipped > 0 ? m.assignedSkipped.replace("{skipped}", String(skipped)) : m.assigned).replace("{assigned}", String(assigned))
      : null,
  };
}

const REASONS = {
  forbidden: m.adminOnly,
  rider_not_found: m.riderNotFound,
  rider_unavailable: m.riderUnavailable,
  no_orders: m.noOrdersChosen,
  not_found: m.notFound,
  not_open: m.notAllowed,
} as const;

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: PickListActionSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const value = submission.value;
  const back = (extra = "") => `/admin/pick-list?${new URLSearchParams({ ...(value.slot ? { slot: value.slot } : {}) }).toString()}${extra}`;
  if (value.intent === "pick") {
    const result = await markPicked(operator, { order: value.order, position: value.position, picked: value.picked === "1" });
    if (!result.ok) return Response.json(submission.reply({ formErrors: [REASONS[result.reason]] }), { status: result.reason === "not_found" ? 404 : 409 });
    return redirect(`${back()}#${value.order}-${value.position}`);
  }
  let orders: string[];
  if (value.intent === "assign-station") {
    const list = await pickList(value.slot);
    orders = list.parcels.filter((parcel) => parcel.station === value.station).map((parcel) => parcel.orderNumber);
  } else orders = value.order;
  const result = await assignOrders(operator, value.rider, orders);
  if (!result.ok) return Response.json(submission.reply({ formErrors: [REASONS[result.reason]] }), { status: result.reason === "forbidden" ? 403 : 409 });
  return redirect(back(`&notice=assigned&assigned=${result.assigned}&skipped=${result.skipped}`));
}

function RiderSelect({ riders, form, label }: { riders: { id: number; name: string }[]; form?: string; label: string }) {
  return (
    <select name="rider" form={form} required aria-label={label} className="field-input min-h-11 flex-1 py-2">
      {riders.map((rider) => (
        <option key={rider.id} value={rider.id}>
          {rider.name}
        </option>
      ))}
    </select>
  );
}

export default function PickList() {
  const data = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as { error?: Record<string, string[] | null> } | undefined;
  const error = Object.values(reply?.error ?? {}).find((messages) => messages?.length)?.[0] ?? null;
  const slot = data.slot ?? "";
  const assign = data.canAssign && data.riders.length > 0;
  return (
    <Page title={m.pickListTitle} back="/admin/orders">
      <div className="space-y-3 print:hidden">
        <OperatorBar displayName={data.displayName} current="orders" />
        <AdminNav current="pick-list" />
      </div>
      <FormError message={error} />
      {data.done ? (
        <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-sm text-green-700 print:hidden">
          {data.done}
        </p>
      ) : null}
      {data.slots.length === 0 ? <p className="card text-center text-sm text-slate-500">{m.noSlots}</p> : null}
      {data.slots.length > 0 ? (
        <Form method="get" className="card flex items-end gap-2 print:hidden">
          <div className="flex-1">
            <label htmlFor="slot" className="field-label">
              {m.slot}
            </label>
            <select id="slot" name="slot" defaultValue={slot} className="field-input">
              {data.slots.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="btn-ghost min-h-11">
            {m.showSlot}
          </button>
        </Form>
      ) : null}
      {data.slot ? (
        <section className="card space-y-2">
          <h2 className="text-lg font-semibold">
            {m.slot} {data.slotLabel}
          </h2>
          <p className="text-sm text-slate-600">
            {m.parcelsCount.replace("{n}", String(data.parcels))} · {m.pickedProgress.replace("{picked}", String(data.picked)).replace("{total}", String(data.parcels))}
          </p>
          <p className="text-xs text-slate-500 print:hidden">{m.print}</p>
          {assign ? (
            <Form method="post" id="assign-selected" className="flex gap-2 print:hidden">
              <input type="hidden" name="intent" value="assign" />
              <input type="hidden" name="slot" value={slot} />
              <RiderSelect riders={data.riders} label={m.assignTo} />
              <button type="submit" className="btn-primary min-h-11">
                {m.assignSelected}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
      {data.stations.map((group) => (
        <section key={group.station} className="card space-y-3 break-inside-avoid print:shadow-none" aria-label={group.station}>
          <header>
            <h2 className="text-lg font-semibold">{group.station}</h2>
            <p className="text-sm text-slate-600">{m.parcelsCount.replace("{n}", String(group.parcels.length))}</p>
            {group.deadlines.map((deadline) => (
              <p key={deadline} className="text-sm font-medium text-red-600">
                {m.deadline.replace("{deadline}", deadline)}
              </p>
            ))}
          </header>
          {assign ? (
            <Form method="post" className="flex gap-2 print:hidden" aria-label={`${group.station} ${m.assignStation}`}>
              <input type="hidden" name="intent" value="assign-station" />
              <input type="hidden" name="slot" value={slot} />
              <input type="hidden" name="station" value={group.station} />
              <RiderSelect riders={data.riders} label={m.assignTo} />
              <button type="submit" className="btn-ghost min-h-11">
                {m.assignStation}
              </button>
            </Form>
          ) : null}
          <ol className="divide-y divide-slate-100">
            {group.parcels.map((parcel) => (
              <li key={`${parcel.orderNumber}-${parcel.position}`} id={`${parcel.orderNumber}-${parcel.position}`} className="flex items-start gap-3 py-3" data-testid="pick-parcel">
                {assign ? (
                  <label className="flex min-h-11 min-w-11 items-center justify-center print:hidden">
                    <input type="checkbox" name="order" value={parcel.orderNumber} form="assign-selected" className="h-5 w-5" aria-label={`${m.select} ${parcel.orderNumber}`} />
                  </label>
                ) : null}
                <div className="min-w-0 flex-1">
                  <p className="font-mono text-xl font-bold tracking-wide">{parcel.code ?? parcel.trackingNumber}</p>
                  <p className="text-sm text-slate-600">
                    {parcel.company} · {parcel.sizeCertain ? parcel.size : m.sizeOfOrder.replace("{sizes}", parcel.size)}
                  </p>
                  <p className="text-xs text-slate-500">
                    <span className="font-mono">{parcel.orderNumber}</span> · {m.rider}：{parcel.riderName ?? m.noRider}
                  </p>
                </div>
                <Form method="post" className="shrink-0">
                  <input type="hidden" name="intent" value="pick" />
                  <input type="hidden" name="slot" value={slot} />
                  <input type="hidden" name="order" value={parcel.orderNumber} />
                  <input type="hidden" name="position" value={parcel.position} />
                  <input type="hidden" name="picked" value={parcel.picked ? "0" : "1"} />
                  <button
                    type="submit"
                    aria-pressed={parcel.picked}
                    aria-label={`${parcel.picked ? m.unmarkPicked : m.markPicked} ${parcel.code ?? parcel.trackingNumber ?? ""}`}
                    className={`min-h-11 rounded-full px-3 text-sm font-medium ${parcel.picked ? "bg-green-600 text-white" : "border border-slate-300 bg-white text-slate-700"}`}
                  >
                    {parcel.picked ? `✓ ${m.picked}` : m.picked}
                  </button>
                </Form>
              </li>
            ))}
          </ol>
        </section>
      ))}
    </Page>
  );
}
