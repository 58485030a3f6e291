// The simulated provider (development only: pays 1.5 s after the pay params) and the choice of
// provider by config().pay.mode.
import crypto from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { checkPayParams } from "~/lib/pay-params";
import { resetConfig } from "../config.server";
import { PayError } from "./errors.server";
import { createSimulatedProvider, isSimulatedPayment, paymentProvider, rfc3339Shanghai, type PaymentProvider } from "./provider.server";
import { SIMULATED_PAY_DELAY_MS, newSimulatedStore } from "./simulated.server";
import { payError } from "../../../tests/setup/pay";

const input = (outTradeNo: string, amountFen = 350) => ({ outTradeNo, description: "校园帮-快递代取", amountFen, openid: "oSimulatedPayer0000000000001" });

describe("the simulated provider", () => {
  let clock = Date.UTC(2025, 0, 1, 4, 0, 0);
  const now = () => clock;
  const make = () => createSimulatedProvider({ store: newSimulatedStore(), now });

  it("pays 1.5 s after the pay params were issued, not before", async () => {
    const provider = make();
    const { prepayId } = await provider.createJsapi(input("E20250101000001"));
    expect(prepayId).toMatch(/^wx_sim_[0-9a-f]{24}$/);
    expect(await provider.query("E20250101000001")).toEqual({ state: "NOTPAY" });
    clock += 10_000; // no pay params yet: nobody pays
    expect((await provider.query("E20250101000001")).state).toBe("NOTPAY");

    const params = provider.payParams(prepayId);
    expect(checkPayParams(params).ok).toBe(true);
    expect(params).toMatchObject({ package: `prepay_id=${prepayId}`, signType: "RSA" });
    clock += SIMULATED_PAY_DELAY_MS - 1;
    expect((await provider.query("E20250101000001")).state).toBe("NOTPAY");
    provider.payParams(prepayId); // asking again does not restart the 1.5 s
    clock += 1;
    const paid = await provider.query("E20250101000001");
    expect(paid).toMatchObject({ state: "SUCCESS", amountFen: 350, payerOpenid: "oSimulatedPayer0000000000001" });
    expect(paid.transactionId).toMatch(/^SIM\d+/);
    expect(await provider.query("E20250101000001")).toEqual(paid);
  });

  it("answers the same prepay id for the same input; refuses another amount, a paid or a closed order", async () => {
    const provider = make();
    const first = await provider.createJsapi(input("E20250101000002"));
    expect(await provider.createJsapi(input("E20250101000002"))).toEqual(first);
    expect((await payError(provider.createJsapi(input("E20250101000002", 351)))).code).toBe("DUPLICATE");
    await provider.close("E20250101000002");
    expect((await provider.query("E20250101000002")).state).toBe("CLOSED");
    expect((await payError(provider.createJsapi(input("E20250101000002")))).code).toBe("ORDER_CLOSED");

    const { prepayId } = await provider.createJsapi(input("E20250101000003"));
    provider.payParams(prepayId);
    clock += SIMULATED_PAY_DELAY_MS;
    expect((await payError(provider.close("E20250101000003"))).code).toBe("ORDER_PAID");
    expect((await payError(provider.createJsapi(input("E20250101000003")))).code).toBe("ORDER_PAID");
  });

  it("refunds at once, once per refund number, never more than was paid", async () => {
    const provider = make();
    const { prepayId } = await provider.createJsapi(input("E20250101000004", 500));
    expect((await payError(provider.refund({ outTradeNo: "E20250101000004", outRefundNo: "RE20250101000004", refundFen: 500, totalFen: 500 }))).code).toBe(
      "REJECTED",
    );
    provider.payParams(prepayId);
    clock += SIMULATED_PAY_DELAY_MS;
    const refund = await provider.refund({ outTradeNo: "E20250101000004", outRefundNo: "RE20250101000004", refundFen: 500, totalFen: 500, reason: "取消" });
    expect(refund).toMatchObject({ status: "SUCCESS", outRefundNo: "RE20250101000004", outTradeNo: "E20250101000004", refundFen: 500 });
    expect(await provider.refund({ outTradeNo: "E20250101000004", outRefundNo: "RE20250101000004", refundFen: 500, totalFen: 500 })).toEqual(refund);
    expect(await provider.queryRefund("RE20250101000004")).toEqual(refund);
    expect((await provider.query("E20250101000004")).state).toBe("REFUND");
    expect((await payError(provider.refund({ outTradeNo: "E20250101000004", outRefundNo: "RE20250101000004b", refundFen: 1, totalFen: 500 }))).code).toBe(
      "REJECTED",
    );
    expect((await payError(provider.queryRefund("R-unknown"))).code).toBe("NOT_FOUND");
  });

  it("knows no order it did not create, and accepts no notification", async () => {
    const provider = make();
    expect((await payError(provider.query("E20250101999999"))).code).toBe("NOT_FOUND");
    expect(() => provider.payParams("wx_sim_unknown")).toThrowError(PayError);
    await expect(provider.parseNotification({}, "{}")).rejects.toMatchObject({ name: "NotificationError", code: "BAD_SIGNATURE" });
  });

  it("checks input as the real one does", async () => {
    const provider = make();
    expect((await payError(provider.createJsapi(input("E1")))).code).toBe("INVALID_INPUT");
    expect((await payError(provider.createJsapi(input("E20250101000005", -1)))).code).toBe("INVALID_INPUT");
  });
});

