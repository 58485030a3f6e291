import { describe, expect, it } from "vitest";
import { joinOcrLines, tidyOcrText, type OcrLine } from "./ocr-lines";
import { parsePickupSms } from "./pickup-parser";

const line = (text: string, top: number, left = 60, height = 30, mean = 0.99): OcrLine => ({
  text,
  mean,
  box: [[left, top], [left + 500, top], [left + 500, top + height], [left, top + height]],
});

describe("OCR lines → messages", () => {
  it("joins the lines of one bubble and separates bubbles (a real answer of the model)", () => {
    const lines = [
      line("11月03日10:15", 62, 318, 24),
      line("【菜鸟驿站】您的包裹已到达梨园菜鸟驿", 151),
      line("站，取件码5-5-1201，请凭码取件。", 201),
      line("11月03日10:15", 291, 317, 24),
      line("【丰巢】请凭取件码『62093517』至梨园", 379),
      line("9栋丰巢柜取申通快递的包裹。", 429),
    ];
    const text = joinOcrLines(lines);
    expect(text).toContain("【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码5-5-1201，请凭码取件。");
    expect(parsePickupSms(text).map((e) => [e.pickupCode, e.stationName])).toEqual([
      ["5-5-1201", "梨园菜鸟驿站"],
      ["62093517", "梨园9栋丰巢柜"],
    ]);
  });

  it("reads a message's last 'o' after a number as the full stop it was", () => {
    const lines = [line("【京东快递】您的包裹已到达京东快递站，取件码 339", 100), line("2o", 135), line("【丰巢】取件码 A1o", 300), line("B2", 335)];
    expect(joinOcrLines(lines)).toBe("【京东快递】您的包裹已到达京东快递站，取件码3392。\n\n【丰巢】取件码A1oB2");
  });

  it.each([
    ["a digit beside Chinese", "至南湖家园 2 号楼丰巢柜取件。", "至南湖家园2号楼丰巢柜取件。"],
    ["a code beside Chinese", "请凭 6-1-3009 取件", "请凭6-1-3009取件"],
    ["full-width digits far apart", "菜鸟驿站，取件码１5－2－3 3０", "菜鸟驿站，取件码１5－2－33０"],
    ["two half-width codes stay apart", "取件码 8-2-1033 8-2-1040", "取件码8-2-1033 8-2-1040"],
    ["a number's own spaces stay", "106 9800 0001 >", "106 9800 0001 >"],
    ["Chinese words stay apart", "左 右", "左 右"],
  ])("tidies spaces: %s", (_name, raw, tidy) => {
    expect(tidyOcrText(raw)).toBe(tidy);
  });

  it("orders boxes on one row left to right and drops unsure ones", () => {
    expect(joinOcrLines([line("右", 10, 300), line("左", 12, 10), line("噪声", 60, 10, 30, 0.1)])).toBe("左 右");
    expect(joinOcrLines([])).toBe("");
  });

  it("starts a new message at a signature tag even without a gap", () => {
    expect(joinOcrLines([line("取件码1-1-1001。", 10), line("【丰巢】取件码12345678", 45)])).toBe("取件码1-1-1001。\n\n【丰巢】取件码12345678");
  });
});
