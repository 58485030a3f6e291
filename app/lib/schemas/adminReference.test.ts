import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { adminReference } from "../messages/adminReference";
import { SCHOOL_SYSTEM_KINDS, isSchoolSystemKind, systemNeedsBaseUrl } from "../school-systems";
import { CampusCreateSchema, CampusFormSchema, SchoolFormSchema, SlotFormSchema, pricesOutOfOrderAt } from "./adminReference";

const e = adminReference.errors;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string>) {
  const submission = parseWithZod(form(fields), { schema });
  return submission.status === "success" ? null : submission.error;
}

const PRICES = {
  intent: "prices",
  pocketName: "口袋件",
  pocketPrice: "1.2",
  smallName: "小件",
  smallPrice: "2",
  mediumName: "中件",
  mediumPrice: "3",
  largeName: "大件",
  largePrice: "4",
};

describe("the adapter kinds", () => {
  it("are one list; every kind but the demo needs a base URL", () => {
    expect(SCHOOL_SYSTEM_KINDS).toEqual(["demo", "zfsoft", "qiangzhi"]);
    expect(SCHOOL_SYSTEM_KINDS.map((kind) => [kind, systemNeedsBaseUrl(kind)])).toEqual([
      ["demo", false],
      ["zfsoft", true],
      ["qiangzhi", true],
    ]);
    expect(isSchoolSystemKind("urp")).toBe(false);
  });
  it("every kind has its label on the school form", () => {
    for (const kind of SCHOOL_SYSTEM_KINDS) expect(adminReference.systemLabels[kind]).toBeTruthy();
  });
});

describe("package prices", () => {
  const cases: [string, number | string][] = [
    ["1.2", 120],
    ["0.01", 1],
    ["999", 99_900],
    [" 2.50 ", 250],
    ["0", e.priceFormat],
    ["0.001", e.priceFormat],
    ["1000", e.priceFormat],
    ["1,5", e.priceFormat],
    ["¥2", e.priceFormat],
    ["-1", e.priceFormat],
    ["", e.priceFormat],
  ];
  it.each(cases)("%j → %j", (input, expected) => {
    // Every size at the same price (in size order), so only the format decides.
    const submission = parseWithZod(form({ ...PRICES, pocketPrice: input, smallPrice: input, mediumPrice: input, largePrice: input }), { schema: CampusFormSchema });
    if (typeof expected === "number") {
      expect(submission.status).toBe("success");
      expect(submission.status === "success" && submission.value.intent === "prices" && submission.value.smallPrice).toBe(expected);
    } else {
      expect(submission.status === "success" ? null : submission.error?.smallPrice).toEqual([expected]);
    }
  });
});

describe("prices in size order (口袋 ≤ 小 ≤ 中 ≤ 大)", () => {
  it.each<[number[], number | null]>([
    [[120, 200, 300, 400], null],
    [[200, 200, 200, 200], null],
    [[120, 200, 300, 1], 3],
    [[120, 100, 300, 400], 1],
    [[120, 200, 199, 400], 2],
    [[500, 100, 50, 1], 1],
  ])("%j → first out of order at %j", (prices, index) => {
    expect(pricesOutOfOrderAt(prices)).toBe(index);
  });
});

describe("codes", () => {
  const cases: [string, string | null][] = [
    ["north", null],
    ["North-2", null],
    ["n", e.codeFormat],
    ["-north", e.codeFormat],
    ["北校区", e.codeFormat],
    ["a".repeat(33), e.codeFormat],
    ["", e.codeRequired],
  ];
  it.each(cases)("%j → %j", (code, message) => {
    const errors = errorsOf(CampusCreateSchema, { intent: "create", code, name: "北校区" });
    expect(errors?.code ?? null).toEqual(message ? [message] : null);
  });
});

describe("schools' base URL", () => {
  const cases: [string, string, string | null][] = [
    ["demo", "", null],
    ["zfsoft", "", e.baseUrlRequired],
    ["zfsoft", "https://jw.example.edu.cn/jwglxt", null],
    ["zfsoft", "http://10.0.0.8:8080/jwglxt", null],
    ["zfsoft", "ftp://jw.example.edu.cn", e.baseUrlFormat],
    ["zfsoft", "jw.example.edu.cn", e.baseUrlFormat],
    ["zfsoft", "https://user:pw@jw.example.edu.cn", e.baseUrlFormat],
    ["zfsoft", "https://jw.example.edu.cn/#x", e.baseUrlFormat],
    ["demo", "javascript:alert(1)", e.baseUrlFormat],
  ];
  it.each(cases)("%s %j → %j", (system, baseUrl, message) => {
    const errors = errorsOf(SchoolFormSchema, { intent: "create", code: "nu", name: "北方大学", system, baseUrl });
    expect(errors?.baseUrl ?? null).toEqual(message ? [message] : null);
  });
});

describe("delivery slots", () => {
  const SLOT = { intent: "create", orderStart: "08:00", orderEnd: "11:45", deliveryStart: "11:45", deliveryEnd: "13:50", estimated: "13:30" };
  const cases: [Partial<typeof SLOT>, string | null, string | null][] = [
    [{}, null, null],
    [{ orderEnd: "08:00" }, "orderEnd", e.orderEndAfterStart],
    [{ orderEnd: "07:59" }, "orderEnd", e.orderEndAfterStart],
    [{ deliveryEnd: "11:44" }, "deliveryEnd", e.deliveryEndAfterStart],
    [{ estimated: "11:44" }, "estimated", e.estimatedInRange],
    [{ estimated: "13:51" }, "estimated", e.estimatedInRange],
    [{ estimated: "13:50" }, null, null],
    // The promise never lies in the past: delivery starts at the cut-off or later.
    [{ deliveryStart: "11:30", estimated: "11:40" }, "deliveryStart", e.deliveryAfterCutoff],
    [{ deliveryStart: "12:00" }, null, null],
    [{ orderStart: "24:00" }, "orderStart", e.timeFormat],
    [{ orderStart: "8:00" }, "orderStart", e.timeFormat],
  ];
  it.each(cases)("%j → %s %j", (patch, field, message) => {
    const errors = errorsOf(SlotFormSchema, { ...SLOT, ...patch });
    if (!field) expect(errors).toBeNull();
    else expect(errors?.[field]).toEqual([message]);
  });
});
