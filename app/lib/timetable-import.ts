// Reading a timetable exported from a school's academic system as a spreadsheet grid: weekday
// columns × period rows, each cell holding one or more courses as lines. Pure: the server reads
// the workbook (exceljs) into a grid of texts and hands it here. Three cell layouts are read:
//   ZFsoft V9:  课程名★ / (1-2节)1-16周/校区:主校区/场地:教1-101/教师:张三/教学班:…
//   ZFsoft (older): 课程名 / 周一第1,2节{第1-16周|单周} / 教师 / 教室
//   QiangZhi:   课程名 / 教师 / 1-11,14-18([双周])[01-02节] / 教室  (several courses per cell)
// What cannot be read is returned as it is, never guessed.
import type { ScheduleCourse } from "./schedule";
import { COURSE_NAME_MAX, COURSE_TEXT_MAX, MAX_PERIOD } from "./timetable-edits";
import { parseWeeksText } from "./weeks";

/** A course read from a cell: the fields every timetable course has. */
export type ImportedCourse = ScheduleCourse;

/** A piece of a cell that is not a course we could read: shown to the student as written. */
export type UnreadPiece = { weekday: number | null; rowLabel: string; text: string };

export type ImportResult = { courses: ImportedCourse[]; unread: UnreadPiece[] };

/** One cell of the grid as the server read it: its text and how many rows it spans (merged cells). */
export type GridCell = { text: string; rowSpan: number } | null;

/** The uploaded file: a real export is 10–30 KB (the route's body limit adds the form's fields). */
export const IMPORT_FILE_MAX_BYTES = 1024 * 1024;
/** How many courses one file may bring: more than a term ever has, fewer than the edits' bound. */
export const IMPORT_MAX_COURSES = 60;
/** Rows and columns of the grid we look at: a timetable is about 20 × 9. */
export const GRID_MAX_ROWS = 80;
export const GRID_MAX_COLUMNS = 20;
/** A cell's text we read at most (a real cell is a few hundred characters). */
const CELL_MAX_CHARS = 2000;

const CHINESE_DIGITS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10, 日: 7, 天: 7 };

function chineseNumber(text: string): number | null {
  if (/^\d+$/.test(text)) return Number(text);
  if (text === "十一") return 11;
  if (text === "十二") return 12;
  return CHINESE_DIGITS[text] ?? null;
}

/** '星期一', '周一', '星期日' / '星期天' → 1–7: a header cell's first line (a date may follow below). */
export function weekdayOfHeader(text: string): number | null {
  const first = text.trim().split(/\n/)[0] ?? "";
  const match = /^(?:星期|周|礼拜)([一二三四五六日天])$/.exec(first.replace(/\s+/g, ""));
  return match ? CHINESE_DIGITS[match[1]!]! : null;
}

type Periods = { start: number; end: number };

function periodsOf(numbers: number[]): Periods | null {
  if (!numbers.length || numbers.some((n) => !Number.isInteger(n) || n < 1 || n > MAX_PERIOD)) return null;
  return { start: Math.min(...numbers), end: Math.max(...numbers) };
}

/**
 * The periods a row label names: '1' / '第1节' (ZFsoft, one row a period), '第一大节' (QiangZhi,
 * two periods each), '第一大节(01,02小节)' or '1-2节' (written out). Null: not a period row (备注).
 */
export function periodsOfRowLabel(label: string): Periods | null {
  const text = label.replace(/\s+/g, "");
  if (!text) return null;
  const written = /(\d{1,2})(?:[-~－,，、](\d{1,2}))+(?:小?节)/.exec(text) ?? /\((\d{1,2})(?:[-,，、](\d{1,2}))+(?:小节)?\)/.exec(text);
  if (written) return periodsOf(written[0].match(/\d{1,2}/g)!.map(Number));
  const big = /第([一二三四五六七八九十\d]{1,2})大节/.exec(text);
  if (big) {
    const n = chineseNumber(big[1]!);
    return n ? periodsOf([2 * n - 1, 2 * n]) : null;
  }
  // '上午1', '第1节', '1 08:00-08:45' (a clock time may follow the number, after a space or 节)
  const spaced = label.replace(/\s+/g, " ").trim();
  const number = "(十一|十二|\\d{1,2}|[一二三四五六七八九十])";
  const single =
    new RegExp(`^(?:上午|下午|晚上|中午)? ?第? ?${number} ?节?$`).exec(spaced) ??
    new RegExp(`^(?:上午|下午|晚上|中午)? ?第? ?${number}(?: ?节 ?| )\\d{1,2}[:：]\\d{2}`).exec(spaced);
  if (single) {
    const n = chineseNumber(single[1]!);
    return n ? periodsOf([n]) : null;
  }
  return null;
}

