// Reading a timetable file a student uploads (decision 053). The file is untrusted: its size is
// bounded before it is read (the route's body limit and IMPORT_FILE_MAX_BYTES), its zip is checked
// entry by entry before exceljs sees it — the declared sizes, and that each entry really inflates
// to no more than it declares — and only a bounded grid of the first sheets is looked at.
// The parsed result travels to the confirm step sealed (AES-GCM, the app's key) in the form
// itself, bound to the student, the term and a deadline; nothing is stored until the student confirms.
import { inflateRawSync } from "node:zlib";
import ExcelJS from "exceljs";
import { GRID_MAX_COLUMNS, GRID_MAX_ROWS, IMPORT_FILE_MAX_BYTES, IMPORT_MAX_COURSES, readTimetableGrid, type GridCell, type ImportedCourse, type ImportResult } from "~/lib/timetable-import";
import { MAX_PERIOD } from "~/lib/timetable-edits";
import { MAX_WEEK, MIN_WEEK } from "~/lib/weeks";
import { seal, unseal } from "../crypto.server";

/** What the zip may unpack to, in all and per entry, and how many entries it may hold. */
export const ZIP_MAX_TOTAL_BYTES = 20 * 1024 * 1024;
export const ZIP_MAX_ENTRY_BYTES = 10 * 1024 * 1024;
export const ZIP_MAX_ENTRIES = 200;
/** Cells in one sheet (a timetable has a few hundred). */
export const SHEET_MAX_CELLS = 20_000;
/** How long a preview may wait for its confirmation. */
export const PREVIEW_TTL_MS = 30 * 60 * 1000;
const SHEETS_LOOKED_AT = 3;

export type ReadFailure = "xls" | "html" | "not_xlsx" | "too_large" | "too_big_inside" | "unreadable" | "no_grid" | "empty";
export type ReadResult = { ok: true; result: ImportResult } | { ok: false; reason: ReadFailure };

type ZipCheck = { ok: true; sheets: Map<string, Buffer> } | { ok: false; reason: "not_xlsx" | "too_big_inside" | "unreadable" };

/**
 * Walks the zip's central directory and inflates every entry under its declared size (zlib stops
 * at maxOutputLength, so a lying entry costs at most what it declares). Returns the worksheets'
 * XML for the cell count. No zip64, no encryption: spreadsheet programs write neither for a file
 * this small.
 */
