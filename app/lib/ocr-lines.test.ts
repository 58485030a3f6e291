import { describe, expect, it } from "vitest";
import { joinOcrLines, type OcrLine } from "./ocr-lines";
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
    expect(joinOcrLines(lines)).toBe("【京东快递】您的包裹已到达京东快递站，取件码 3392。\n\n【丰巢】取件码 A1oB2");
  });

  it("orders boxes on one row left to right and drops unsure ones", () => {
    expect(joinOcrLines([line("右", 10, 300), line("左", 12, 10), line("噪声", 60, 10, 30, 0.1)])).toBe("左 右");
    expect(joinOcrLines([])).toBe("");
  });

  it("starts a new message at a signature tag even without a gap", () => {
    expect(joinOcrLines([line("取件码1-1-1001。", 10), line("【丰巢】取件码12345678", 45)])).toBe("取件码1-1-1001。\n\n【丰巢】取件码12345678");
  });
});