/** Trailing course-kind marks of ZFsoft (★ theory, ◆ lab, ☆ …) are not part of the name. */
function cleanName(name: string) {
  return name.replace(/[★☆◆◇●○■□▲△※◎*]+\s*$/u, "").trim();
}

/** '张三(副教授)' → '张三': QiangZhi writes the title after the teacher. */
function cleanTeacher(teacher: string) {
  return teacher.replace(/[(（][^()（）]*[)）]\s*$/u, "").trim();
}

function cut(text: string, max: number) {
  const chars = Array.from(text.trim());
  return chars.length > max ? chars.slice(0, max).join("") : chars.join("");
}

function lines(text: string) {
  return text
    .slice(0, CELL_MAX_CHARS)
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => line.replace(/\u00a0/g, " ").trim())
    .filter((line) => line.length > 0);
}

/** `periods` undefined: the text names none (the row's apply); null: it names periods we cannot use. */
type Block = { name: string; teacher: string; location: string; weeks: number[]; periods?: Periods | null; weekday: number | null; raw: string };

// ── ZFsoft V9: '(1-2节)1-16周/校区:…/场地:…/教师:…' after the name line ──────────────────────
const ZF9_TIME = /^\((\d{1,2})(?:-(\d{1,2}))?节\)/;

function zf9Blocks(all: string[]): { blocks: Block[]; rest: string[] } {
  const blocks: Block[] = [];
  const rest: string[] = [];
  let name: string[] = [];
  let current: { name: string; detail: string } | null = null;
  const finish = () => {
    if (current) blocks.push(zf9Block(current.name, current.detail));
    current = null;
  };
  for (const line of all) {
    if (ZF9_TIME.test(line)) {
      finish();
      current = { name: name.join(""), detail: line };
      name = [];
    } else if (current && (/^[/／]/.test(line) || /[/／]$/.test(current.detail) || /[:：]/.test(line))) {
      // Fields on lines of their own ('校区:…' under the time) are fields all the same.
      current.detail += /^[/／]/.test(line) || /[/／]$/.test(current.detail) ? line : `/${line}`;
    } else {
      finish();
      name.push(line);
    }
  }
  finish();
  if (name.length) rest.push(name.join(" "));
  return { blocks, rest };
}

function zf9Block(name: string, detail: string): Block {
  const time = ZF9_TIME.exec(detail)!;
  const [weeksText = "", ...fields] = detail.slice(time[0].length).split(/[/／]/);
  const field = (key: string) => {
    for (const part of fields) {
      const match = new RegExp(`^${key}[:：](.*)$`).exec(part.trim());
      if (match) return match[1]!.trim();
    }
    return "";
  };
  return {
    name: cleanName(name),
    teacher: field("教师"),
    location: field("场地") || field("上课地点") || field("教室"),
    weeks: parseWeeksText(weeksText),
    periods: periodsOf([Number(time[1]), Number(time[2] ?? time[1])]),
    weekday: null,
    raw: `${name} ${detail}`,
  };
}

// ── ZFsoft (older): '周一第1,2节{第1-16周|单周}' between the name and the teacher ─────────────
const ZF_OLD_TIME = /^周([一二三四五六日天])第([\d,，、]+)节\{(.*)\}$/;

function zfOldWeeks(text: string) {
  // '第1-16周|单周', '第2-16周|2周' (every other week), '第1-8,10-16周'
  const [weeks = "", parity = ""] = text.replace(/^第/, "").split("|");
  const mark = /单/.test(parity) ? "(单)" : /双/.test(parity) || parity === "2周" ? "(双)" : "";
  return parseWeeksText(`${weeks}${mark}`);
}

