// QiangZhi (强智) academic system (/jsxsd): cookie session, the `encoded` login in both variants
// (base64, or the older scode/sxh interleave), its image captcha, and the HTML pages of the
// timetable, terms, grades and exams. Protocol notes: docs/protocols/academic-systems.md.
// Never log or echo the password.
import { parseExamTime, type ExamRecord } from "../../lib/exams";
import type { GradeRecord } from "../../lib/grades";
import { compareTerms, parseTermCode, termForDate } from "../../lib/term";
import { courseKindOf, GRADE_COLUMNS, practiceNotesFromRemark, roomOf, splitCourseName } from "../../lib/school-pages";
import { parseWeeksText } from "../../lib/weeks";
import { Element as DomElement, Text as DomText, type AnyNode, type Element } from "domhandler";
import { attr, elements, firstElement, named, parseHtml, textOf, withAttr } from "./html.server";
import { networkError, requestHeaders, scrapeClient, sessionJar, storeCookies, termInfo, type Answer, type CookieJar, type ScrapeOptions } from "./scrape.server";
import {
  AcademicSystemError,
  type AcademicSession,
  type AcademicSystem,
  type CaptchaAnswer,
  type Course,
  type ExamsResult,
  type PracticeNote,
  type GradesResult,
  type LoginFailure,
  type LoginResult,
  type TermInfo,
  type TimetableResult,
} from "./types";
import { examKindOf, mergeAdjacent } from "./zfsoft.server";

export interface QiangzhiOptions extends ScrapeOptions {
  /** The school's host, e.g. 'https://jwxt.example.edu.cn' ('/jsxsd' may be included or not). */
  baseUrl: string;
  /** Reads the school's captcha image; without it a captcha is handed to the student as a challenge. */
  captchaSolver?: (image: Uint8Array, contentType: string) => Promise<string>;
}

export const CAPTCHA_MESSAGE = "该校教务系统要求输入验证码";

// ---------------------------------------------------------------------------------------------
// The `encoded` login field

/** Variant A (newer deployments): base64(id) + '%%%' + base64(password). */
export function encodeBase64(studentId: string, password: string) {
  const b64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
  return `${b64(studentId)}%%%${b64(password)}`;
}

/**
 * Variant B (older): each of the first 20 characters of 'id%%%password' is followed by the next
 * N characters of scode, N being that position's digit of sxh; the rest is appended as it is.
 */
export function encodeInterleaved(studentId: string, password: string, scode: string, sxh: string) {
  const code = `${studentId}%%%${password}`;
  let rest = scode;
  let encoded = "";
  for (let i = 0; i < code.length; i++) {
    if (i >= 20) {
      encoded += code.slice(i);
      break;
    }
    const take = Number(sxh[i] ?? "0") || 0;
    encoded += code[i] + rest.slice(0, take);
    rest = rest.slice(take);
  }
  return encoded;
}

/** The flag=sess answer: 'scode#sxh', sometimes wrapped as JSON {data: 'scode#sxh'}. */
export function parseSess(body: string): { scode: string; sxh: string } | null {
  let text = body.trim();
  if (text.startsWith("{")) {
    try {
      const json = JSON.parse(text) as { data?: unknown };
      text = typeof json.data === "string" ? json.data : "";
    } catch {
      return null;
    }
  }
  const match = /^([A-Za-z0-9]+)#(\d+)$/.exec(text);
  return match ? { scode: match[1], sxh: match[2] } : null;
}

// ---------------------------------------------------------------------------------------------
// Pages

/** The red `<font color="red">` text where QiangZhi explains a failed login. */
export function loginError(html: string): string | null {
  const font = firstElement(parseHtml(html), (element) => element.name === "font" && (attr(element, "color") ?? "").trim().toLowerCase() === "red");
  return textOf(font) || null;
}

export function failureFromError(text: string): LoginFailure {
  if (text.includes("验证码")) return { kind: "captcha_required", schoolMessage: text };
  if (text.includes("锁定")) return { kind: "account_locked", schoolMessage: text };
  if (text.includes("不存在")) return { kind: "account_missing", schoolMessage: text };
  if (/用户名或密码错误|账号或密码不正确|密码错误/.test(text)) return { kind: "wrong_password", schoolMessage: text };
  return { kind: "failed", schoolMessage: text };
}

