import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { AddressSchema } from "./address";

function form(values: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.set(key, value);
  return data;
}

const valid = { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑1栋", room: "302" };

function errorsOf(values: Record<string, string>) {
  const submission = parseWithZod(form(values), { schema: AddressSchema });
  return submission.status === "success" ? {} : submission.error;
}

describe("the address form: every message of the product rules' validation", () => {
  it.each([
    ["name", "", "请输入收件人姓名"],
    ["name", "   ", "请输入收件人姓名"],
    ["phone", "", "请输入手机号"],
    ["phone", "12800138000", "请输入正确的手机号"],
    ["phone", "1380013800", "请输入正确的手机号"],
    ["phone", "138001380001", "请输入正确的手机号"],
    ["phone", "23800138000", "请输入正确的手机号"],
    ["phone", "1380013800a", "请输入正确的手机号"],
    ["campus", "", "请选择校区"],
    ["building", "", "请选择宿舍楼栋"],
    ["room", "", "请输入宿舍号"],
  ])("%s = %j → %s", (field, value, message) => {
    expect(errorsOf({ ...valid, [field]: value })?.[field]).toEqual([message]);
  });

  it.each(["13000000000", "13912345678", "15012345678", "19987654321", " 13800138000 "])("accepts %j", (phone) => {
    expect(errorsOf({ ...valid, phone })).toEqual({});
  });

  it("reports every missing field at once", () => {
    expect(Object.keys(errorsOf({}) ?? {}).sort()).toEqual(["building", "campus", "name", "phone", "room"]);
  });

  it("reads the default checkbox", () => {
    const on = parseWithZod(form({ ...valid, isDefault: "on" }), { schema: AddressSchema });
    const off = parseWithZod(form(valid), { schema: AddressSchema });
    expect(on.status === "success" && on.value.isDefault).toBe(true);
    expect(off.status === "success" && off.value.isDefault).toBe(false);
  });
});
