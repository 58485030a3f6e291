// /admin/riders — the roster: each rider's name, phone, availability and open orders, a switch
// for availability, and the form that adds a rider (an operator account with the role 'rider',
// who signs in at /admin/login and lands on /admin/run). Admin role only; server-rendered, no
// JavaScript (decision 038); every change is in /admin/audit.
import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminNav } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { AdminRoleBoundary, type Constraints } from "~/components/admin/ReferenceParts";
import { FieldError, FormError } from "~/components/FieldError";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { riders as ridersMessages } from "~/lib/messages/riders";
import { RiderRosterSchema } from "~/lib/schemas/riders";
import { requireAdminPage } from "~/server/http/admin-guard";
import { createRider, listRiders, setAvailability } from "~/server/riders/riders.server";

const msg = { app: appMessages, riders: ridersMessages };
const m = msg.riders;

export const handle = { hydrate: false };

export const meta: MetaFunction = () => [{ title: `${m.rosterTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdminPage(request);
  return {
    displayName: operator.display_name,
    riders: await listRiders(),
    constraint: getZodConstraint(RiderRosterSchema.options[0]) as Constraints,
    created: new URL(request.url).searchParams.get("notice") === "created",
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdminPage(request);
  const submission = parseWithZod(await request.formData(), { schema: RiderRosterSchema });
  if (submission.status !== "success") return Response.json(submission.reply({ hideFields: ["password"] }), { status: 400 });
  const value = submission.value;
  if (value.intent === "create") {
    const result = await createRider(operator, value);
    if (!result.ok) {
      const fieldErrors = result.reason === "taken" ? { username: [m.usernameTaken] } : undefined;
      return Response.json(submission.reply({ hideFields: ["password"], ...(fieldErrors ? { fieldErrors } : { formErrors: [m.adminOnly] }) }), { status: result.reason === "taken" ? 409 : 403 });
    }
    return redirect("/admin/riders?notice=created");
  }
  const result = await setAvailability(operator, value.rider, value.available === "1");
  if (!result.ok) return Response.json(submission.reply({ formErrors: [m.riderNotFound] }), { status: 404 });
  return redirect("/admin/riders");
}

export const ErrorBoundary = AdminRoleBoundary;

export default function AdminRiders() {
  const { displayName, riders, constraint, created } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const [form, fields] = useForm({ id: "create-rider", lastResult: reply, constraint, shouldValidate: "onSubmit" });
  return (
    <Page title={m.rosterTitle} back="/admin/orders">
      <OperatorBar displayName={displayName} current="orders" />
      <AdminNav current="riders" />
      {created ? (
        <p role="status" className="rounded-xl bg-green-50 px-3 py-2 text-sm text-green-700">
          {m.created}
        </p>
      ) : null}
      {riders.length === 0 ? <p className="card text-center text-sm text-slate-500">{m.noRiders}</p> : null}
      <ul className="space-y-3" aria-label={m.rosterTitle}>
        {riders.map((rider) => (
          <li key={rider.id} className="card flex items-center gap-3" data-testid="rider">
            <div className="min-w-0 flex-1">
              <p className="text-base font-semibold">{rider.displayName}</p>
              <p className="text-sm text-slate-500">
                {rider.phone ? <a href={`tel:${rider.phone}`} className="text-brand underline">{rider.phone}</a> : null}
                <span className="ml-2 font-mono text-xs">{rider.username}</span>
              </p>
              <p className="mt-1 flex flex-wrap gap-2 text-xs">
                <span className={`rounded-full px-2 py-0.5 ${rider.disabled ? "bg-slate-200 text-slate-600" : rider.available ? "bg-green-100 text-green-700" : "bg-amber-100 text-amber-800"}`}>
                  {rider.disabled ? m.disabled : rider.available ? m.available : m.unavailable}
                </span>
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-slate-600">{m.openOrders.replace("{n}", String(rider.openOrders))}</span>
              </p>
            </div>
            {rider.disabled ? null : (
              <Form method="post">
                <input type="hidden" name="intent" value="availability" />
                <input type="hidden" name="rider" value={rider.id} />
                <input type="hidden" name="available" value={rider.available ? "0" : "1"} />
                <button type="submit" className="btn-ghost min-h-11">
                  {rider.available ? m.setUnavailable : m.setAvailable}
                </button>
              </Form>
            )}
          </li>
        ))}
      </ul>
      <section className="card space-y-3">
        <h2 className="text-base font-semibold">{m.addRider}</h2>
        <Form method="post" {...getFormProps(form)} className="space-y-3" aria-label={m.addRider}>
          <input type="hidden" name="intent" value="create" />
          <FormError id={form.errorId} message={form.errors?.[0]} />
          {(
            [
              [fields.displayName, m.displayName, "text", "name"],
              [fields.phone, m.phone, "tel", "tel"],
              [fields.username, m.username, "text", "off"],
              [fields.password, m.initialPassword, "password", "new-password"],
            ] as const
          ).map(([field, label, type, autoComplete]) => (
            <div key={field.name}>
              <label htmlFor={field.id} className="field-label">
                {label}
              </label>
              <input className="field-input" {...getInputProps(field, { type })} autoComplete={autoComplete} {...(type === "tel" ? { inputMode: "tel" as const } : {})} />
              {field.name === "password" ? <p className="mt-1 text-xs text-slate-500">{m.passwordHint}</p> : null}
              <FieldError field={field} />
            </div>
          ))}
          <button type="submit" className="btn-primary min-h-11 w-full">
            {m.create}
          </button>
        </Form>
      </section>
    </Page>
  );
}