export function checkZip(data: Buffer): ZipCheck {
  const eocdMin = 22;
  let eocd = -1;
  for (let i = data.length - eocdMin; i >= Math.max(0, data.length - eocdMin - 0xffff); i--) {
    if (data.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) return { ok: false, reason: "not_xlsx" };
  const entries = data.readUInt16LE(eocd + 10);
  const directorySize = data.readUInt32LE(eocd + 12);
  const directoryAt = data.readUInt32LE(eocd + 16);
  if (entries === 0xffff || directoryAt === 0xffffffff || directoryAt + directorySize > data.length) return { ok: false, reason: "unreadable" };
  if (entries > ZIP_MAX_ENTRIES) return { ok: false, reason: "too_big_inside" };
  let at = directoryAt;
  let total = 0;
  const sheets = new Map<string, Buffer>();
  for (let n = 0; n < entries; n++) {
    if (at + 46 > data.length || data.readUInt32LE(at) !== 0x02014b50) return { ok: false, reason: "unreadable" };
    const flags = data.readUInt16LE(at + 8);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const size = data.readUInt32LE(at + 24);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const localAt = data.readUInt32LE(at + 42);
    const name = data.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;
    if (flags & 1) return { ok: false, reason: "unreadable" };
    if (size === 0xffffffff || compressed === 0xffffffff) return { ok: false, reason: "too_big_inside" };
    total += size;
    if (size > ZIP_MAX_ENTRY_BYTES || total > ZIP_MAX_TOTAL_BYTES) return { ok: false, reason: "too_big_inside" };
    if (localAt + 30 > data.length || data.readUInt32LE(localAt) !== 0x04034b50) return { ok: false, reason: "unreadable" };
    const start = localAt + 30 + data.readUInt16LE(localAt + 26) + data.readUInt16LE(localAt + 28);
    if (start + compressed > data.length) return { ok: false, reason: "unreadable" };
    const raw = data.subarray(start, start + compressed);
    let content: Buffer;
    if (method === 0) content = raw;
    else if (method === 8) {
      try {
        // One byte more than declared: an entry that reaches it lies about its size.
        content = inflateRawSync(raw, { maxOutputLength: size + 1 });
      } catch (error) {
        return { ok: false, reason: error instanceof RangeError ? "too_big_inside" : "unreadable" };
      }
    } else return { ok: false, reason: "unreadable" };
    if (content.length !== size) return { ok: false, reason: content.length > size ? "too_big_inside" : "unreadable" };
    // Spreadsheet programs never write a DTD; one in a part can only be there to expand entities.
    if (/\.(xml|rels)$/i.test(name) && content.includes("<!DOCTYPE")) return { ok: false, reason: "unreadable" };
    if (/^xl\/worksheets\/[^/]+\.xml$/.test(name)) sheets.set(name, content);
  }
  return { ok: true, sheets };
}

function countCells(xml: Buffer) {
  let count = 0;
  for (let i = xml.indexOf("<c "); i !== -1; i = xml.indexOf("<c ", i + 3)) count++;
  return count;
}

/** The text a cell shows: rich text joined, a formula's result, a number as written. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return "";
  if ("richText" in value && Array.isArray(value.richText)) return value.richText.map((run) => run.text).join("");
  if ("text" in value && typeof value.text === "string") return value.text;
  if ("result" in value && value.result !== undefined) return cellText(value.result as ExcelJS.CellValue);
  return "";
}

function gridOf(sheet: ExcelJS.Worksheet): GridCell[][] {
  const spans = new Map<string, number>();
  const covered = new Set<string>();
  const merges = (sheet.model as unknown as { merges?: string[] }).merges ?? [];
  for (const merge of merges.slice(0, 2000)) {
    const match = /^([A-Z]+)(\d+):([A-Z]+)(\d+)$/.exec(merge);
    if (!match) continue;
    const top = Number(match[2]);
    const bottom = Math.min(Number(match[4]), top + GRID_MAX_ROWS);
    const left = sheet.getColumn(match[1]!).number;
    const right = Math.min(sheet.getColumn(match[3]!).number, left + GRID_MAX_COLUMNS);
    spans.set(`${top}:${left}`, bottom - top + 1);
    for (let r = top; r <= bottom; r++) for (let c = left; c <= right; c++) if (r !== top || c !== left) covered.add(`${r}:${c}`);
  }
  const rows = Math.min(sheet.rowCount, GRID_MAX_ROWS);
  const columns = Math.min(sheet.columnCount, GRID_MAX_COLUMNS);
  const grid: GridCell[][] = [];
  for (let r = 1; r <= rows; r++) {
    const row: GridCell[] = [];
    for (let c = 1; c <= columns; c++) {
      if (covered.has(`${r}:${c}`)) row.push(null);
      else row.push({ text: cellText(sheet.getCell(r, c).value), rowSpan: spans.get(`${r}:${c}`) ?? 1 });
    }
    grid.push(row);
  }
  return grid;
}

/** Reads an uploaded file into courses and unreadable pieces (or says why it cannot). */
export async function readTimetableFile(data: Buffer): Promise<ReadResult> {
  if (data.length > IMPORT_FILE_MAX_BYTES) return { ok: false, reason: "too_large" };
  // The old binary format (an OLE2 compound file) has no maintained, safe reader here.
  if (data.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return { ok: false, reason: "xls" };
  // Many systems' "Excel" download is a web page named .xls.
  const head = data.subarray(0, 512).toString("utf8").replace(/^\uFEFF/, "").trimStart().toLowerCase();
  if (head.startsWith("<")) return { ok: false, reason: "html" };
  if (data.length < 4 || data.readUInt32LE(0) !== 0x04034b50) return { ok: false, reason: "not_xlsx" };
  const zip = checkZip(data);
  if (!zip.ok) return zip;
  if (zip.sheets.size === 0) return { ok: false, reason: "not_xlsx" };
  for (const xml of zip.sheets.values()) if (countCells(xml) > SHEET_MAX_CELLS) return { ok: false, reason: "too_big_inside" };

  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ExcelJS.Buffer);
  } catch {
    return { ok: false, reason: "unreadable" };
  }
  for (const sheet of workbook.worksheets.slice(0, SHEETS_LOOKED_AT)) {
    const result = readTimetableGrid(gridOf(sheet));
    if (!result) continue;
    if (!result.courses.length && !result.unread.length) return { ok: false, reason: "empty" };
    return { ok: true, result };
  }
  return { ok: false, reason: "no_grid" };
}

type Sealed = { u: number; t: string; e: number; c: ImportedCourse[] };

/** The preview's courses, sealed for the confirm form: only this student, this term, for a while. */
export function sealPreview(userId: number, term: string, courses: ImportedCourse[], now = Date.now()): string {
  return seal(JSON.stringify({ u: userId, t: term, e: now + PREVIEW_TTL_MS, c: courses } satisfies Sealed));
}

function validCourse(course: ImportedCourse) {
  return (
    typeof course.name === "string" &&
    course.name.length > 0 &&
    typeof course.teacher === "string" &&
    typeof course.location === "string" &&
    Number.isInteger(course.weekday) &&
    course.weekday >= 1 &&
    course.weekday <= 7 &&
    Number.isInteger(course.startPeriod) &&
    Number.isInteger(course.endPeriod) &&
    course.startPeriod >= 1 &&
    course.startPeriod <= course.endPeriod &&
    course.endPeriod <= MAX_PERIOD &&
    Array.isArray(course.weeks) &&
    course.weeks.length > 0 &&
    course.weeks.every((week) => Number.isInteger(week) && week >= MIN_WEEK && week <= MAX_WEEK)
  );
}

export type OpenResult = { ok: true; courses: ImportedCourse[] } | { ok: false; reason: "invalid" | "expired" };

/** The sealed courses back, when the seal is intact, this student's and this term's, and not expired. */
export function openPreview(token: string, userId: number, term: string, now = Date.now()): OpenResult {
  let sealed: Sealed;
  try {
    sealed = JSON.parse(unseal(token)) as Sealed;
  } catch {
    return { ok: false, reason: "invalid" };
  }
  if (sealed.u !== userId || sealed.t !== term || !Array.isArray(sealed.c) || sealed.c.length > IMPORT_MAX_COURSES || !sealed.c.every(validCourse)) return { ok: false, reason: "invalid" };
  if (sealed.e < now) return { ok: false, reason: "expired" };
  return { ok: true, courses: sealed.c };
}