/** A data page that answers with the login form (or its 'please log in' notice): the session is gone. */
export function isLoginPage(html: string) {
  if (html.includes("请先登录系统")) return true;
  const page = parseHtml(html);
  return (
    firstElement(page, (element) => (attr(element, "action") ?? "").toLowerCase().includes("logintoxk")) !== null ||
    firstElement(page, (element) => attr(element, "name") === "encoded") !== null
  );
}

function hasCaptcha(html: string) {
  return /verifycode\.servlet/i.test(html) || firstElement(parseHtml(html), (element) => (attr(element, "name") ?? "").toUpperCase() === "RANDOMCODE") !== null;
}

/** The name on the student home page: '张三(2023110101)' in the top bar, else the id. */
export function nameFromHome(html: string, studentId: string) {
  const text = textOf(firstElement(parseHtml(html), withAttr("div", "id", "Top1_divLoginName")));
  const name = text.replace(/[（(][^)）]*[)）]\s*$/, "").trim();
  return name || studentId;
}

type Row = { cells: Element[]; texts: string[]; header: boolean };

/** Rows of `table#<id>` (not of a table inside it) with their cells, or null without the table. */
function tableRows(html: string, id: string): Row[] | null {
  const table = firstElement(parseHtml(html), withAttr("table", "id", id));
  if (!table) return null;
  const ownTable = (element: Element) => {
    for (let parent = element.parent; parent; parent = parent.parent) {
      if (parent instanceof DomElement && parent.name === "table") return parent === table;
    }
    return false;
  };
  return elements(table.children, (element) => element.name === "tr" && ownTable(element)).map((row) => {
    const cells = row.children.filter((child): child is Element => child instanceof DomElement && (child.name === "td" || child.name === "th"));
    return { cells, texts: cells.map((cell) => textOf(cell)), header: cells.length > 0 && cells.every((cell) => cell.name === "th") };
  });
}

/** A table read by its header texts (schools reorder the columns): one record per data row. */
export function readDataList(html: string): Record<string, string>[] | null {
  const rows = tableRows(html, "dataList");
  if (!rows) return null;
  const headerRow = rows.find((row) => row.header);
  if (!headerRow) return [];
  const names = headerRow.texts;
  return rows
    .filter((row) => !row.header && row.texts.length === names.length)
    .map((row) => Object.fromEntries(names.map((name, index) => [name, row.texts[index]!])));
}

function field(row: Record<string, string>, ...names: string[]) {
  for (const name of names) {
    const value = row[name];
    if (value !== undefined && value !== "") return value;
  }
  return "";
}

export function parseQiangzhiGrades(html: string): GradeRecord[] | null {
  const rows = readDataList(html);
  if (!rows) return null;
  const grades: GradeRecord[] = [];
  for (const row of rows) {
    const term = field(row, ...GRADE_COLUMNS.term);
    const course = field(row, ...GRADE_COLUMNS.course);
    const score = field(row, ...GRADE_COLUMNS.score);
    if (!parseTermCode(term) || !course || !score) continue;
    const point = field(row, ...GRADE_COLUMNS.point);
    const record: GradeRecord = {
      term,
      course,
      credit: Number(field(row, ...GRADE_COLUMNS.credit)) || 0,
      score,
      schoolPoint: /^\d+(\.\d+)?$/.test(point) ? Number(point) : null,
      courseType: `${field(row, ...GRADE_COLUMNS.attribute)}${field(row, ...GRADE_COLUMNS.nature)}`.includes("必修") ? "required" : "elective",
      examKind: examKindOf(field(row, ...GRADE_COLUMNS.examKind)),
    };
    const code = field(row, ...GRADE_COLUMNS.code);
    if (code) record.courseCode = code;
    grades.push(record);
  }
  return grades;
}

export function parseQiangzhiExams(html: string, term: string): ExamRecord[] | null {
  const rows = readDataList(html);
  if (!rows) return null;
  const exams: ExamRecord[] = [];
  for (const row of rows) {
    const course = field(row, "课程名称");
    if (!course) continue;
    const exam: ExamRecord = {
      term,
      course,
      ...parseExamTime(field(row, "考试时间")),
      place: field(row, "考场", "考试地点"),
      seat: field(row, "座位号"),
      kind: field(row, "考试场次", "考试类别", "考试性质"),
    };
    const campus = field(row, "校区");
    if (campus) exam.campus = campus;
    exams.push(exam);
  }
  return exams;
}

const WEEKDAYS: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 日: 7, 天: 7 };

