// How the cells and rows a school's pages carry become courses, practice notes and grade fields,
// whatever parser pulled the text out of the page. Pure; the real pages these rules were written
// against are kept (anonymised) under tests/fixtures/schools, with their sources.
import { parseWeeksText } from "./weeks";

export type CourseKind = "normal" | "experiment";

/** Hour types (学时类型) that make a class a lab or practical rather than a lecture. */
const PRACTICAL_HOURS = /实验|上机|实践|实训|实习/;

/**
 * A QiangZhi course cell's first lines: the name, then (at some schools) the hour type in
 * brackets, '中国近现代史纲要</br>(讲课学时)'. A parser may hand them over as separate lines or
 * already joined ('中国近现代史纲要 (讲课学时)'): either way the hour type is cut off the name.
 */
export function splitCourseName(text: string): { name: string; hourType: string | null } {
  const joined = text.replace(/\s+/g, " ").trim();
  const match = /^(.*?)\s*[（(]\s*([^()（）]*学时)\s*[)）]$/.exec(joined);
  if (!match || !match[1]) return { name: joined, hourType: null };
  return { name: match[1].trim(), hourType: match[2].trim() };
}

/** A lab or practical when the school's own hour type says so; else by 实验 in the name. */
export function courseKindOf(name: string, hourType?: string | null): CourseKind {
  if (hourType && PRACTICAL_HOURS.test(hourType)) return "experiment";
  return name.includes("实验") ? "experiment" : "normal";
}

/**
 * ZFsoft's hour-type codes (xsdm) when the answer carries no xsbjList to explain them: 01 is
 * 讲课学时, 02 实验学时, 03 上机学时, 04 实践学时 (the codes the schools seen so far use).
 */
const ZFSOFT_HOUR_CODES: Record<string, string> = { "01": "讲课学时", "02": "实验学时", "03": "上机学时", "04": "实践学时" };

type Raw = Record<string, unknown>;
const text = (value: unknown) => (typeof value === "string" ? value.trim() : typeof value === "number" ? String(value) : "");

/**
 * The hour type of a ZFsoft kbList row. The answer's xsbjList names each mark the rows carry
 * ({xslxbj: '☆', xsmc: '实验'}, sometimes with its xsdm); the row's own xsdm code is the fallback.
 */
export function zfsoftHourType(item: Raw, xsbjList: unknown): string | null {
  const legend = Array.isArray(xsbjList) ? xsbjList.filter((entry): entry is Raw => typeof entry === "object" && entry !== null) : [];
  const mark = text(item.xslxbj);
  const code = text(item.xsdm);
  const byMark = mark ? legend.find((entry) => text(entry.xslxbj) === mark) : undefined;
  const byCode = code ? legend.find((entry) => text(entry.xsdm) === code) : undefined;
  const named = text((byMark ?? byCode)?.xsmc);
  if (named) return named;
  return ZFSOFT_HOUR_CODES[code] ?? null;
}

/** What schools write where no room is set: shown as no room, not as a room called so. */
const NO_ROOM = new Set(["未排地点", "未安排", "未排教室", "待定", "无", "暂无", "--"]);

export function roomOf(value: string): string {
  const room = value.replace(/\s+/g, " ").trim();
  return NO_ROOM.has(room) ? "" : room;
}

export type RemarkNote = { name: string; teacher: string; weeks: number[]; weeksText: string; description: string };

/**
 * The 备注 row under a QiangZhi timetable: practice weeks and classes outside the grid, as
 * '名称 [教师] 周次周' entries separated by semicolons ('大学物理实验 张老师 7周;公益劳动 1周').
 * '无' or an empty row gives nothing; an entry without weeks is kept as a description only.
 */
export function practiceNotesFromRemark(remark: string): RemarkNote[] {
  const notes: RemarkNote[] = [];
  for (const raw of remark.split(/[;；\n]/)) {
    const entry = raw.replace(/\s+/g, " ").trim();
    if (!entry || entry === "无") continue;
    const match = /^(.*?)\s*((?:\d+(?:-\d+)?[,，、]?)+)\s*周\s*([（(][单双][)）])?$/.exec(entry);
    if (!match || !match[1]) {
      notes.push({ name: entry, teacher: "", weeks: [], weeksText: "", description: entry });
      continue;
    }
    const words = match[1].trim().split(" ");
    const teacher = words.length > 1 ? words.pop()! : "";
    const parity = match[3] ? (match[3].includes("单") ? "(单)" : "(双)") : "";
    const weeksText = `${match[2].replace(/[，、]/g, ",").replace(/,$/, "")}周${parity}`;
    notes.push({ name: words.join(" "), teacher, weeks: parseWeeksText(weeksText), weeksText, description: entry });
  }
  return notes;
}

/** Header texts schools use for a grade table's columns (read by text, never by position). */
export const GRADE_COLUMNS = {
  term: ["开课学期", "学年学期"],
  course: ["课程名称"],
  code: ["课程编号", "课程号", "课程代码"],
  score: ["成绩", "总成绩"],
  credit: ["学分"],
  point: ["绩点"],
  attribute: ["课程属性"],
  nature: ["课程性质"],
  examKind: ["考试性质"],
} as const;
