// The pay flow of the page's JavaScript (docs/product-rules.md, "Order flow"): create the payment, invoke
// the messenger's pay bridge (or, with the simulated provider of development, let it pay by itself
// 1.5 s later), then poll the payment status up to 10 times, 1 s apart, and proceed even on a
// time-out. The browser's 'ok' is only a hint: the server marks the order paid on a verified
// notification or query, which the status poll triggers.
import { pay as payMessages } from "~/lib/messages/pay";
import { checkPayParams, type PayParams } from "~/lib/pay-params";

const msg = { pay: payMessages };

export const PAY_POLL_TRIES = 10;
export const PAY_POLL_INTERVAL_MS = 1000;
export const SIMULATED_PAY_WAIT_MS = 1500;

export type PayStage = "creating" | "paying" | "checking";

export type PayOutcome =
  | { kind: "paid" }
  /** The poll timed out: the order may still become paid (notification, a later query). */
  | { kind: "pending" }
  | { kind: "cancelled"; message: string }
  | { kind: "failed"; message: string; alreadyPaid?: boolean };

type BridgeResult = { err_msg?: string; errMsg?: string };
type Bridge = { invoke(name: string, params: PayParams, callback: (result: BridgeResult) => void): void };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function bridgeNow(): Bridge | undefined {
  return (window as unknown as { WeixinJSBridge?: Bridge }).WeixinJSBridge;
}

/** The bridge, waiting for WeixinJSBridgeReady when the page is early. */
async function waitForBridge(timeoutMs = 3000): Promise<Bridge | undefined> {
  const ready = bridgeNow();
  if (ready) return ready;
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      document.removeEventListener("WeixinJSBridgeReady", done);
      resolve(bridgeNow());
    };
    const timer = setTimeout(done, timeoutMs);
    document.addEventListener("WeixinJSBridgeReady", done);
  });
}

async function invokeBridge(params: PayParams): Promise<PayOutcome | null> {
  if (!/MicroMessenger/i.test(navigator.userAgent)) return { kind: "failed", message: msg.pay.openInMessenger };
  const bridge = await waitForBridge();
  if (!bridge) return { kind: "failed", message: msg.pay.bridgeUnavailable };
  const result = await new Promise<BridgeResult>((resolve) => bridge.invoke("getBrandWCPayRequest", params, resolve));
  const text = `${result.err_msg ?? result.errMsg ?? ""}`.toLowerCase();
  if (text.endsWith(":ok")) return null;
  if (text.endsWith(":cancel")) return { kind: "cancelled", message: msg.pay.cancelled };
  if (text.includes("permission") || text.includes("access denied") || text.includes("access_denied")) {
    return { kind: "failed", message: msg.pay.permissionDenied };
  }
  return { kind: "failed", message: msg.pay.failed };
}

async function json(response: Response): Promise<Record<string, unknown>> {
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** Polls until the server says paid; 'pending' after the last try. */
export async function pollPayment(orderNumber: string): Promise<PayOutcome> {
  for (let attempt = 0; attempt < PAY_POLL_TRIES; attempt += 1) {
    try {
      const response = await fetch(`/api/express/orders/${encodeURIComponent(orderNumber)}/payment-status`, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      const body = await json(response);
      const data = body.data as { paid?: boolean } | undefined;
      if (data?.paid) return { kind: "paid" };
    } catch {
      // a lost poll: try again
    }
    if (attempt < PAY_POLL_TRIES - 1) await sleep(PAY_POLL_INTERVAL_MS);
  }
  return { kind: "pending" };
}

/** The whole flow for an order that exists and is unpaid. */
export async function runPayment(orderNumber: string, onStage: (stage: PayStage) => void = () => {}): Promise<PayOutcome> {
  onStage("creating");
  let body: Record<string, unknown>;
  try {
    const response = await fetch("/api/pay/wechat/create-payment", {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ order_id: orderNumber }),
    });
    body = await json(response);
  } catch {
    return { kind: "failed", message: msg.pay.createFailed };
  }
  const data = (body.data ?? {}) as { pay_params?: unknown; simulated?: boolean; paid?: boolean };
  if (body.success !== true) {
    if (data.paid) return { kind: "paid" };
    return { kind: "failed", message: typeof body.message === "string" ? body.message : msg.pay.createFailed };
  }
  const checked = checkPayParams(data.pay_params);
  if (!checked.ok) return { kind: "failed", message: checked.message };

  onStage("paying");
  if (data.simulated) {
    // Outside the messenger, development: the simulated provider pays 1.5 s after the params.
    await sleep(SIMULATED_PAY_WAIT_MS);
  } else {
    const refused = await invokeBridge(checked.params);
    if (refused) return refused;
  }
  onStage("checking");
  return pollPayment(orderNumber);
}

/**
 * A supplement's payment (the order page's 补差价, its own trade): the page's form action answers
 * its pay parameters (JSON), the bridge pays (or, simulated, the provider pays by itself), and the
 * page goes where the action said — reloading as paying, its loader asking the provider. A refusal
 * also answers where to go (the page words it); a cancelled or failed bridge stays on the page.
 */
export async function runSupplementPayment(action: string): Promise<{ kind: "go"; to: string } | Extract<PayOutcome, { kind: "cancelled" | "failed" }>> {
  let body: { payParams?: unknown; simulated?: boolean; to?: unknown };
  try {
    const response = await fetch(action, {
      method: "POST",
      headers: { Accept: "application/json" },
      credentials: "same-origin",
      body: new URLSearchParams({ intent: "supplement-accept" }),
    });
    body = await json(response);
  } catch {
    return { kind: "failed", message: msg.pay.createFailed };
  }
  // Only a path of ours.
  if (typeof body.to !== "string" || !body.to.startsWith("/") || body.to.startsWith("//")) return { kind: "failed", message: msg.pay.createFailed };
  if (body.payParams === undefined) return { kind: "go", to: body.to };
  const checked = checkPayParams(body.payParams);
  if (!checked.ok) return { kind: "failed", message: checked.message };
  if (body.simulated) await sleep(SIMULATED_PAY_WAIT_MS);
  else {
    const refused = await invokeBridge(checked.params);
    if (refused?.kind === "cancelled" || refused?.kind === "failed") return refused;
  }
  return { kind: "go", to: body.to };
}
