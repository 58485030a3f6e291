import { describe, expect, it } from "vitest";
import { adminListQuery, csvCell, csvLine, exportFileName, readSearch, type AdminListState } from "./admin-orders";
import { formatYuan } from "./money";

const none: AdminListState = { group: null, campus: null, q: "", page: 1 };

describe("adminListQuery", () => {
  it.each<[Partial<AdminListState>, Parameters<typeof adminListQuery>[1], string]>([
    [{}, null, ""],
    [{ group: "in_progress" }, null, "?status=in_progress"],
    [{ group: "completed", campus: "yuntang", q: "张三", page: 3 }, null, "?status=completed&campus=yuntang&q=%E5%BC%A0%E4%B8%89&page=3"],
    [{ page: 1 }, { order: "E20260302000001", panel: "actions" }, "?order=E20260302000001"],
    [{ q: "A-3 2011" }, { order: "E20260302000001", panel: "cancel" }, "?q=A-3+2011&order=E20260302000001&panel=cancel"],
    [{ group: "refunded" }, { order: "E20260302000001", panel: "delete" }, "?status=refunded&order=E20260302000001&panel=delete"],
  ])("%j %j → %s", (state, panel, expected) => {
    expect(adminListQuery({ ...none, ...state }, panel)).toBe(expected);
  });
});

describe("readSearch", () => {
  it.each<[string, ReturnType<typeof readSearch>]>([
    ["", null],
    ["   ", null],
    ["e20260302123456", { text: "e20260302123456", orderNumber: "E20260302123456", phone: null, phoneTail: null, pickup: "e20260302123456" }],
    [" 欧阳  娜娜 ", { text: "欧阳 娜娜", orderNumber: null, phone: null, phoneTail: null, pickup: "欧阳 娜娜" }],
    ["139-1234-5678", { text: "139-1234-5678", orderNumber: null, phone: "13912345678", phoneTail: null, pickup: "139-1234-5678" }],
    ["+8613912345678", { text: "+8613912345678", orderNumber: null, phone: "13912345678", phoneTail: null, pickup: "+8613912345678" }],
    ["１３９１２３４５６７８", { text: "13912345678", orderNumber: null, phone: "13912345678", phoneTail: null, pickup: "13912345678" }],
    ["A-3-2011", { text: "A-3-2011", orderNumber: null, phone: null, phoneTail: null, pickup: "A-3-2011" }],
    ["张", { text: "张", orderNumber: null, phone: null, phoneTail: null, pickup: null }],
    ["5678", { text: "5678", orderNumber: null, phone: null, phoneTail: "5678", pickup: "5678" }],
    ["56 78", { text: "56 78", orderNumber: null, phone: null, phoneTail: "5678", pickup: "56 78" }],
    ["梨园驿站", { text: "梨园驿站", orderNumber: null, phone: null, phoneTail: null, pickup: "梨园驿站" }],
  ])("%j", (input, expected) => {
    expect(readSearch(input)).toEqual(expected);
  });

  it("cuts a long entry to 64 characters", () => {
    expect(readSearch("x".repeat(100))!.text).toHaveLength(64);
  });
});

describe("CSV", () => {
  it.each<[string | number | null | undefined, string]>([
    [null, ""],
    [undefined, ""],
    [12, "12"],
    ["张三", "张三"],
    ["a,b", '"a,b"'],
    ['说"好"', '"说""好"""'],
    ["第一行\n第二行", '"第一行\n第二行"'],
    ["=SUM(A1:A9)", "'=SUM(A1:A9)"],
    ["+86 139", "'+86 139"],
    ["-1", "'-1"],
    ["@cmd", "'@cmd"],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
  ])("%j → %s", (value, expected) => {
    expect(csvCell(value)).toBe(expected);
  });

  it("lines end with CRLF; amounts are yuan with two decimals", () => {
    expect(csvLine(["E1", 3, null, "a,b"])).toBe('E1,3,,"a,b"\r\n');
    expect([0, 5, 120, 12345].map((fen) => formatYuan(fen, { style: "amount" }))).toEqual(["0.00", "0.05", "1.20", "123.45"]);
  });

  it("names the file by the Shanghai time", () => {
    expect(exportFileName(new Date("2026-03-01T16:05:00Z"))).toBe("orders-20260302-0005.csv");
  });
});
