import { describe, expect, it } from "vitest";
import { formatWeeks, parseWeeksText } from "./weeks";

const range = (from: number, to: number, step = 1) => {
  const weeks: number[] = [];
  for (let w = from; w <= to; w += step) weeks.push(w);
  return weeks;
};

describe("parseWeeksText", () => {
  it.each<[string, number[]]>([
    ["1-16周", range(1, 16)],
    ["1-8周", range(1, 8)],
    ["9-16周", range(9, 16)],
    ["5周", [5]],
    ["1-15周(单)", range(1, 15, 2)],
    ["2-16周(双)", range(2, 16, 2)],
    // A parity marker on a range of the wrong parity still filters: 2-16 odd = 3..15.
    ["2-16周(单)", range(3, 15, 2)],
    ["1-16周(双)", range(2, 16, 2)],
    ["1,3,5-9周", [1, 3, 5, 6, 7, 8, 9]],
    ["1,6周", [1, 6]],
    ["1-8周,10-16周", [...range(1, 8), ...range(10, 16)]],
    ["1-8周,10-16周(双)", [...range(1, 8), 10, 12, 14, 16]],
    ["1-8周,10-16周(单)", [...range(1, 8), 11, 13, 15]],
    ["1-7周(单),10-16周(双)", [1, 3, 5, 7, 10, 12, 14, 16]],
    // full-width punctuation
    ["1，6周", [1, 6]],
    ["1－16周", range(1, 16)],
    ["1—4周，6周", [1, 2, 3, 4, 6]],
    ["1-15周（单）", range(1, 15, 2)],
    [" 1 - 4 周 ", [1, 2, 3, 4]],
    // QiangZhi forms
    ["1-16(周)", range(1, 16)],
    ["1-3,6,11-12(周)", [1, 2, 3, 6, 11, 12]],
    ["1-16(周)[01-02节]", range(1, 16)],
    ["1-15(单周)", range(1, 15, 2)],
    ["2-16(双周)", range(2, 16, 2)],
    // sorting, duplicates, reversed ranges
    ["10-12周,1-3周", [1, 2, 3, 10, 11, 12]],
    ["1-4周,3-6周", range(1, 6)],
    ["8-5周", [5, 6, 7, 8]],
    // clamped to 1–26
    ["20-30周", range(20, 26)],
    ["0-2周", [1, 2]],
    ["27周", []],
    ["1-99999周", range(1, 26)],
    // nothing readable
    ["", []],
    ["周", []],
    ["全周", []],
    ["1-周", []],
    ["1,,3周", [1, 3]],
  ])("%j → %j", (text, expected) => {
    expect(parseWeeksText(text)).toEqual(expected);
  });
});

describe("formatWeeks", () => {
  it.each<[number[], string]>([
    [range(1, 16), "1-16周"],
    [range(1, 8), "1-8周"],
    [[5], "5周"],
    [range(1, 15, 2), "1-15周(单)"],
    [range(2, 16, 2), "2-16周(双)"],
    [[1, 3, 5, 6, 7, 8, 9], "1,3,5-9周"],
    [[1, 6], "1,6周"],
    [[1, 3], "1,3周"],
    [[...range(1, 8), ...range(10, 16)], "1-8周,10-16周"],
    [[...range(1, 8), 10, 12, 14, 16], "1-8周,10-16周(双)"],
    [[1, 3, 5, 7, 10, 12, 14, 16], "1-7周(单),10-16周(双)"],
    [[1, 3, 5, 7, 8], "1-5周(单),7-8周"],
    [[1, 3, 5, 10], "1-5周(单),10周"],
    [[16, 1, 2, 2, 3], "1-3周,16周"],
    [[1, 2, 3, 5, 7], "1-3周,5,7周"],
    [[0, 1, 2, 27], "1-2周"],
    [[], ""],
  ])("%j → %j", (weeks, expected) => {
    expect(formatWeeks(weeks)).toBe(expected);
  });
});

describe("round trips", () => {
  it.each([
    "1-16周",
    "1-15周(单)",
    "2-16周(双)",
    "1,3,5-9周",
    "1,6周",
    "1-8周,10-16周",
    "1-8周,10-16周(双)",
    "1-7周(单),10-16周(双)",
    "3周",
    "19-20周",
  ])("formatWeeks(parseWeeksText(%j)) gives the text back", (text) => {
    expect(formatWeeks(parseWeeksText(text))).toBe(text);
  });

  it.each<[string, string]>([
    ["1，6周", "1,6周"],
    ["1-16(周)", "1-16周"],
    ["1-15(单周)", "1-15周(单)"],
    ["1-3周,4-6周", "1-6周"],
  ])("%j normalises to %j", (text, expected) => {
    expect(formatWeeks(parseWeeksText(text))).toBe(expected);
  });

  it("parseWeeksText(formatWeeks(weeks)) gives every subset of weeks 1–12 back", () => {
    // Exhaustive over 4096 subsets: the greedy grouping must never lose or invent a week.
    for (let mask = 0; mask < 1 << 12; mask++) {
      const weeks = range(1, 12).filter((w) => mask & (1 << (w - 1)));
      expect(parseWeeksText(formatWeeks(weeks))).toEqual(weeks);
    }
  });
});