function zfOldBlocks(all: string[]): { blocks: Block[]; rest: string[] } {
  const times = all.map((line, index) => (ZF_OLD_TIME.test(line) ? index : -1)).filter((index) => index >= 0);
  const blocks: Block[] = [];
  const rest: string[] = [];
  times.forEach((at, k) => {
    const time = ZF_OLD_TIME.exec(all[at]!)!;
    const nameAt = at - 1;
    const nextName = (times[k + 1] ?? all.length + 1) - 1;
    const details = all.slice(at + 1, nextName);
    if (k === 0 && nameAt > 0) rest.push(all.slice(0, nameAt).join(" "));
    const name = nameAt >= 0 && (k === 0 || nameAt > times[k - 1]!) ? all[nameAt]! : "";
    blocks.push({
      name: cleanName(name),
      teacher: cleanTeacher(details[0] ?? ""),
      location: details[1] ?? "",
      weeks: zfOldWeeks(time[3]!),
      periods: periodsOf(time[2]!.split(/[,，、]/).map(Number)),
      weekday: CHINESE_DIGITS[time[1]!]!,
      raw: [name, all[at], ...details].join(" "),
    });
    if (details.length > 2) rest.push(details.slice(2).join(" "));
  });
  return { blocks, rest };
}

// ── QiangZhi: a weeks line '1-16(周)[01-02节]', '1-12([周])', '1-11,14-18([双周])', '1-12[周]' ─
const QZ_WEEKS = /^([\d,，、\-－~\s]+)\s*(?:[(（]\s*\[?\s*([单双])?周\s*\]?\s*[)）]|\[([单双])?周\]|周(?:[(（]([单双])[)）])?)\s*(?:\[([\d\-－,，]+)节\])?$/;

/** QiangZhi's parity mark follows the whole list ('1-11,14-18([双周])'): it applies to every part. */
function qzWeeks(match: RegExpExecArray) {
  const parity = match[2] ?? match[3] ?? match[4];
  const list = match[1]!.split(/[,，、]/).filter((part) => part.trim());
  return parseWeeksText(list.map((part) => `${part.trim()}周${parity ? `(${parity})` : ""}`).join(","));
}

function looksLikeTeacher(line: string) {
  return /^[\p{Script=Han}·]{2,5}(?:[(（][^()（）]{1,8}[)）])?(?:[,，、][\p{Script=Han}·]{2,5})*$/u.test(line);
}

function qzBlocks(all: string[]): { blocks: Block[]; rest: string[] } {
  const groups: string[][] = [[]];
  // A dashed line separates courses where the school draws one.
  for (const line of all) {
    if (/^[-=—_]{3,}$/.test(line)) groups.push([]);
    else groups[groups.length - 1]!.push(line);
  }
  const blocks: Block[] = [];
  const rest: string[] = [];
  for (const group of groups) {
    const weekLines = group.map((line, index) => (QZ_WEEKS.test(line) ? index : -1)).filter((index) => index >= 0);
    if (!weekLines.length) {
      if (group.length) rest.push(group.join(" "));
      continue;
    }
    let from = 0;
    weekLines.forEach((at, k) => {
      const nextAt = weekLines[k + 1];
      // After an earlier course's room: this course's name (and teacher).
      const head = group.slice(from, at);
      const match = QZ_WEEKS.exec(group[at]!)!;
      let name = head[0] ?? "";
      let teacher = head.length >= 2 ? head.slice(1).join(",") : "";
      if (head.length >= 3) {
        name = head.slice(0, -1).join("");
        teacher = head[head.length - 1]!;
      }
      // The room: the line after the weeks, unless it already begins the next course.
      let end = at + 1;
      let location = "";
      if (nextAt === undefined) {
        location = group.slice(at + 1).join(" ");
        end = group.length;
      } else {
        const between = group.slice(at + 1, nextAt);
        const roomHere = between.length >= 3 || (between.length === 2 && !looksLikeTeacher(between[1]!));
        if (roomHere) {
          location = between[0]!;
          end = at + 2;
        }
      }
      blocks.push({
        name: cleanName(name),
        teacher: cleanTeacher(teacher),
        location,
        weeks: qzWeeks(match),
        periods: match[5] ? periodsOf(match[5].split(/[-－,，]/).map(Number)) : undefined,
        weekday: null,
        raw: group.slice(from, end).join(" "),
      });
      from = end;
    });
  }
  return { blocks, rest };
}

/**
 * The courses of one cell. `weekday` is its column's, `rowPeriods` its row's (with the rows a
 * merged cell spans); a course's own periods ('(1-2节)', '[01-02节]', '第1,2节') come first.
 */
