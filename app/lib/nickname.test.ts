import { describe, expect, it } from "vitest";
import {
  MELON_NAMES,
  NICKNAME_SUFFIX_ALPHABET,
  isRandomNickname,
  randomNickname,
  realNickname,
  secureRandomInt,
  nicknameProblem,
} from "./nickname";

/** A random source that replays the given integers (each taken modulo the requested max). */
function replay(...values: number[]) {
  let index = 0;
  return (max: number) => values[index++ % values.length]! % max;
}

describe("randomNickname: 小 + a melon name + 6 characters", () => {
  it.each([
    [[0, 0, 1, 2, 3, 4, 5], "小西瓜ABCDEF"],
    [[1, 26, 27, 28, 29, 30, 31], "小哈密瓜abcdef"],
    [[9, 52, 53, 54, 55, 56, 61], "小丝瓜012349"],
    [[MELON_NAMES.length - 1, 61, 61, 61, 61, 61, 61], `小${MELON_NAMES[MELON_NAMES.length - 1]}999999`],
  ])("source %j → %s", (values, expected) => {
    expect(randomNickname(replay(...values))).toBe(expected);
  });

  it("covers the product rules' melons", () => {
    for (const melon of ["西瓜", "哈密瓜", "香瓜", "甜瓜", "木瓜", "冬瓜", "南瓜", "黄瓜", "苦瓜", "丝瓜"]) {
      expect(MELON_NAMES).toContain(melon);
    }
    expect(NICKNAME_SUFFIX_ALPHABET).toHaveLength(62);
  });

  it("with the default source every name has the shape, and they differ", () => {
    const names = new Set<string>();
    for (let i = 0; i < 500; i += 1) {
      const name = randomNickname();
      expect(isRandomNickname(name), name).toBe(true);
      names.add(name);
    }
    expect(names.size).toBeGreaterThan(495);
  });
});

describe("isRandomNickname", () => {
  it.each([
    ["小西瓜ABCDEF", true],
    ["小伊丽莎白瓜a1b2c3", true],
    ["小西瓜ABCDE", false],
    ["小西瓜ABCDEFG", false],
    ["西瓜ABCDEF", false],
    ["小土豆ABCDEF", false],
    ["小西瓜ABC-EF", false],
  ])("%s → %s", (name, expected) => {
    expect(isRandomNickname(name)).toBe(expected);
  });
});

describe("realNickname", () => {
  it.each([
    ["张三", "张三"],
    ["  李四 ", "李四"],
    ["微信用户", null],
    ["", null],
    ["   ", null],
    [null, null],
    [undefined, null],
  ])("%j → %j", (input, expected) => {
    expect(realNickname(input)).toBe(expected);
  });
});

describe("secureRandomInt", () => {
  it("stays in range", () => {
    for (const max of [1, 2, 7, 62, 1000]) {
      for (let i = 0; i < 200; i += 1) {
        const value = secureRandomInt(max);
        expect(Number.isInteger(value) && value >= 0 && value < max).toBe(true);
      }
    }
  });

  it.each([0, -1, 1.5])("rejects max %s", (max) => {
    expect(() => secureRandomInt(max)).toThrow(RangeError);
  });
});

describe("a chosen nickname (the circle's rules for names)", () => {
  it.each<[string, ReturnType<typeof nicknameProblem>]>([
    ["张小明", null],
    ["Tom", null],
    ["  小西瓜abc  ", null],
    ["阿杰2023", null],
    ["热心同学", null],
    ["a".repeat(20), null],
    ["字".repeat(20), null],
    ["", "required"],
    ["   ", "required"],
    ["明", "tooShort"],
    ["a".repeat(21), "tooLong"],
    ["字".repeat(21), "tooLong"],
    ["13812345678", "digits"],
    ["2023 0001", "digits"],
    ["！！！", "symbols"],
    ["a\u200bb", "symbols"],
    ["校园帮官方", "reserved"],
    ["管理员小王", "reserved"],
    ["客服01", "reserved"],
    ["Admin", "reserved"],
    ["匿名用户", "reserved"],
  ])("%j → %s", (value, problem) => {
    expect(nicknameProblem(value)).toBe(problem);
  });
});
