// The supplement's pay flow as the order page's JavaScript runs it in the messenger: the form
// action's JSON answer, the pay parameters handed to the messenger's bridge, and where the page
// goes next. The bridge and fetch are stand-ins on the globals the browser would have.
import { afterEach, describe, expect, it, vi } from "vitest";
import { runSupplementPayment } from "./pay-flow";

const PARAMS = { appId: "wx123", timeStamp: "1700000000", nonceStr: "n0nce", package: "prepay_id=wx201", signType: "RSA", paySign: "c2lnbg==" };
const MESSENGER_UA = "Mozilla/5.0 (Linux; Android 13) AppleWebKit/537.36 Mobile Safari/537.36 MicroMessenger/8.0.49";

function stand(answer: Record<string, unknown>, bridgeSays = "get_brand_wcpay_request:ok") {
  const posted: { url: string; init: RequestInit }[] = [];
  const invoked: unknown[][] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit) => {
    posted.push({ url, init });
    return Response.json(answer, { status: "payParams" in answer ? 200 : 409 });
  });
  vi.stubGlobal("navigator", { userAgent: MESSENGER_UA });
  vi.stubGlobal("window", {
    WeixinJSBridge: {
      invoke(name: string, params: unknown, callback: (result: { err_msg: string }) => void) {
        invoked.push([name, params]);
        callback({ err_msg: bridgeSays });
      },
    },
  });
  return { posted, invoked };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("runSupplementPayment", () => {
  it("asks the action for JSON, hands the parameters to the bridge, then goes where the action said", async () => {
    const { posted, invoked } = stand({ payParams: PARAMS, simulated: false, to: "/express/orders/E20261129000001?supplement=paying" });
    const outcome = await runSupplementPayment("/express/orders/E20261129000001/supplement");
    expect(outcome).toEqual({ kind: "go", to: "/express/orders/E20261129000001?supplement=paying" });
    expect(posted).toHaveLength(1);
    expect(posted[0]!.url).toBe("/express/orders/E20261129000001/supplement");
    expect(new Headers(posted[0]!.init.headers).get("Accept")).toBe("application/json");
    expect(String(posted[0]!.init.body)).toBe("intent=supplement-accept");
    expect(invoked).toEqual([["getBrandWCPayRequest", PARAMS]]);
  });

  it("stays on the page when the payer cancels in the bridge", async () => {
    stand({ payParams: PARAMS, simulated: false, to: "/express/orders/E20261129000001?supplement=paying" }, "get_brand_wcpay_request:cancel");
    expect(await runSupplementPayment("/express/orders/E20261129000001/supplement")).toMatchObject({ kind: "cancelled" });
  });

  it("goes to the page's refusal without touching the bridge, and refuses a place that is not ours", async () => {
    const refused = stand({ to: "/express/orders/E20261129000001?supplement=gone" });
    expect(await runSupplementPayment("/express/orders/E20261129000001/supplement")).toEqual({ kind: "go", to: "/express/orders/E20261129000001?supplement=gone" });
    expect(refused.invoked).toEqual([]);
    vi.unstubAllGlobals();
    stand({ payParams: PARAMS, simulated: false, to: "//evil.example/" });
    expect(await runSupplementPayment("/express/orders/E20261129000001/supplement")).toMatchObject({ kind: "failed" });
  });

  it("names a missing pay parameter instead of calling the bridge", async () => {
    const { invoked } = stand({ payParams: { ...PARAMS, paySign: "" }, simulated: false, to: "/express/orders/E20261129000001?supplement=paying" });
    const outcome = await runSupplementPayment("/express/orders/E20261129000001/supplement");
    expect(outcome).toMatchObject({ kind: "failed", message: expect.stringContaining("paySign") });
    expect(invoked).toEqual([]);
  });
});
