// The timetable file reader (decision 053) on the rebuilt exports of ZFsoft and QiangZhi, and on
// hostile files: the old binary format, a web page named .xls, zips that unpack to far more than a
// timetable (declared, or lying about their size), a sheet of too many cells, a broken file.
import { deflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { FIXTURES, score } from "../../../tests/fixtures/timetable-exports";
import { ZIP_MAX_ENTRY_BYTES, checkZip, openPreview, readTimetableFile, sealPreview } from "./import.server";

type Entry = { name: string; data: Buffer; declaredSize?: number; stored?: boolean };

/** A zip written by hand, so an entry can declare whatever size it likes. */
function zip(entries: Entry[]) {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const body = entry.stored ? entry.data : deflateRawSync(entry.data);
    const size = entry.declaredSize ?? entry.data.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(entry.stored ? 0 : 8, 8);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(entry.stored ? 0 : 8, 10);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("the exports of the academic systems", () => {
  it.each(FIXTURES.map((fixture) => [fixture.name, fixture] as const))("%s: every course read exactly, nothing invented, the rest shown as unread", async (_, fixture) => {
    const read = await readTimetableFile(await fixture.build());
    if (!read.ok) throw new Error(read.reason);
    expect(score(fixture.expected, read.result.courses)).toEqual({ matched: fixture.expected.length, extra: 0, total: fixture.expected.length });
    expect(read.result.unread).toHaveLength(fixture.unread);
  });

  it("a workbook without a weekday header is not a timetable", async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("名单").addRows([["姓名", "学号"], ["张三", "2023001"]]);
    expect(await readTimetableFile(Buffer.from(await workbook.xlsx.writeBuffer()))).toEqual({ ok: false, reason: "no_grid" });
  });
});

describe("hostile and wrong files", () => {
  it("the old binary .xls is refused by its signature", async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512)]);
    expect(await readTimetableFile(ole)).toEqual({ ok: false, reason: "xls" });
  });

  it("a web page saved as .xls is named for what it is", async () => {
    expect(await readTimetableFile(Buffer.from("\uFEFF  <html><table><tr><td>星期一</td></tr></table></html>"))).toEqual({ ok: false, reason: "html" });
  });

  it("anything else that is not a zip", async () => {
    expect(await readTimetableFile(Buffer.from("PDF-1.7 not a spreadsheet"))).toEqual({ ok: false, reason: "not_xlsx" });
  });

  it("a file over 1 MB is refused before it is looked at", async () => {
    expect(await readTimetableFile(Buffer.alloc(1024 * 1024 + 1, 0x50))).toEqual({ ok: false, reason: "too_large" });
  });

  it("a zip bomb declaring its size is refused from the directory, without inflating", () => {
    const bomb = zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(ZIP_MAX_ENTRY_BYTES + 1) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(checkZip(bomb)).toEqual({ ok: false, reason: "too_big_inside" });
  });

  it("a zip entry lying about its size stops inflating at what it declared", async () => {
    const liar = zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.alloc(8 * 1024 * 1024), declaredSize: 1000 }]);
    expect(checkZip(liar)).toEqual({ ok: false, reason: "too_big_inside" });
    expect(await readTimetableFile(liar)).toEqual({ ok: false, reason: "too_big_inside" });
  });

  it("many small entries adding up past the total are refused", () => {
    const entries = Array.from({ length: 3 }, (_, i) => ({ name: `xl/media/${i}.bin`, data: Buffer.alloc(8 * 1024 * 1024) }));
    expect(checkZip(zip(entries))).toEqual({ ok: false, reason: "too_big_inside" });
  });

  it("a sheet of more cells than a timetable ever has is refused before exceljs reads it", async () => {
    const cells = `<worksheet><sheetData><row r="1">${'<c r="A1" t="s"><v>0</v></c>'.repeat(25_000)}</row></sheetData></worksheet>`;
    expect(await readTimetableFile(zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.from(cells) }]))).toEqual({ ok: false, reason: "too_big_inside" });
  });

  it("a part with a DTD (entity expansion) is refused before any XML parser sees it", () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><sst><si><t>&lol2;</t></si></sst>`;
    const sheet = '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>';
    expect(checkZip(zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.from(sheet) }])).ok).toBe(true);
    expect(checkZip(zip([{ name: "xl/sharedStrings.xml", data: Buffer.from(laughs) }, { name: "xl/worksheets/sheet1.xml", data: Buffer.from(sheet) }]))).toEqual({ ok: false, reason: "unreadable" });
  });

  it("a truncated export is unreadable, not a crash", async () => {
    const real = await FIXTURES[0]!.build();
    const result = await readTimetableFile(real.subarray(0, Math.floor(real.length / 2)));
    expect(result.ok).toBe(false);
  });

  it("a zip that is no workbook (no sheets, or garbage where the sheet is) is refused", async () => {
    expect(await readTimetableFile(zip([{ name: "readme.txt", data: Buffer.from("hi") }]))).toEqual({ ok: false, reason: "not_xlsx" });
    expect(await readTimetableFile(zip([{ name: "xl/worksheets/sheet1.xml", data: Buffer.from("<not xml") }]))).toEqual({ ok: false, reason: "unreadable" });
  });
});

describe("the sealed preview", () => {
  const courses = [{ name: "数学", teacher: "王", location: "A1", weekday: 1, startPeriod: 1, endPeriod: 2, weeks: [1, 2, 3] }];

  it("opens for its student and term before its deadline", () => {
    expect(openPreview(sealPreview(7, "2026-2027-1", courses), 7, "2026-2027-1")).toEqual({ ok: true, courses });
  });

  it("is refused for another student, another term, after 30 minutes, or altered", () => {
    const token = sealPreview(7, "2026-2027-1", courses, Date.now());
    expect(openPreview(token, 8, "2026-2027-1")).toEqual({ ok: false, reason: "invalid" });
    expect(openPreview(token, 7, "2026-2027-2")).toEqual({ ok: false, reason: "invalid" });
    expect(openPreview(token, 7, "2026-2027-1", Date.now() + 31 * 60 * 1000)).toEqual({ ok: false, reason: "expired" });
    const altered = `${token.slice(0, -4)}${token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
    expect(openPreview(altered, 7, "2026-2027-1")).toEqual({ ok: false, reason: "invalid" });
  });
});