export function parseTimetableCell(text: string, at: { weekday: number; rowPeriods: Periods | null }): { courses: ImportedCourse[]; unread: string[] } {
  const all = lines(text);
  if (!all.length) return { courses: [], unread: [] };
  const read = all.some((line) => ZF9_TIME.test(line)) ? zf9Blocks(all) : all.some((line) => ZF_OLD_TIME.test(line)) ? zfOldBlocks(all) : qzBlocks(all);
  const courses: ImportedCourse[] = [];
  const unread = [...read.rest];
  for (const block of read.blocks) {
    const periods = block.periods === undefined ? at.rowPeriods : block.periods;
    if (!block.name || !block.weeks.length || !periods) {
      unread.push(block.raw);
      continue;
    }
    courses.push({
      name: cut(block.name, COURSE_NAME_MAX),
      teacher: cut(block.teacher, COURSE_TEXT_MAX),
      location: cut(block.location, COURSE_TEXT_MAX),
      weekday: block.weekday ?? at.weekday,
      startPeriod: periods.start,
      endPeriod: periods.end,
      weeks: block.weeks,
    });
  }
  return { courses, unread };
}

function sameCourse(a: ImportedCourse, b: ImportedCourse) {
  return a.name === b.name && a.weekday === b.weekday && a.startPeriod === b.startPeriod && a.endPeriod === b.endPeriod && a.location === b.location && a.weeks.join() === b.weeks.join();
}

/**
 * The courses of a whole grid: the header row is the first with at least three weekday names,
 * the label columns are those left of the first weekday. Rows that name no period (备注, 其他课程)
 * are shown as unread when they hold text. A course repeated in each row it spans (an export
 * without merged cells) is kept once.
 */
export function readTimetableGrid(grid: GridCell[][]): ImportResult | null {
  const rows = grid.slice(0, GRID_MAX_ROWS).map((row) => row.slice(0, GRID_MAX_COLUMNS));
  const headerAt = rows.findIndex((row) => row.filter((cell) => cell && weekdayOfHeader(cell.text) !== null).length >= 3);
  if (headerAt < 0) return null;
  const weekdayColumns = new Map<number, number>();
  rows[headerAt]!.forEach((cell, column) => {
    const weekday = cell ? weekdayOfHeader(cell.text) : null;
    if (weekday !== null) weekdayColumns.set(column, weekday);
  });
  const firstDay = Math.min(...weekdayColumns.keys());
  const labels = rows.map((row) => row.slice(0, firstDay).map((cell) => cell?.text ?? "").join(" ").trim());
  const periodsOfRow = labels.map((label) => periodsOfRowLabel(label));

  const courses: ImportedCourse[] = [];
  const unread: UnreadPiece[] = [];
  for (let r = headerAt + 1; r < rows.length; r++) {
    const row = rows[r]!;
    const rowPeriods = periodsOfRow[r] ?? null;
    // A line under the grid (ZFsoft's '其他课程：…') sits in the label columns, the week empty.
    if (!rowPeriods && labels[r] && !/^(上午|下午|晚上|中午|午休|节次|时间段?)$/.test(labels[r]!.replace(/\s+/g, "")) && [...weekdayColumns.keys()].every((column) => !row[column]?.text.trim())) {
      unread.push({ weekday: null, rowLabel: "", text: cut(labels[r]!, 200) });
      continue;
    }
    for (const [column, weekday] of weekdayColumns) {
      const cell = row[column];
      if (!cell || !cell.text.trim()) continue;
      const last = periodsOfRow[Math.min(r + Math.max(1, cell.rowSpan) - 1, rows.length - 1)];
      const periods = rowPeriods && last && last.end >= rowPeriods.start ? { start: rowPeriods.start, end: last.end } : rowPeriods;
      const read = parseTimetableCell(cell.text, { weekday, rowPeriods: periods });
      for (const course of read.courses) {
        if (!courses.some((known) => sameCourse(known, course))) courses.push(course);
      }
      for (const text of read.unread) unread.push({ weekday, rowLabel: labels[r] ?? "", text: cut(text, 200) });
    }
  }
  // In the week's order, as the student checks them against the school's page.
  courses.sort((a, b) => a.weekday - b.weekday || a.startPeriod - b.startPeriod);
  return { courses: courses.slice(0, IMPORT_MAX_COURSES), unread: unread.slice(0, 40) };
}
