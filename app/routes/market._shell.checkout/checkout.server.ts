// /market/checkout's data and intents: the order-confirm sheet (its coupon dialog when
// ?sheet=coupon) and what it posts — open-checkout (the list's confirm button), count, remark, pay.
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { marketHref } from "~/lib/market-url";
import type { MarketActionData } from "~/lib/market-views";
import { marketMessages } from "~/lib/messages/market-answers";
import { totalParcels } from "~/lib/package-counts";
import { CheckoutIntentSchema, RemarkSchema } from "~/lib/schemas/market";
import { fillTemplate } from "~/lib/service-hours";
import { COUPON_DIALOG_PATH, COUPON_SHEET } from "../market._shell/coupon-parts.server";
import { CheckoutConflictError } from "~/server/market/checkout.server";
import { setRemark, stepPackage } from "~/server/market/checkout-edits.server";
import { subscribeWidgetState } from "~/server/notify/subscribe.server";
import type { SubscribeButtonView } from "~/components/market/SubscribeButton";
import { notify } from "~/lib/messages/notify";
import { subscribeHref, type WidgetState } from "~/lib/notify";
import { orderCreateRefusal } from "~/server/http/order-refusals";
import { createOrderFromCheckout } from "~/server/orders/orders.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { requireCheckout } from "../market._shell/guards.server";

const m = marketMessages;
const answer = (data: MarketActionData, init?: ResponseInit) => json(data, init);

/** Only with parcels ('请先识别快递信息' otherwise). */
export async function checkoutLoader(request: Request) {
  const { user, checkout } = await requireCheckout(request);
  if (checkout.entries.length === 0) throw redirect("/market?sheetError=empty");
  // The coupon detail dialog's older address.
  if (new URL(request.url).searchParams.get("sheet") === COUPON_SHEET) throw redirect(COUPON_DIALOG_PATH);
  return {
    // The notifications issue's subscribe button: "tell me when my parcels arrive".
    subscribe: subscribeButton(await subscribeWidgetState(user, "EXPRESS_DELIVERY", request)),
    // The remark form's constraints, from the schema the action validates with (zod stays on the server).
    remarkConstraint: getZodConstraint(RemarkSchema),
  };
}

/** The subscribe widget's "button" mode as data: texts and link filled in here, not in the bundle. */
function subscribeButton(state: WidgetState | null): SubscribeButtonView | null {
  if (!state) return null;
  const t = notify.subscribe;
  const subscribed = state.status === "subscribed";
  const notice = state.notice && state.notice !== "ok" ? state.notice : null;
  return {
    subscribed,
    href: subscribed ? null : subscribeHref(state.templateKey, state.returnTo),
    label: subscribed ? t.subscribed : t.subscribeLong,
    title: subscribed ? t.subscribedHint : t.templates[state.templateKey].description,
    notice: notice ? (notice === "cancel" ? { text: t.cancelled, tone: "cancel" } : { text: t.errors[notice], tone: "error" }) : null,
  };
}

export async function checkoutAction(request: Request, clientIp?: string) {
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const submission = parseWithZod(formData, { schema: CheckoutIntentSchema });
  if (submission.status !== "success") {
    const first = Object.values(submission.error ?? {}).flat()[0];
    return answer({ intent, error: first ?? m.recognize.badFormat, result: submission.reply() }, { status: 400 });
  }
  const value = submission.value;
  const { user, config, checkout } = await requireCheckout(request);
  const types = config.packageTypes;
  try {
    switch (value.intent) {
      case "open-checkout":
        if (checkout.entries.length === 0) return answer({ intent, error: m.checkout.emptyList });
        // A screenshot read the student has not checked is never billed silently (decision 034).
        if (checkout.entries.some((entry) => entry.check)) return answer({ intent, error: m.checkout.checkFirst });
        return redirect(marketHref({ sheet: "confirm" }));
      case "count": {
        const result = await stepPackage(user.id, types, value.type, value.direction);
        if (result.ok) return answer({ intent });
        const name = types.find((t) => t.type === value.type)?.name ?? value.type;
        if (result.reason === "zero") return answer({ intent, error: fillTemplate(m.checkout.zero, { name }) });
        if (result.reason === "limit") return answer({ intent, error: fillTemplate(m.checkout.limit, { count: totalParcels(result.counts) }) });
        return answer({ intent, error: m.recognize.badFormat }, { status: 400 });
      }
      case "remark":
        await setRemark(user.id, types, value.remark);
        return answer({ intent, notice: m.entry.saved, result: submission.reply() });
      case "pay": {
        if (checkout.entries.some((entry) => entry.check)) return answer({ intent, error: m.checkout.checkFirst });
        // Order creation is rate-limited; the checkout checks happen in createOrderFromCheckout.
        const verdict = await consumeRateLimit("order", { userId: user.id, ip: clientIp });
        if (!verdict.ok) {
          const refused = tooMany(verdict);
          return answer({ intent, error: refused.message }, { status: refused.status, headers: refused.headers });
        }
        // Orders: the order is made from this checkout (prices recomputed, one order per
        // checkout version; the same version again answers the order it made), then paid on
        // /market/pay/:orderId, whose JavaScript goes straight on.
        const created = await createOrderFromCheckout(user, config.campusCode, { checkoutId: value.checkoutId, version: value.version, priceVersion: value.priceVersion });
        if (!created.ok) {
          const refused = orderCreateRefusal(created);
          return answer({ intent, error: refused.message, liveOrder: created.liveOrder }, { status: refused.status });
        }
        return redirect(`/market/pay/${created.orderNumber}?start=1`);
      }
    }
  } catch (error) {
    if (error instanceof CheckoutConflictError) return answer({ intent, error: m.checkout.stale }, { status: 409 });
    throw error;
  }
}
