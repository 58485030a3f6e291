import { describe, expect, it } from "vitest";
import { forumData } from "./messages/forumData";
import { pickPseudonymIndex, pseudonymName } from "./pseudonyms";

const template = (name: string) => `匿名·${name}`;

describe("pseudonyms", () => {
  it.each([
    // taken, count, the random draw, index
    [[], 4, 0, 0],
    [[], 4, 3, 3],
    [[0], 4, 0, 1],
    [[1, 2], 4, 1, 3],
    [[0, 1, 2, 3], 4, 0, 4],
    [[0, 1, 2, 3, 4], 4, 0, 5],
  ])("taken %j of %i, draw %i → %i", (taken, count, draw, index) => {
    expect(pickPseudonymIndex(new Set(taken), count, () => draw)).toBe(index);
  });

  it("never gives one thread's name twice", () => {
    const taken = new Set<number>();
    for (let i = 0; i < 120; i += 1) taken.add(pickPseudonymIndex(taken, 48, (n) => Math.floor(Math.random() * n)));
    expect(taken.size).toBe(120);
  });

  it.each([
    [0, ["青柠", "柚子"], "匿名·青柠"],
    [1, ["青柠", "柚子"], "匿名·柚子"],
    [2, ["青柠", "柚子"], "匿名·青柠2"],
    [5, ["青柠", "柚子"], "匿名·柚子3"],
  ])("index %i of %j → %s", (index, names, name) => {
    expect(pseudonymName(index, names, template)).toBe(name);
  });

  it("has distinct names in the catalogue", () => {
    expect(new Set(forumData.pseudonyms).size).toBe(forumData.pseudonyms.length);
  });
});
