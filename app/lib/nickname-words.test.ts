import { describe, expect, it } from "vitest";
import { ABUSE_WORDS, IMPERSONATION_WORDS, hasAbuse, impersonates, nicknameKey } from "./nickname-words";
import { nicknameProblem } from "./nickname";

describe("nicknameKey: the form two names are compared in", () => {
  it.each([
    ["张小明", "张小明"],
    ["Tom", "tom"],
    ["ＴＯＭ", "tom"],
    ["T o m", "tom"],
    ["Tom\u200b", "tom"],
    ["\ufeff张\u3000小明", "张小明"],
    ["小西瓜ＡＢＣ１２３", "小西瓜abc123"],
    ["阿杰（2023）", "阿杰(2023)"],
  ])("%j → %j", (raw, key) => {
    expect(nicknameKey(raw)).toBe(key);
  });

  it("names that look alike share a key; different names do not", () => {
    expect(nicknameKey("Ｌｉｌｙ 酱")).toBe(nicknameKey("lily酱"));
    expect(nicknameKey("lily酱")).not.toBe(nicknameKey("lily 姐"));
  });
});

describe("the word lists", () => {
  it.each([
    ["傻逼同学", true],
    ["傻 Ｂ", true],
    ["傻.b", true],
    ["S.B", true],
    ["sb", true],
    ["我是SB", true],
    ["cnm123", true],
    ["NMSL", true],
    ["草泥马", true],
    ["你妈的", true],
    ["FUCK you", true],
    ["Ｆｕｃｋ", true],
    ["婊\u200b子", true],
    ["约炮达人", true],
    // Innocent names that share letters with a word.
    ["Lisbon", false],
    ["小西瓜abc", false],
    ["逼真的画", false],
    ["张小明", false],
    ["Tom", false],
    ["nmb2023", true],
    ["Anm", false],
  ])("%j abusive: %s", (name, expected) => {
    expect(hasAbuse(name)).toBe(expected);
  });

  it.each([
    ["管理员小王", true],
    ["管 理 员", true],
    ["ＡＤＭＩＮ", true],
    ["官方客服", true],
    ["校园帮运营", true],
    ["微信用户", true],
    ["辅导员李老师", true],
    ["时间管理大师", false],
    ["学校门口的猫", false],
    ["张小明", false],
  ])("%j impersonates: %s", (name, expected) => {
    expect(impersonates(name)).toBe(expected);
  });

  it("is a maintained list, not ten words", () => {
    expect(ABUSE_WORDS.length).toBeGreaterThan(60);
    expect(IMPERSONATION_WORDS.length).toBeGreaterThan(15);
    // Each word is caught by its own check (a word that folds to nothing would catch every name).
    for (const word of ABUSE_WORDS) expect(hasAbuse(word), word).toBe(true);
    for (const word of IMPERSONATION_WORDS) expect(impersonates(word), word).toBe(true);
    expect(hasAbuse("")).toBe(false);
  });

  it("a chosen nickname is refused for an abusive word, or for passing as staff", () => {
    expect(nicknameProblem("傻 Ｂ 二号")).toBe("abusive");
    expect(nicknameProblem("ｃｎｍ")).toBe("abusive");
    expect(nicknameProblem("客 服")).toBe("reserved");
    expect(nicknameProblem("微信用户")).toBe("reserved");
    expect(nicknameProblem("热心同学")).toBeNull();
  });
});
