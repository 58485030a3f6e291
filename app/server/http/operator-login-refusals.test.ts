import { describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { fillTemplate } from "~/lib/template";
import { operatorLoginRefusal } from "./operator-login-refusals";

describe("a refused operator login, as the form words it", () => {
  it("one 400 for bad credentials, 429 with the wait in words, the captcha beside its field", () => {
    expect(operatorLoginRefusal({ ok: false, reason: "invalid" })).toEqual({ status: 400, message: msg.admin.invalidCredentials });
    expect(operatorLoginRefusal({ ok: false, reason: "limited", waitMs: 90_000 })).toEqual({ status: 429, message: fillTemplate(msg.admin.tooManyAttempts, { wait: "2 分钟" }) });
    expect(operatorLoginRefusal({ ok: false, reason: "captcha", captcha: "empty" })).toEqual({ status: 400, message: msg.admin.captchaRequired, field: "captcha" });
    expect(operatorLoginRefusal({ ok: false, reason: "captcha", captcha: "wrong" })).toEqual({ status: 400, message: msg.admin.captchaWrong, field: "captcha" });
  });
});
