import { describe, expect, it } from "vitest";
import { maskPersonalData, messageOf, senderTag } from "./recognition-privacy";

describe("masking a message before it is kept", () => {
  it.each([
    ["详询13726410547。", "详询1370000xxxx。"],
    ["电话:+86 137 2641 0547", "电话:1370000xxxx"],
    ["有问题请联系快递员陈会洋，手机号：13852051016", "有问题请联系快递员陈**，手机号：1380000xxxx"],
    ["【刘草环:15610177236】", "【刘**:1560000xxxx】"],
    ["收件人：张三 请取件", "收件人：张** 请取件"],
    ["请凭3-1-2009取件，运单尾号6017", "请凭3-1-2009取件，运单尾号6017"],
    ["运单号731111111111", "运单号731111111111"],
  ])("%s → %s", (text, masked) => {
    expect(maskPersonalData(text)).toBe(masked);
  });
});

describe("the message a parcel came from", () => {
  const paste = "【菜鸟驿站】您的中通包裹已到梨园菜鸟驿站，凭6-2-1101取件\n\n【圆通速递】您的快递已到东区快递点，取货码13-4-3448";
  it("is the one holding its code, written any way", () => {
    expect(messageOf(paste, "13.4.3448")).toBe("【圆通速递】您的快递已到东区快递点,取货码13-4-3448");
    expect(messageOf(paste, "9-9-9999")).toBeNull();
    expect(messageOf("【丰巢】凭取件码85692800至东苑丰巢柜取件", null)).toBe("【丰巢】凭取件码85692800至东苑丰巢柜取件");
  });
  it("is grouped by its sender tag", () => {
    expect(senderTag("【圆通速递】您的快递已到东区快递点")).toBe("圆通速递");
    expect(senderTag("您有一票快件放置于商服一楼。【顺丰速运】")).toBe("顺丰速运");
    expect(senderTag("取件码 H-683")).toBe("");
  });
});
