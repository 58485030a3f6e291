import { describe, expect, it } from "vitest";
import { fillTemplate } from "./template";

describe("fillTemplate", () => {
  it.each([
    ["共 {count} 件", { count: 3 }, "共 3 件"],
    ["{price} 元起", { price: "4.50" }, "4.50 元起"],
    ["{a}{a}-{b}", { a: 1, b: "x" }, "11-x"],
    // An unknown name stays as written, so a missing value shows in review rather than vanishing.
    ["取件码 {code}", {}, "取件码 {code}"],
    ["{ count }", { count: 1 }, "{ count }"],
    ["{count}", { count: 0 }, "0"],
  ])("%j with %j → %j", (template, values, expected) => {
    expect(fillTemplate(template, values)).toBe(expected);
  });
});
