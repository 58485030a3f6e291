// /admin/run — a rider's own run, phone first: big buttons, no table, no JavaScript (decision
// 038). ① the parcels still to pick, by pickup station, each with its 已取到 button; ② the
// deliveries (orders with every parcel in hand) by building, then room, with the recipient's
// name, their phone's last four digits, the label's phone tail checked against it, and 确认送达
// with the student's 4-digit handover code. Any operator sees the run assigned to them; a rider
// sees nothing else of the admin pages (requireAdmin sends riders here).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Page } from "~/components/Page";
import { adminNav as adminMessages } from "~/lib/messages/adminNav";
import { app as appMessages } from "~/lib/messages/app";
import { riders as ridersMessages } from "~/lib/messages/riders";
import { groupByBuilding, groupByStation, HANDOVER_CODE_LENGTH, isRiderRole, slotPicker } from "~/lib/riders";
import { IMAGE_ACCEPT, IMAGE_MAX_BYTES } from "~/lib/forum";
import { RunActionSchema, RunPhotoSchema } from "~/lib/schemas/riders";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { setAvailability } from "~/server/riders/riders.server";
import { declaredTooLarge, isMultipart, readMultipart } from "~/server/forum/uploads.server";
import { handOverWithCode, handOverWithPhoto, markPicked, riderRun } from "~/server/riders/run.server";
import { recordRealSize } from "~/server/orders/supplements.server";
import { DEFAULT_PACKAGE_TYPES } from "~/lib/catalog";
import { formatYuan } from "~/lib/money";
import { requireOperator } from "~/server/http/guards.server";

const msg = { admin: adminMessages, app: appMessages, riders: ridersMessages };
const m = msg.riders;

export const handle = { hydrate: false };

