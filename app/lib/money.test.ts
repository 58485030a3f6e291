import { describe, expect, it } from "vitest";
import { fenToYuan, formatYuan, parseYuan, YUAN_PATTERN, type YuanOptions } from "./money";

describe("formatYuan", () => {
  const rows: [fen: number, options: YuanOptions | undefined, text: string][] = [
    // prices, as the product rules write them
    [120, undefined, "1.2"],
    [200, undefined, "2"],
    [300, { style: "price" }, "3"],
    [1, undefined, "0.01"],
    [5, undefined, "0.05"],
    [60, undefined, "0.6"],
    [125, undefined, "1.25"],
    [0, undefined, "0"],
    [500, { symbol: true }, "¥5"],
    [123456, undefined, "1234.56"],
    // amounts: always two decimals
    [120, { style: "amount" }, "1.20"],
    [200, { style: "amount" }, "2.00"],
    [1, { style: "amount" }, "0.01"],
    [0, { style: "amount" }, "0.00"],
    [1050, { style: "amount", symbol: true }, "¥10.50"],
    [123456, { style: "amount", symbol: true }, "¥1234.56"],
    // defensive: a fraction of a fen is rounded, a negative keeps its sign before the symbol
    [99.6, { style: "amount" }, "1.00"],
    [-250, { style: "amount", symbol: true }, "-¥2.50"],
  ];
  it.each(rows)("%s fen %j → %s", (fen, options, text) => {
    expect(formatYuan(fen, options)).toBe(text);
  });

  it("agrees with the two formatters it replaced on every fen up to 1000 yuan", () => {
    const mismatches: number[] = [];
    for (let fen = 0; fen <= 100_000; fen++) {
      const yuan = fen / 100;
      const oldPrice = Number.isInteger(yuan) ? String(yuan) : yuan.toFixed(2).replace(/0$/, "");
      if (formatYuan(fen, { style: "amount" }) !== yuan.toFixed(2) || formatYuan(fen) !== oldPrice) mismatches.push(fen);
    }
    expect(mismatches).toEqual([]);
  });
});

describe("fenToYuan", () => {
  it.each([
    [120, 1.2],
    [0, 0],
    [1, 0.01],
    [1999, 19.99],
    [33.4, 0.33],
    [-250, -2.5],
    [100000, 1000],
  ])("%s → %s", (fen, yuan) => expect(fenToYuan(fen)).toBe(yuan));
});

describe("parseYuan and YUAN_PATTERN", () => {
  it.each([
    ["1.2", true, 120],
    ["2", true, 200],
    ["0.01", true, 1],
    ["1.15", true, 115],
    ["999.99", true, 99999],
    ["4.35", true, 435],
    ["1000", false, null],
    ["1.234", false, null],
    ["-1", false, null],
    ["1e2", false, null],
    ["", false, null],
  ])("%j valid=%s → %s fen", (text, valid, fen) => {
    expect(YUAN_PATTERN.test(text)).toBe(valid);
    if (fen !== null) expect(parseYuan(text)).toBe(fen);
  });
});
