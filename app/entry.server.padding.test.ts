import { describe, expect, it } from "vitest";
import { withoutPadding } from "./entry.server";

describe("withoutPadding", () => {
  it.each([
    ["<p>圈子</p>", "<p>圈子</p>"],
    ["<p>\u0000圈子</p>\u0000\u0000", "<p>圈子</p>"],
    ["\u0000", ""],
    ["", ""],
  ])("%j → %j", (input, expected) => {
    expect(withoutPadding(Buffer.from(input)).toString("utf8")).toBe(expected);
  });
});