/** '1-16(周)' → '1-16周'; '1-15(单周)' → '1-15周(单)'; '1-3,6,11-12(周)' → '1-3,6,11-12周'. */
export function weeksTextOf(text: string) {
  const parity = /单/.test(text) ? "(单)" : /双/.test(text) ? "(双)" : "";
  const numbers = text.replace(/[（(][^)）]*[)）]/g, "").replace(/周/g, "").trim();
  return numbers ? `${numbers}周${parity}` : "";
}

/** The text of the first `<font title="…">` among the nodes of one course. */
function fontText(part: AnyNode[], title: string) {
  return textOf(firstElement(part, withAttr("font", "title", title)));
}

/**
 * A kbcontent cell's courses: its nodes split at the dashed lines between courses. A text node
 * may hold a line with text on either side; both sides go to their course.
 */
function courseParts(content: Element): AnyNode[][] {
  const parts: AnyNode[][] = [[]];
  for (const node of content.children) {
    if (!(node instanceof DomText) || !/-{5,}/.test(node.data)) {
      parts[parts.length - 1]!.push(node);
      continue;
    }
    const pieces = node.data.split(/-{5,}/);
    pieces.forEach((piece, index) => {
      if (index > 0) parts.push([]);
      if (piece.trim()) parts[parts.length - 1]!.push(new DomText(piece));
    });
  }
  return parts;
}

/** A course's name (its text before the first line break) and the hour type that may follow it. */
function nameOf(part: AnyNode[]) {
  const lines: string[] = [];
  let line: AnyNode[] = [];
  const flush = () => {
    const text = textOf(line);
    if (text) lines.push(text);
    line = [];
  };
  for (const node of part) {
    if (lines.length >= 2) break;
    if (node instanceof DomElement && node.name === "br") flush();
    else line.push(node);
  }
  if (lines.length < 2) flush();
  const [first = "", second = ""] = lines;
  // The name line may be followed by the hour type on a line of its own, '名称</br>(讲课学时)'.
  return splitCourseName(/^[（(][^()（）]*学时[)）]$/.test(second) ? `${first}${second}` : first);
}

/**
 * table#kbtable: a header row naming the weekdays (some schools start with Sunday), then one row
 * per period block; a cell's div.kbcontent holds its courses, separated by a line of dashes.
 */
export function parseKbtable(html: string): Course[] | null {
  const rows = tableRows(html, "kbtable");
  if (!rows) return null;
  const headerRow = rows.find((row) => row.header && row.texts.some((cell) => /星期|周[一二三四五六日天]/.test(cell)));
  const columnDays = (headerRow?.texts ?? []).map((cell) => {
    const match = /(?:星期|周)([一二三四五六日天])/.exec(cell);
    return match ? WEEKDAYS[match[1]] : null;
  });
  // Data cells follow the row's period label; the header's first cell is the empty corner.
  const dayColumns = columnDays.slice(1);
  const fallbackDays = [1, 2, 3, 4, 5, 6, 7];
  const courses: Course[] = [];
  let block = 0;
  for (const row of rows) {
    if (row.header || row.cells.length < 2) continue;
    block++;
    row.cells.slice(1).forEach((cell, column) => {
      const weekday = dayColumns[column] ?? fallbackDays[column];
      if (!weekday) return;
      // The full view (kbcontent) rather than the short one (kbcontent1), when both are there.
      const full = firstElement(cell.children, withAttr("div", "class", "kbcontent")) ?? firstElement(cell.children, withAttr("div", "class", "kbcontent1"));
      if (!full) return;
      for (const part of courseParts(full)) {
        const { name, hourType } = nameOf(part);
        if (!name) continue;
        const timeText = fontText(part, "周次(节次)") || fontText(part, "周次");
        const weeksText = weeksTextOf(timeText.split("[")[0] ?? "");
        const periodMatch = /\[([\d-]+)节\]/.exec(timeText);
        const periods = periodMatch ? periodMatch[1]!.split("-").map(Number).filter((n) => n > 0) : [];
        courses.push({
          name,
          teacher: fontText(part, "老师") || fontText(part, "教师"),
          location: roomOf(fontText(part, "教室")),
          weekday,
          startPeriod: periods.length ? Math.min(...periods) : block * 2 - 1,
          endPeriod: periods.length ? Math.max(...periods) : block * 2,
          weeks: parseWeeksText(weeksText),
          weeksText,
          kind: courseKindOf(name, hourType),
        });
      }
    });
  }
  return mergeAdjacent(courses);
}

