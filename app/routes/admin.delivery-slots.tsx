// /admin/delivery-slots — the delivery schedule: each slot takes orders up to its
// cut-off and promises a delivery time (app/lib/delivery-slot). Each slot is its own form (save,
// delete); a new one is added below. An order keeps the delivery time it was promised. Admin
// role only; every change is in /admin/audit.
import { getFormProps } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { FieldError } from "~/components/FieldError";
import { AdminRoleBoundary, ReferenceNav, SavedNotice, Section, SubmitRow, TextField, replyFor, useReferenceForm, type Constraints, type TaggedReply } from "~/components/admin/ReferenceParts";
import { Page } from "~/components/Page";
import { adminReference as adminReferenceMessages } from "~/lib/messages/adminReference";
import { app as appMessages } from "~/lib/messages/app";
import { SlotFormSchema } from "~/lib/schemas/adminReference";
import { fillTemplate } from "~/lib/template";
import { readinessBanner } from "~/server/http/readiness-banner";
import { listSlotsForAdmin, saveSlot, type AdminSlot } from "~/server/admin/reference.server";
import { referenceAction } from "~/server/http/reference-refusals";
import { requireAdminPage } from "~/server/http/admin-guard";

const msg = { adminReference: adminReferenceMessages, app: appMessages };
const r = msg.adminReference;
type SlotFields = { orderStart: string; orderEnd: string; deliveryStart: string; deliveryEnd: string; estimated: string };

export const meta: MetaFunction = () => [{ title: `${r.slotsTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  const [slots, readiness] = await Promise.all([listSlotsForAdmin(), readinessBanner()]);
  return {
    displayName: operator.display_name,
    slots,
    readiness,
    // The schema stays on the server: the forms get its constraints as data.
    constraint: getZodConstraint(SlotFormSchema) as Constraints,
    saved: new URL(request.url).searchParams.get("notice") === "saved",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  return referenceAction(request, SlotFormSchema, saveSlot, () => "/admin/delivery-slots");
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminDeliverySlots() {
  const { displayName, slots, readiness, constraint, saved } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>() as TaggedReply | undefined;
  const busy = useNavigation().state !== "idle";
  return (
    <Page title={r.slotsTitle} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="reference" readiness={readiness} />
      <ReferenceNav current="slots" />
      <SavedNotice show={saved} />
      <p className="px-1 text-xs text-slate-500">{r.slotsHint}</p>
      {slots.length === 0 ? <p className="card text-center text-sm text-slate-500">{r.slotsEmpty}</p> : null}
      {/* A new location (a save's redirect) mounts the forms afresh: stored values, no stale message. */}
      <Fragment key={useLocation().key}>
        {slots.map((slot) => (
          <SlotForm key={slot.id} slot={slot} data={data} busy={busy} constraint={constraint} />
        ))}
        <SlotForm slot={null} data={data} busy={busy} constraint={constraint} />
      </Fragment>
    </Page>
  );
}

/** The slot's capacity per campus: one number per campus, blank for no limit. */
function CapacityForm({ slot, data, busy }: { slot: AdminSlot; data: TaggedReply | undefined; busy: boolean }) {
  const reply = replyFor(data, `capacity-${slot.id}`);
  const error = Object.values(reply?.error ?? {}).find((messages) => messages?.length)?.[0];
  const typed = reply?.initialValue as { capacities?: { capacity?: string }[] } | undefined;
  return (
    <Form method="post" className="space-y-2 rounded-xl bg-slate-50 p-3" aria-label={`${r.capacityTitle} ${fillTemplate(r.slotText, { orderStart: slot.orderStart, orderEnd: slot.orderEnd, estimated: slot.estimated })}`}>
      <input type="hidden" name="intent" value="capacity" />
      <input type="hidden" name="id" value={slot.id} />
      <p className="text-sm font-medium">{r.capacityTitle}</p>
      <p className="text-xs text-slate-500">{r.capacityHint}</p>
      {slot.capacities.map((line, index) => (
        <label key={line.campus} className="flex items-center justify-between gap-2 text-sm">
          <span>{line.name}</span>
          <input type="hidden" name={`capacities[${index}].campus`} value={line.campus} />
          <input
            type="number"
            name={`capacities[${index}].capacity`}
            min={1}
            max={999}
            inputMode="numeric"
            defaultValue={typed?.capacities?.[index]?.capacity ?? line.capacity ?? ""}
            className="field-input h-9 w-24 text-center"
          />
        </label>
      ))}
      <FieldError field={{ errors: error ? [error] : undefined }} alert />
      <button type="submit" disabled={busy} className="btn-ghost h-10 w-full">
        {r.saveCapacity}
      </button>
    </Form>
  );
}

function SlotForm({ slot, data, busy, constraint }: { slot: AdminSlot | null; data: TaggedReply | undefined; busy: boolean; constraint: Constraints }) {
  const formId = slot ? `update-${slot.id}` : "create";
  const [form, fields] = useReferenceForm<SlotFields>(formId, data, constraint, slot ?? {});
  const deleteReply = slot ? replyFor(data, `delete-${slot.id}`) : undefined;
  const deleteError = Object.values(deleteReply?.error ?? {}).find((messages) => messages?.length)?.[0];
  const title = slot ? fillTemplate(r.slotText, { orderStart: slot.orderStart, orderEnd: slot.orderEnd, estimated: slot.estimated }) : r.newSlot;
  return (
    <Section title={title}>
      <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={title}>
        <input type="hidden" name="intent" value={slot ? "update" : "create"} />
        {slot ? <input type="hidden" name="id" value={slot.id} /> : null}
        <div className="grid grid-cols-2 gap-2">
          <TextField field={fields.orderStart} label={r.orderStart} type="time" required />
          <TextField field={fields.orderEnd} label={r.orderEnd} type="time" required />
          <TextField field={fields.deliveryStart} label={r.deliveryStart} type="time" required />
          <TextField field={fields.deliveryEnd} label={r.deliveryEnd} type="time" required />
          <TextField field={fields.estimated} label={r.estimated} type="time" required />
        </div>
        <SubmitRow form={form} busy={busy}>
          {slot ? r.save : r.newSlot}
        </SubmitRow>
      </Form>
      {slot ? <CapacityForm slot={slot} data={data} busy={busy} /> : null}
      {slot ? (
        <Form method="post">
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={slot.id} />
          <FieldError field={{ errors: deleteError ? [deleteError] : undefined }} alert />
          <button type="submit" disabled={busy} className="btn-ghost h-10 w-full text-red-600" aria-label={`${r.delete} ${title}`}>
            {r.delete}
          </button>
        </Form>
      ) : null}
    </Section>
  );
}