export const meta: MetaFunction = () => [{ title: `${m.runTitle} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireOperator(request);
  const url = new URL(request.url);
  const at = new Date();
  const run = await riderRun(operator, url.searchParams.get("slot"), at);
  return {
    displayName: operator.display_name,
    isRider: isRiderRole(operator.role),
    available: operator.available === 1,
    ...slotPicker(run, at),
    stations: groupByStation(run.toPick),
    buildings: groupByBuilding(run.toDrop),
    delivered: url.searchParams.get("notice") === "delivered" ? url.searchParams.get("order") : null,
    sizes: DEFAULT_PACKAGE_TYPES.map(({ type, name }) => ({ type, name })),
  };
}

type Refusal = { order?: string; photo?: boolean; message: string };

const REASONS = {
  not_found: m.notFound,
  forbidden: m.notYours,
  not_allowed: m.notAllowed,
  not_open: m.notAllowed,
  format: m.codeFormat,
  locked: m.codeLocked,
  missing: m.codeMissing,
  not_dearer: m.notDearer,
  exists: m.supplementExists,
  no_price: m.noPrice,
  declared: m.declaredRequired,
  too_large: m.photoTooLarge,
  not_image: m.photoNotImage,
  unreadable: m.photoNotImage,
  storage: m.photoStorage,
} as const;

/** 拍照送达: a multipart form (works without JavaScript), one photo, bounded before it is read. */
async function photoAction(request: Request, operator: Awaited<ReturnType<typeof requireOperator>>, clientIp?: string) {
  if (declaredTooLarge(request, IMAGE_MAX_BYTES + 64 * 1024)) return Response.json({ message: m.photoTooLarge } satisfies Refusal, { status: 413 });
  const { formData, files } = await readMultipart(request, "photo", 1);
  const submission = parseWithZod(formData, { schema: RunPhotoSchema });
  if (submission.status !== "success") return Response.json({ message: m.notFound } satisfies Refusal, { status: 400 });
  const { order, slot } = submission.value;
  const file = files[0];
  if (!file) return Response.json({ order, photo: true, message: m.photoRequired } satisfies Refusal, { status: 400 });
  if (file.problem) return Response.json({ order, photo: true, message: m.photoTooLarge } satisfies Refusal, { status: 413 });
  // Photos cost storage: the same per-rider and per-network limit as the codes.
  const verdict = await consumeRateLimit("handover", { userId: operator.id, ip: clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return Response.json({ order, photo: true, message: refused.message } satisfies Refusal, { status: refused.status, headers: refused.headers });
  }
  const result = await handOverWithPhoto(operator, order, file.data!);
  if (!result.ok) {
    const status = result.reason === "too_large" ? 413 : result.reason === "not_image" || result.reason === "unreadable" ? 400 : result.reason === "forbidden" ? 403 : result.reason === "storage" ? 503 : 409;
    const message = result.reason === "wrong" ? m.notAllowed : REASONS[result.reason];
    return Response.json({ order, photo: true, message } satisfies Refusal, { status });
  }
  return redirect(`/admin/run?${new URLSearchParams({ ...(slot ? { slot } : {}), notice: "delivered", order }).toString()}`);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const operator = await requireOperator(request);
  if (isMultipart(request)) return photoAction(request, operator, context.clientIp);
  const submission = parseWithZod(await request.formData(), { schema: RunActionSchema });
  if (submission.status !== "success") {
    const order = submission.payload.order;
    const message = Object.values(submission.error ?? {}).find((messages) => messages?.length)?.[0] ?? m.notAllowed;
    return Response.json({ order: typeof order === "string" ? order : undefined, message } satisfies Refusal, { status: 400 });
  }
  const value = submission.value;
  const back = (extra: Record<string, string> = {}) => `/admin/run?${new URLSearchParams({ ...(value.slot ? { slot: value.slot } : {}), ...extra }).toString()}`;
  if (value.intent === "availability") {
    await setAvailability(operator, operator.id, value.available === "1");
    return redirect(back());
  }
  if (value.intent === "size") {
    const result = await recordRealSize(operator, { order: value.order, position: value.position, real: value.real, declared: value.declared ?? null });
    if (!result.ok) return Response.json({ order: value.order, message: REASONS[result.reason] } satisfies Refusal, { status: result.reason === "forbidden" ? 403 : result.reason === "not_found" ? 404 : 409 });
    return redirect(back());
  }
  if (value.intent === "pick") {
    const result = await markPicked(operator, { order: value.order, position: value.position, picked: value.picked === "1" });
    if (!result.ok) return Response.json({ order: value.order, message: REASONS[result.reason] } satisfies Refusal, { status: result.reason === "forbidden" ? 403 : 409 });
    return redirect(back());
  }
  // Guessing codes is costly: limited per rider and per client network, and per order by its own count.
  const verdict = await consumeRateLimit("handover", { userId: operator.id, ip: context.clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return Response.json({ order: value.order, message: refused.message } satisfies Refusal, { status: refused.status, headers: refused.headers });
  }
  const result = await handOverWithCode(operator, value.order, value.code);
  if (!result.ok) {
    const message = result.reason === "wrong" ? m.codeWrong.replace("{n}", String(result.attemptsLeft)) : REASONS[result.reason];
    const status = result.reason === "wrong" || result.reason === "format" ? 400 : result.reason === "forbidden" ? 403 : 409;
    return Response.json({ order: value.order, message } satisfies Refusal, { status });
  }
  return redirect(back({ notice: "delivered", order: value.order }));
}

const bigButton = "flex min-h-14 w-full items-center justify-center rounded-2xl px-4 text-lg font-semibold";

export default function RiderRun() {
  const data = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>() as Refusal | undefined;
  const slot = data.slot ?? "";
  const general = refusal && !refusal.order ? refusal.message : null;
  const codeRefusal = refusal && !refusal.photo ? refusal : undefined;
  const photoRefusal = refusal?.photo ? refusal : undefined;
  return (
    <Page title={m.runTitle}>
      <section className="card flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-semibold" data-testid="operator-name">
            {data.displayName}
          </p>
          {data.isRider ? <p className="text-sm text-slate-500">{data.available ? m.available : m.unavailable}</p> : null}
        </div>
        <Form method="post" action="/admin/logout">
          <button type="submit" className="btn-ghost min-h-11 text-red-600">
            {msg.admin.logout}
          </button>
        </Form>
      </section>
      {data.isRider ? (
        <Form method="post">
          <input type="hidden" name="intent" value="availability" />
          <input type="hidden" name="slot" value={slot} />
          <input type="hidden" name="available" value={data.available ? "0" : "1"} />
          <button type="submit" className={`${bigButton} border border-slate-300 bg-white text-slate-700`}>
            {data.available ? m.restNow : m.availableNow}
          </button>
        </Form>
      ) : null}
      {general ? (
        <p role="alert" className="rounded-xl bg-red-50 px-3 py-2 text-base text-red-700">
          {general}
        </p>
      ) : null}
      {data.delivered ? (
        <p role="status" className="rounded-xl bg-green-50 px-3 py-3 text-base font-medium text-green-700">
          {data.delivered} {m.delivered}
        </p>
      ) : null}
      {data.slot === null ? <p className="card text-center text-base text-slate-500">{m.noRun}</p> : null}
      {data.slots.length > 1 ? (
        <nav aria-label={m.slot} className="flex flex-wrap gap-2">
          {data.slots.map((option) => (
            <a
              key={option.value}
              href={`/admin/run?slot=${encodeURIComponent(option.value)}`}
              aria-current={option.value === slot ? "page" : undefined}
              className={`inline-flex min-h-11 items-center rounded-full px-4 text-base ${option.value === slot ? "bg-brand text-white" : "bg-white text-slate-700 shadow-sm"}`}
            >
              {option.label}
            </a>
          ))}
        </nav>
      ) : null}
      {data.slot ? (
        <>
          <h2 className="pt-2 text-xl font-bold">
            {m.toPick} <span className="text-base font-normal text-slate-500">{data.slotLabel}</span>
          </h2>
          {data.stations.length === 0 ? <p className="card text-base text-slate-500">{m.nothingToPick}</p> : null}
          {data.stations.map((group) => (
            <section key={group.station} aria-label={group.station} className="space-y-2">
              <h3 className="text-lg font-semibold">
                {group.station} <span className="text-base font-normal text-slate-500">{m.parcelsCount.replace("{n}", String(group.parcels.length))}</span>
              </h3>
              {group.deadlines.map((deadline) => (
                <p key={deadline} className="text-base font-medium text-red-600">
                  {m.deadline.replace("{deadline}", deadline)}
                </p>
              ))}
              {group.parcels.map((parcel) => (
                <article key={`${parcel.orderNumber}-${parcel.position}`} className="card space-y-2" data-testid="run-parcel">
                  <p className="font-mono text-3xl font-bold tracking-wider">{parcel.code ?? parcel.trackingNumber}</p>
                  <p className="text-base text-slate-600">
                    {parcel.company} · {parcel.sizeCertain ? parcel.size : m.sizeOfOrder.replace("{sizes}", parcel.size)}
                  </p>
                  <p className="font-mono text-sm text-slate-500">{parcel.orderNumber}</p>
                  {refusal?.order === parcel.orderNumber ? (
                    <p role="alert" className="text-base text-red-600">
                      {refusal.message}
                    </p>
                  ) : null}
                  {parcel.supplement ? (
                    <p className="rounded-xl bg-amber-50 px-3 py-2 text-base text-amber-900" data-testid="run-supplement">
                      {(parcel.supplement.state === "paid" ? m.supplementPaid : m.supplementOffered).replace("{amount}", formatYuan(parcel.supplement.amountFen, { style: "amount", symbol: true }))}
                    </p>
                  ) : (
                    <details className="rounded-xl border border-slate-200 px-3 py-2">
                      <summary className="min-h-11 cursor-pointer py-2 text-base text-slate-700">{m.recordSize}</summary>
                      <Form method="post" className="space-y-2 pb-2" aria-label={`${m.recordSize} ${parcel.code ?? parcel.trackingNumber ?? ""}`}>
                        <input type="hidden" name="intent" value="size" />
                        <input type="hidden" name="slot" value={slot} />
                        <input type="hidden" name="order" value={parcel.orderNumber} />
                        <input type="hidden" name="position" value={parcel.position} />
                        <p className="text-sm text-slate-500">{m.realSizeHint}</p>
                        {parcel.sizeCertain ? null : <SizeSelect name="declared" label={m.declaredSize} sizes={data.sizes} />}
                        <SizeSelect name="real" label={m.realSize} sizes={data.sizes} />
                        <button type="submit" className={`${bigButton} border border-amber-400 bg-white text-amber-800`}>
                          {m.recordSize}
                        </button>
                      </Form>
                    </details>
                  )}
                  <Form method="post">
                    <input type="hidden" name="intent" value="pick" />
                    <input type="hidden" name="slot" value={slot} />
                    <input type="hidden" name="order" value={parcel.orderNumber} />
                    <input type="hidden" name="position" value={parcel.position} />
                    <input type="hidden" name="picked" value={parcel.picked ? "0" : "1"} />
                    <button
                      type="submit"
                      aria-pressed={parcel.picked}
                      aria-label={`${parcel.picked ? m.unmarkPicked : m.markPicked} ${parcel.code ?? parcel.trackingNumber ?? ""}`}
                      className={`${bigButton} ${parcel.picked ? "bg-green-600 text-white" : "bg-brand text-white"}`}
                    >
                      {parcel.picked ? `✓ ${m.picked}` : m.markPicked}
                    </button>
                  </Form>
                </article>
              ))}
            </section>
          ))}
          <h2 className="pt-4 text-xl font-bold">{m.toDrop}</h2>
          {data.buildings.length === 0 ? <p className="card text-base text-slate-500">{m.nothingToDrop}</p> : null}
          {data.buildings.map((building) => (
            <section key={building.building} aria-label={building.building} className="space-y-2">
              <h3 className="text-lg font-semibold">{building.building}</h3>
              {building.rooms.map((room) =>
                room.orders.map((order) => (
                  <article key={order.orderNumber} className="card space-y-3" data-testid="run-drop">
                    <div>
                      <p className="text-2xl font-bold">{room.room}</p>
                      <p className="text-lg">
                        {order.recipientName} <span className="text-slate-500">{order.phoneTail ? m.phoneTailLabel.replace("{tail}", order.phoneTail) : null}</span>
                      </p>
                      <p className="font-mono text-sm text-slate-500">{order.orderNumber}</p>
                    </div>
                    {order.check.state === "match" ? (
                      <p className="rounded-xl bg-green-50 px-3 py-2 text-base text-green-700">{m.labelMatches.replace("{tail}", order.check.tail)}</p>
                    ) : order.check.state === "mismatch" ? (
                      <p role="alert" className="rounded-xl bg-amber-100 px-3 py-2 text-base font-medium text-amber-900" data-testid="recipient-mismatch">
                        ⚠ {m.labelMismatch.replace("{label}", order.check.labelTail).replace("{order}", order.check.orderTail ?? "—")}
                      </p>
                    ) : null}
                    <Form method="post" className="space-y-2" aria-label={`${m.handOver} ${order.orderNumber}`}>
                      <input type="hidden" name="intent" value="handover" />
                      <input type="hidden" name="slot" value={slot} />
                      <input type="hidden" name="order" value={order.orderNumber} />
                      <label htmlFor={`code-${order.orderNumber}`} className="field-label text-base">
                        {m.handoverCode}
                      </label>
                      <input
                        id={`code-${order.orderNumber}`}
                        name="code"
                        inputMode="numeric"
                        autoComplete="off"
                        maxLength={HANDOVER_CODE_LENGTH}
                        pattern="[0-9]*"
                        className="field-input text-center font-mono text-3xl tracking-[0.5em]"
                        aria-describedby={`code-${order.orderNumber}-hint${codeRefusal?.order === order.orderNumber ? ` code-${order.orderNumber}-error` : ""}`}
                        aria-invalid={codeRefusal?.order === order.orderNumber ? true : undefined}
                      />
                      <p id={`code-${order.orderNumber}-hint`} className="text-sm text-slate-500">
                        {m.handoverCodeHint}
                      </p>
                      {codeRefusal?.order === order.orderNumber ? (
                        <p id={`code-${order.orderNumber}-error`} role="alert" className="text-base font-medium text-red-600">
                          {codeRefusal.message}
                        </p>
                      ) : null}
                      <button type="submit" className={`${bigButton} bg-green-600 text-white`}>
                        {m.handOver}
                      </button>
                    </Form>
                    <Form method="post" encType="multipart/form-data" className="space-y-2 border-t border-slate-200 pt-3" aria-label={`${m.handOverPhoto} ${order.orderNumber}`}>
                      <input type="hidden" name="intent" value="photo" />
                      <input type="hidden" name="slot" value={slot} />
                      <input type="hidden" name="order" value={order.orderNumber} />
                      <label htmlFor={`photo-${order.orderNumber}`} className="field-label text-base">
                        {m.photoOr} {m.photo}
                      </label>
                      <input
                        id={`photo-${order.orderNumber}`}
                        name="photo"
                        type="file"
                        accept={IMAGE_ACCEPT}
                        capture="environment"
                        required
                        className="block w-full text-base file:mr-3 file:min-h-11 file:rounded-xl file:border-0 file:bg-slate-100 file:px-4 file:text-base file:text-slate-700"
                        aria-describedby={`photo-${order.orderNumber}-hint${photoRefusal?.order === order.orderNumber ? ` photo-${order.orderNumber}-error` : ""}`}
                        aria-invalid={photoRefusal?.order === order.orderNumber ? true : undefined}
                      />
                      <p id={`photo-${order.orderNumber}-hint`} className="text-sm text-slate-500">
                        {m.photoHint}
                      </p>
                      {photoRefusal?.order === order.orderNumber ? (
                        <p id={`photo-${order.orderNumber}-error`} role="alert" className="text-base font-medium text-red-600">
                          {photoRefusal.message}
                        </p>
                      ) : null}
                      <button type="submit" className={`${bigButton} border border-slate-300 bg-white text-slate-700`}>
                        {m.handOverPhoto}
                      </button>
                    </Form>
                  </article>
                )),
              )}
            </section>
          ))}
        </>
      ) : null}
    </Page>
  );
}

/** One of the parcel sizes, none chosen at first: the declared one (when the SMS did not say) or the real one. */
function SizeSelect({ name, label, sizes }: { name: "declared" | "real"; label: string; sizes: { type: string; name: string }[] }) {
  return (
    <label className="block text-base">
      {label}
      <select name={name} className="field-input mt-1 min-h-11 text-base" required defaultValue="">
        <option value="" disabled>
          —
        </option>
        {sizes.map((size) => (
          <option key={size.type} value={size.type}>
            {size.name}
          </option>
        ))}
      </select>
    </label>
  );
}