/** The 备注 row under table#kbtable (practice weeks, classes outside the grid) as notes. */
export function parseKbtableNotes(html: string): PracticeNote[] {
  const rows = tableRows(html, "kbtable") ?? [];
  const remark = rows.find((row) => /^备注/.test(row.texts[0] ?? ""));
  if (!remark) return [];
  return practiceNotesFromRemark(remark.texts.slice(1).join(";")).map((note) => ({
    name: note.name,
    teacher: note.teacher,
    location: "",
    weeks: note.weeks,
    description: note.description,
  }));
}

/** The `select[name=xnxq01id]` options; the selected one is the current term. */
export function parseTermSelect(html: string, fallbackTerm: string, week1Starts: Record<string, string> = {}): TermInfo | null {
  const select = firstElement(parseHtml(html), withAttr("select", "name", "xnxq01id"));
  if (!select) return null;
  const options = elements(select.children, named("option"))
    .map((option) => ({ value: attr(option, "value") ?? textOf(option), selected: attr(option, "selected") !== null }))
    .filter((option) => parseTermCode(option.value));
  if (options.length === 0) return null;
  const currentTerm = options.find((option) => option.selected)?.value ?? fallbackTerm;
  const codes = [...new Set(options.map((option) => option.value))].filter(
    (code) => compareTerms(code, currentTerm) <= 0 || parseTermCode(code)!.startYear === parseTermCode(currentTerm)!.startYear,
  );
  return termInfo(currentTerm, codes, week1Starts);
}

// ---------------------------------------------------------------------------------------------
// The adapter

