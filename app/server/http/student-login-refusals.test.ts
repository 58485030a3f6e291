import { describe, expect, it } from "vitest";
import * as msg from "~/lib/messages";
import { fillTemplate } from "~/lib/template";
import { studentLoginRefusal } from "./student-login-refusals";

// The refusals the login form's tests cannot reach through a school (the fakes always explain themselves).
describe("a refused student login, as the form words it", () => {
  it("says the school failed in our words when the school gave none, in its own when it did", () => {
    expect(studentLoginRefusal({ ok: false, reason: "school_failed", refreshCaptcha: true })).toMatchObject({ status: 401, message: msg.login.validationFailed });
    expect(studentLoginRefusal({ ok: false, reason: "school_captcha_required", refreshCaptcha: true })).toMatchObject({ message: msg.login.schoolCaptchaRequired });
    expect(studentLoginRefusal({ ok: false, reason: "school_failed", refreshCaptcha: true, schoolMessage: "系统维护中" })).toMatchObject({ message: "系统维护中" });
  });

  it("puts the wait in words, and the field the refusal belongs beside", () => {
    expect(studentLoginRefusal({ ok: false, reason: "too_many", field: "password", refreshCaptcha: true, waitMs: 90_000 })).toEqual({
      status: 401,
      message: fillTemplate(msg.login.tooManyAttempts, { wait: "2 分钟" }),
      field: "password",
      code: null,
    });
    expect(studentLoginRefusal({ ok: false, reason: "captcha_empty", field: "captcha", refreshCaptcha: true })).toMatchObject({ message: msg.login.captchaEmpty, field: "captcha" });
  });

  it("asks for the messenger authorization with 400 and the page's code", () => {
    expect(studentLoginRefusal({ ok: false, reason: "wechat_auth_required", refreshCaptcha: false })).toMatchObject({ status: 400, code: "REQUIRE_WECHAT_AUTH" });
  });
});
