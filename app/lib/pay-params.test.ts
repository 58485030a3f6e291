import { describe, expect, it } from "vitest";
import { PAY_PARAM_KEYS, checkPayParams, incompletePayParamsMessage, missingPayParams } from "./pay-params";

const complete = {
  appId: "wx2421b1c4370ec43b",
  timeStamp: "1554208460",
  nonceStr: "593BEC0C930BF1AFEB40B4A08C8FB242",
  package: "prepay_id=wx201410272009395522657a690389285100",
  signType: "RSA",
  paySign: "mI35pfNEQV6777ke",
};

describe("pay params", () => {
  it("lists the six keys in the product rules' order", () => {
    expect(PAY_PARAM_KEYS).toEqual(["appId", "timeStamp", "nonceStr", "package", "signType", "paySign"]);
  });

  it.each([
    ["all six", complete, []],
    ["no paySign", { ...complete, paySign: undefined }, ["paySign"]],
    ["blank appId and package", { ...complete, appId: " ", package: "" }, ["appId", "package"]],
    ["a number for timeStamp", { ...complete, timeStamp: 1554208460 }, ["timeStamp"]],
    ["null", null, [...PAY_PARAM_KEYS]],
    ["a string", "prepay_id=x", [...PAY_PARAM_KEYS]],
    ["an empty object", {}, [...PAY_PARAM_KEYS]],
  ])("%s → missing %j", (_name, params, missing) => {
    expect(missingPayParams(params)).toEqual(missing);
  });

  it.each([
    [["paySign"], "支付参数不完整，缺少: paySign"],
    [["appId", "nonceStr"], "支付参数不完整，缺少: appId, nonceStr"],
  ])("message for %j", (missing, message) => {
    expect(incompletePayParamsMessage(missing)).toBe(message);
  });

  it("checks a whole set", () => {
    expect(checkPayParams(complete)).toEqual({ ok: true, params: complete });
    expect(checkPayParams({ ...complete, signType: "" })).toEqual({
      ok: false,
      missing: ["signType"],
      message: "支付参数不完整，缺少: signType",
    });
  });
});