describe("choosing the provider", () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
    resetConfig();
  });

  it("is the simulated provider outside production without a merchant, one per configuration", () => {
    resetConfig();
    const provider = paymentProvider();
    expect(provider?.kind).toBe("simulated");
    expect(paymentProvider()).toBe(provider);
    expect(isSimulatedPayment()).toBe(true);
  });

  it("keeps simulated payments across a new configuration of the same process", async () => {
    resetConfig();
    const first = paymentProvider()!;
    const outTradeNo = `E20250101${crypto.randomInt(10 ** 6).toString().padStart(6, "0")}`;
    const { prepayId } = await first.createJsapi(input(outTradeNo));
    resetConfig();
    const second = paymentProvider()!;
    expect(second).not.toBe(first);
    expect(await second.createJsapi(input(outTradeNo))).toEqual({ prepayId });
  });

  it("is none in production without a merchant, and the simulated one refuses to exist there", () => {
    process.env.NODE_ENV = "production";
    resetConfig();
    expect(paymentProvider()).toBeNull();
    expect(isSimulatedPayment()).toBe(false);
    let error: unknown;
    try {
      createSimulatedProvider();
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ name: "PayError", code: "NOT_CONFIGURED" });
  });

  it("is the real provider with a merchant", () => {
    const merchant = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const platform = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    Object.assign(process.env, {
      WECHAT_APP_ID: "wx0123456789abcdef",
      WECHAT_PAY_MCHID: "1900000109",
      WECHAT_PAY_SERIAL_NO: "0123456789ABCDEF0123456789ABCDEF01234567",
      WECHAT_PAY_PRIVATE_KEY: merchant.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      WECHAT_PAY_API_V3_KEY: "0123456789abcdef0123456789abcdef",
      WECHAT_PAY_PLATFORM_PUBLIC_KEY: platform.publicKey.export({ type: "spki", format: "pem" }).toString(),
      WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID: "PUB_KEY_ID_0000000000000000000000000000",
      WECHAT_PAY_NOTIFY_URL: "https://campus.example.cn/api/pay/wechat/notify",
    });
    resetConfig();
    const provider: PaymentProvider | null = paymentProvider();
    expect(provider?.kind).toBe("wechatpay");
    expect(provider!.payParams("wx123").appId).toBe("wx0123456789abcdef");
  });
});

describe("time_expire", () => {
  it.each([
    [new Date("2025-01-01T16:30:05.999Z"), "2025-01-02T00:30:05+08:00"],
    [new Date("2025-06-30T00:00:00Z"), "2025-06-30T08:00:00+08:00"],
  ])("%s → %s", (at, text) => {
    expect(rfc3339Shanghai(at)).toBe(text);
  });
});