export function createQiangzhiSystem(options: QiangzhiOptions): AcademicSystem {
  const host = options.baseUrl.replace(/\/+$/, "").replace(/\/jsxsd$/, "");
  const base = `${host}/jsxsd`;
  // Every call, the redirect after login included, goes through the outbound client bound to
  // the school's host: a redirect elsewhere is refused, not followed.
  const { timeoutMs, fetchImpl, now, week1Starts } = scrapeClient(base, options);

  async function request(
    path: string,
    jar: CookieJar,
    init: { form?: Record<string, string>; ajax?: boolean; binary?: boolean } = {},
  ): Promise<Answer & { bytes?: Uint8Array; contentType: string }> {
    const headers = requestHeaders("text/html,application/xhtml+xml,*/*;q=0.8", jar, init);
    try {
      const response = await fetchImpl(path.startsWith("http") ? path : `${base}/${path}`, {
        method: init.form ? "POST" : "GET",
        headers,
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        redirect: "manual",
        signal: AbortSignal.timeout(timeoutMs),
      });
      storeCookies(jar, response.headers.getSetCookie());
      const contentType = response.headers.get("content-type") ?? "";
      const bytes = init.binary ? new Uint8Array(await response.arrayBuffer()) : undefined;
      const body = bytes ? "" : await response.text();
      if (response.status >= 500) throw new AcademicSystemError("unavailable", `academic system answered HTTP ${response.status}`);
      return { status: response.status, location: response.headers.get("location") ?? "", body, bytes, contentType };
    } catch (error) {
      throw networkError(error);
    }
  }

  const jarOf = (session: AcademicSession) => sessionJar(session, "qiangzhi", "QiangZhi");

  /** A data page: its HTML, or null when the school's session is gone. */
  async function dataPage(jar: CookieJar, path: string, form?: Record<string, string>): Promise<string | null> {
    const answer = await request(path, jar, { form });
    if (answer.status >= 300 && answer.status < 400) return null;
    if (answer.status !== 200) throw new AcademicSystemError("failed", `${path} answered HTTP ${answer.status}`);
    if (isLoginPage(answer.body)) return null;
    return answer.body;
  }

  async function captchaImage(jar: CookieJar) {
    const image = await request(`verifycode.servlet?t=${Date.now()}`, jar, { binary: true });
    if (image.status !== 200 || !image.bytes) throw new AcademicSystemError("failed", "captcha image missing");
    return { bytes: image.bytes, contentType: image.contentType.split(";")[0] || "image/jpeg" };
  }

  async function encodedFor(jar: CookieJar, studentId: string, password: string) {
    // Older deployments hand out scode/sxh for the interleave; newer ones do not know flag=sess.
    const sess = await request("xk/LoginToXk?flag=sess", jar, { form: {}, ajax: true });
    const parts = sess.status === 200 ? parseSess(sess.body) : null;
    return parts ? encodeInterleaved(studentId, password, parts.scode, parts.sxh) : encodeBase64(studentId, password);
  }

  async function attemptLogin(studentId: string, password: string, captcha?: CaptchaAnswer): Promise<LoginResult> {
    let jar: CookieJar;
    let randomCode = "";
    if (captcha) {
      // The challenge's school session: the answer belongs to the picture shown in it.
      jar = new Map(Object.entries(captcha.state));
      randomCode = captcha.answer.trim();
    } else {
      jar = new Map();
      const page = await request("", jar);
      if (page.status !== 200) return { ok: false, failure: { kind: "failed" } };
      if (hasCaptcha(page.body)) {
        const image = await captchaImage(jar);
        if (!options.captchaSolver) {
          return {
            ok: false,
            failure: {
              kind: "captcha_required",
              schoolMessage: CAPTCHA_MESSAGE,
              challenge: { image: Buffer.from(image.bytes).toString("base64"), contentType: image.contentType, state: Object.fromEntries(jar) },
            },
          };
        }
        randomCode = (await options.captchaSolver(image.bytes, image.contentType)).trim();
      }
    }

    const encoded = await encodedFor(jar, studentId, password);
    const answer = await request("xk/LoginToXk", jar, {
      form: { userAccount: studentId, userPassword: "", RANDOMCODE: randomCode, encoded },
    });
    let home: string;
    if (answer.status >= 300 && answer.status < 400) {
      if (!/xsMain/i.test(answer.location)) return { ok: false, failure: { kind: "failed" } };
      const landed = await request(new URL(answer.location, `${base}/`).href, jar);
      home = landed.body;
    } else if (answer.status === 200) {
      const error = loginError(answer.body);
      if (error) return { ok: false, failure: failureFromError(error) };
      if (!answer.body.includes("学生个人中心")) return { ok: false, failure: { kind: "failed" } };
      home = answer.body;
    } else {
      return { ok: false, failure: { kind: "failed" } };
    }
    return {
      ok: true,
      profile: { name: nameFromHome(home, studentId) },
      session: { system: "qiangzhi", studentId, data: Object.fromEntries(jar) },
    };
  }

  return {
    async login(studentId, password, captcha) {
      try {
        return await attemptLogin(studentId, password, captcha);
      } catch (error) {
        if (!(error instanceof AcademicSystemError)) throw error;
        const kind = error.kind === "timeout" || error.kind === "unavailable" ? error.kind : "failed";
        return { ok: false, failure: { kind } };
      }
    },

    async timetable(session, term): Promise<TimetableResult> {
      if (!parseTermCode(term)) throw new RangeError(`invalid term code: ${term}`);
      const html = await dataPage(jarOf(session), "xskb/xskb_list.do", { xnxq01id: term });
      if (html === null) return { sessionExpired: true };
      const courses = parseKbtable(html);
      if (!courses) throw new AcademicSystemError("failed", "timetable table missing");
      return { term, courses, notes: parseKbtableNotes(html) };
    },

    async termInfo(session) {
      const html = await dataPage(jarOf(session), "xskb/xskb_list.do");
      if (html === null) throw new AcademicSystemError("session_expired", "academic session expired");
      const info = parseTermSelect(html, termForDate(now()).code, week1Starts);
      if (!info) throw new AcademicSystemError("failed", "term selector missing from the timetable page");
      return info;
    },

    async grades(session): Promise<GradesResult> {
      const html = await dataPage(jarOf(session), "kscj/cjcx_list", { kksj: "", kcxz: "", kcmc: "", xsfs: "all" });
      if (html === null) return { sessionExpired: true };
      const grades = parseQiangzhiGrades(html);
      if (!grades) throw new AcademicSystemError("failed", "grade table missing");
      // QiangZhi's grade page carries no ranking.
      return { grades, ranking: null };
    },

    async exams(session, term): Promise<ExamsResult> {
      if (!parseTermCode(term)) throw new RangeError(`invalid term code: ${term}`);
      const html = await dataPage(jarOf(session), "xsks/xsksap_list", { xqlbmc: "", xnxqid: term, xqlb: "" });
      if (html === null) return { sessionExpired: true };
      const exams = parseQiangzhiExams(html, term);
      if (!exams) throw new AcademicSystemError("failed", "exam table missing");
      return { term, exams };
    },
  };
}
