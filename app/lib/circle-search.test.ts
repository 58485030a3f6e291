import { describe, expect, it } from "vitest";
import { highlight, normalizeSearchQuery, searchScore, SEARCH_HALF_LIFE_HOURS, termPairs } from "./circle-search";

describe("normalizeSearchQuery", () => {
  it.each([
    ["图书馆", ["图书馆"]],
    ["  食堂  ", ["食堂"]],
    ["图书馆，自习！", ["图书馆", "自习"]],
    ["ＡＢＣ考研", ["abc考研"]],
    ["食堂 二食堂", ["二食堂"]],
    ["自习 自习", ["自习"]],
    ["猫 图书馆", ["图书馆"]],
    ["%_\\ 图书馆 '\"", ["图书馆"]],
    ["a1 bb cc dd ee ff", ["a1", "bb", "cc", "dd"]],
  ])("%j → %j", (raw, terms) => {
    const query = normalizeSearchQuery(raw);
    expect(query.ok && query.terms).toEqual(terms);
  });

  it.each([
    ["", "empty"],
    [null, "empty"],
    ["，。！", "empty"],
    ["猫", "too_short"],
    ["猫 狗", "too_short"],
  ])("%j is refused: %s", (raw, reason) => {
    expect(normalizeSearchQuery(raw)).toEqual({ ok: false, reason });
  });

  it("cuts a pasted paragraph to terms of at most 32 characters", () => {
    const query = normalizeSearchQuery("长".repeat(100));
    expect(query.ok && [...query.terms[0]!].length).toBe(32);
  });
});

describe("termPairs", () => {
  it.each([
    [["食堂"], ["食堂"]],
    [["图书馆"], ["图书", "书馆"]],
    [["量子纠缠", "自习"], ["量子", "子纠", "纠缠", "自习"]],
    [["哈哈哈"], ["哈哈"]],
    [["iphone"], ["ip", "ph", "ho", "on", "ne"]],
    [["𠀀𠀁𠀂"], ["𠀀𠀁", "𠀁𠀂"]],
  ])("%j → %j", (terms, pairs) => {
    expect(termPairs(terms)).toEqual(pairs);
  });
});

describe("highlight", () => {
  it.each([
    ["二食堂的麻辣烫", ["食堂"], [{ text: "二", hit: false }, { text: "食堂", hit: true }, { text: "的麻辣烫", hit: false }]],
    ["Hello 图书馆", ["hello"], [{ text: "Hello", hit: true }, { text: " 图书馆", hit: false }]],
    ["<b>食堂</b>", ["食堂"], [{ text: "<b>", hit: false }, { text: "食堂", hit: true }, { text: "</b>", hit: false }]],
    ["没有匹配", ["食堂"], [{ text: "没有匹配", hit: false }]],
  ])("%j", (text, terms, segments) => {
    expect(highlight(text, terms)).toEqual(segments);
  });

  it("shows the part around a late match, with ellipses", () => {
    const text = `${"前".repeat(100)}食堂${"后".repeat(100)}`;
    const segments = highlight(text, ["食堂"], 20);
    expect(segments[0]).toEqual({ text: "…", hit: false });
    expect(segments.at(-1)).toEqual({ text: "…", hit: false });
    expect(segments.some((segment) => segment.hit && segment.text === "食堂")).toBe(true);
    expect(segments.map((segment) => segment.text).join("").length).toBe(22);
  });
});

describe("searchScore", () => {
  it.each([
    [{ terms: ["食堂"], body: "食堂", ageHours: 0 }, 1 + Math.log(2)],
    [{ terms: ["食堂"], body: "食堂食堂", ageHours: 0 }, 1 + Math.log(3)],
    [{ terms: ["食堂"], title: "食堂", body: "食堂", ageHours: 0 }, 1 + 2 * Math.log(2)],
    [{ terms: ["食堂"], body: "食堂", ageHours: SEARCH_HALF_LIFE_HOURS }, (1 + Math.log(2)) / 2],
  ])("%j → %f", (input, score) => {
    expect(searchScore(input)).toBeCloseTo(score, 10);
  });
});
