// ZFsoft (正方) new-version academic system (jwglxt): RSA login, cookie session, timetable JSON.
// Protocol notes: docs/protocols/academic-systems.md. Never log or echo the password.
import crypto from "node:crypto";
import { formatTermCode, parseTermCode, termForDate, type TermNumber } from "../../lib/term";
import { parseExamTime, type ExamRecord } from "../../lib/exams";
import type { ExamKind, GradeRecord } from "../../lib/grades";
import { courseKindOf, roomOf, zfsoftHourType } from "../../lib/school-pages";
import { parseWeeksText } from "../../lib/weeks";
import {
  AcademicSystemError,
  type AcademicSession,
  type AcademicSystem,
  type Course,
  type LoginFailure,
  type LoginResult,
  type PracticeNote,
  type Profile,
  type ExamsResult,
  type GradesResult,
  type TermInfo,
  type TimetableResult,
} from "./types";
import type { Document, Element } from "domhandler";
import { attr, elements, firstElement, named, parseHtml, textOf, withAttr } from "./html.server";
import { networkError, requestHeaders, scrapeClient, sessionJar, storeCookies, termInfo, type Answer, type CookieJar, type ScrapeOptions } from "./scrape.server";

/** Function code of the student timetable module; the server checks it on every kbcx call. */
const TIMETABLE_MODULE = "N2151";
/** Function codes of the grades and exam-arrangement modules. */
const GRADES_MODULE = "N305005";
const EXAMS_MODULE = "N358105";
/** Rows per page of the grade and exam queries; more pages are asked for when totalResult says so. */
const PAGE_SIZE = 100;
const MAX_PAGES = 10;

export interface ZfsoftOptions extends ScrapeOptions {
  /** The jwglxt base, e.g. 'https://jw.example.edu.cn/jwglxt' (some schools deploy at the root). */
  baseUrl: string;
}

// ---------------------------------------------------------------------------------------------
// Term codes

const XQM_BY_TERM: Record<TermNumber, string> = { 1: "3", 2: "12", 3: "16" };
const TERM_BY_XQM: Record<string, TermNumber> = { "3": 1, "12": 2, "16": 3 };

/** '2025-2026-1' → { xnm: '2025', xqm: '3' }; '-2' → xqm 12; '-3' → xqm 16. */
export function toZfsoftTerm(code: string): { xnm: string; xqm: string } {
  const parsed = parseTermCode(code);
  if (!parsed) throw new RangeError(`invalid term code: ${code}`);
  return { xnm: String(parsed.startYear), xqm: XQM_BY_TERM[parsed.term] };
}

export function fromZfsoftTerm(xnm: string, xqm: string): string | null {
  const term = TERM_BY_XQM[xqm];
  if (!/^\d{4}$/.test(xnm) || !term) return null;
  return formatTermCode({ startYear: Number(xnm), term });
}

// ---------------------------------------------------------------------------------------------
// Pages, read through the linear-time parser (html.server): a hostile page costs its length.

/** The first `<input>` whose id is `id`. */
function findInput(page: Document, id: string): Element | null {
  return firstElement(page, withAttr("input", "id", id));
}

/** The text of `<p id="tips">`, where ZFsoft writes why a login failed. */
export function extractTips(html: string): string | null {
  const text = textOf(firstElement(parseHtml(html), withAttr("p", "id", "tips")));
  return text === "" ? null : text;
}

/** A data page answering the login page means the school's session is gone. */
export function isLoginPage(html: string): boolean {
  const page = parseHtml(html);
  return (
    elements(page, named("h5")).some((heading) => textOf(heading).includes("用户登录")) ||
    elements(page, named("form")).some((form) => (attr(form, "action") ?? "").toLowerCase().includes("login_slogin")) ||
    findInput(page, "yhm") !== null
  );
}

type SelectOption = { value: string; label: string; selected: boolean };

function selectOptions(page: Document, id: string): SelectOption[] {
  const select = firstElement(page, withAttr("select", "id", id));
  if (!select) return [];
  return elements(select.children, named("option")).map((option) => ({
    value: attr(option, "value") ?? textOf(option),
    label: textOf(option),
    selected: attr(option, "selected") !== null,
  }));
}

// ---------------------------------------------------------------------------------------------
// Login outcome

/** Maps the school's tip text to a failure kind; unknown tips keep the school's words. */
export function failureFromTips(tips: string): LoginFailure {
  // '锁定' before the password check: lock messages often mention wrong passwords too.
  if (tips.includes("验证码")) return { kind: "captcha_required", schoolMessage: tips };
  if (tips.includes("锁定")) return { kind: "account_locked", schoolMessage: tips };
  if (tips.includes("不存在")) return { kind: "account_missing", schoolMessage: tips };
  if (/用户名或密码不正确|密码错误/.test(tips)) return { kind: "wrong_password", schoolMessage: tips };
  return { kind: "failed", schoolMessage: tips };
}

export const SLIDER_CAPTCHA_MESSAGE = "该校教务系统启用了滑块验证码，暂不支持在本应用中登录";
export const IMAGE_CAPTCHA_MESSAGE = "该校教务系统要求输入图形验证码，暂不支持在本应用中登录";

// ---------------------------------------------------------------------------------------------
// Timetable JSON

type Raw = Record<string, unknown>;

function str(value: unknown): string {
  if (typeof value === "string") return value.trim();
  if (typeof value === "number") return String(value);
  return "";
}

function records(value: unknown): Raw[] {
  return Array.isArray(value)
    ? value.filter((v): v is Raw => typeof v === "object" && v !== null)
    : [];
}

function parsePeriods(item: Raw): { startPeriod: number; endPeriod: number } | null {
  // 'jcs' is '1-2'; older deployments only give 'jc' as '1-2节'.
  const match = /(\d+)(?:\s*-\s*(\d+))?/.exec(str(item.jcs) || str(item.jc));
  if (!match) return null;
  const a = Number(match[1]);
  const b = match[2] === undefined ? a : Number(match[2]);
  if (a < 1) return null;
  return { startPeriod: Math.min(a, b), endPeriod: Math.max(a, b) };
}

function sameCourseAndWeeks(a: Course, b: Course): boolean {
  return (
    a.weekday === b.weekday &&
    a.name === b.name &&
    a.teacher === b.teacher &&
    a.location === b.location &&
    a.weeksText === b.weeksText
  );
}

/**
 * ZFsoft splits a long class into one kbList row per period block (1-2 and 3-4):
 * rows of the same course, weekday and weeks that touch or overlap become one course.
 */
export function mergeAdjacent(courses: Course[]): Course[] {
  const sorted = [...courses].sort(
    (a, b) =>
      a.weekday - b.weekday ||
      a.name.localeCompare(b.name) ||
      a.teacher.localeCompare(b.teacher) ||
      a.location.localeCompare(b.location) ||
      a.weeksText.localeCompare(b.weeksText) ||
      a.startPeriod - b.startPeriod,
  );
  const merged: Course[] = [];
  for (const course of sorted) {
    const last = merged[merged.length - 1];
    if (last && sameCourseAndWeeks(last, course) && course.startPeriod <= last.endPeriod + 1) {
      last.endPeriod = Math.max(last.endPeriod, course.endPeriod);
    } else {
      merged.push({ ...course });
    }
  }
  return merged.sort(
    (a, b) => a.weekday - b.weekday || a.startPeriod - b.startPeriod || a.name.localeCompare(b.name),
  );
}

/** `xsbjList` is the answer's legend of the hour-type marks its rows carry (xslxbj → xsmc). */
export function parseKbList(kbList: unknown, xsbjList?: unknown): Course[] {
  const courses: Course[] = [];
  for (const item of records(kbList)) {
    const weekday = Number(str(item.xqj));
    const periods = parsePeriods(item);
    const name = str(item.kcmc);
    if (!name || !periods || !Number.isInteger(weekday) || weekday < 1 || weekday > 7) continue;
    const weeksText = str(item.zcd);
    courses.push({
      name,
      teacher: str(item.xm),
      location: roomOf(str(item.cdmc)),
      weekday,
      ...periods,
      weeks: parseWeeksText(weeksText),
      weeksText,
      kind: courseKindOf(name, zfsoftHourType(item, xsbjList)),
    });
  }
  return mergeAdjacent(courses);
}

/** sjkList rows: 'qtkcgs' like '公益劳动白利波(共1周)/1周', sometimes with kcmc/jsxm/qsjsz. */
export function parseSjkList(sjkList: unknown): PracticeNote[] {
  const notes: PracticeNote[] = [];
  for (const item of records(sjkList)) {
    const description = str(item.qtkcgs) || str(item.sjkcgs);
    // Without kcmc the name is the text before '(共n周)' (the teacher's name is glued to it).
    const name = str(item.kcmc) || description.replace(/[（(]共.*$/, "").replace(/\/.*$/, "").trim();
    if (!name) continue;
    const slash = description.lastIndexOf("/");
    const weeksText = str(item.qsjsz) || (slash >= 0 ? description.slice(slash + 1) : "");
    notes.push({
      name,
      teacher: str(item.jsxm) || str(item.xm),
      location: roomOf(str(item.cdmc)),
      weeks: parseWeeksText(weeksText),
      description,
    });
  }
  return notes;
}

function profileFrom(json: Raw, studentId: string): Profile {
  const info = typeof json.xsxx === "object" && json.xsxx !== null ? (json.xsxx as Raw) : {};
  // Some deployments omit xsxx when a term has no timetable: fall back to the id, never fail.
  const profile: Profile = { name: str(info.XM) || studentId };
  const className = str(info.BJMC);
  const college = str(info.JGMC);
  if (className) profile.className = className;
  if (college) profile.college = college;
  return profile;
}

// ---------------------------------------------------------------------------------------------
// Grades and exams JSON

/** '正常考试' → normal; anything naming 补考 or 重修 → that. */
export function examKindOf(text: string): ExamKind {
  if (text.includes("重修")) return "retake";
  if (text.includes("补考")) return "makeup";
  return "normal";
}

function numberOrNull(value: unknown): number | null {
  const text = str(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return null;
  return Number(text);
}

/** The term of a grade row: xnm/xqm when present, else the labels '2024-2025' and '1'/'2'/'3'. */
function gradeTerm(item: Raw): string | null {
  const byCode = fromZfsoftTerm(str(item.xnm), str(item.xqm));
  if (byCode) return byCode;
  const year = /^(\d{4})-\d{4}$/.exec(str(item.xnmmc));
  const half = str(item.xqmmc);
  if (!year || !["1", "2", "3"].includes(half)) return null;
  return formatTermCode({ startYear: Number(year[1]), term: Number(half) as TermNumber });
}

export function parseZfsoftGrades(items: unknown): GradeRecord[] {
  const grades: GradeRecord[] = [];
  for (const item of records(items)) {
    const course = str(item.kcmc);
    const term = gradeTerm(item);
    const score = str(item.cj) || str(item.bfzcj);
    if (!course || !term || !score) continue;
    const record: GradeRecord = {
      term,
      course,
      credit: numberOrNull(item.xf) ?? 0,
      score,
      schoolPoint: numberOrNull(item.jd),
      courseType: str(item.kcxzmc).includes("必修") ? "required" : "elective",
      examKind: examKindOf(str(item.ksxz)),
    };
    const code = str(item.kch_id) || str(item.kch);
    if (code) record.courseCode = code;
    const teacher = str(item.jsxm);
    if (teacher) record.teacher = teacher;
    grades.push(record);
  }
  return grades;
}

export function parseZfsoftExams(items: unknown, term: string): ExamRecord[] {
  const exams: ExamRecord[] = [];
  for (const item of records(items)) {
    const course = str(item.kcmc);
    if (!course) continue;
    const exam: ExamRecord = {
      term,
      course,
      ...parseExamTime(str(item.kssj)),
      place: str(item.cdmc),
      seat: str(item.zwh),
      kind: str(item.ksmc),
    };
    const campus = str(item.xqmc);
    if (campus) exam.campus = campus;
    exams.push(exam);
  }
  return exams;
}

// ---------------------------------------------------------------------------------------------
// Term page

/** Reads select#xnm / select#xqm of the timetable index page. */
export function parseTermPage(
  html: string,
  fallbackTerm: string,
  week1Starts: Record<string, string> = {},
): TermInfo | null {
  const page = parseHtml(html);
  const years = selectOptions(page, "xnm").filter((o) => /^\d{4}$/.test(o.value));
  const halves = selectOptions(page, "xqm").filter((o) => TERM_BY_XQM[o.value] !== undefined);
  if (years.length === 0 || halves.length === 0) return null;

  const fallback = toZfsoftTerm(fallbackTerm);
  const currentTerm = fromZfsoftTerm(
    years.find((o) => o.selected)?.value ?? fallback.xnm,
    halves.find((o) => o.selected)?.value ?? fallback.xqm,
  )!;
  const currentYear = parseTermCode(currentTerm)!.startYear;

  // Up to the end of the current academic year: next term's timetable is often published early.
  const codes = years
    .filter((year) => Number(year.value) <= currentYear)
    .flatMap((year) => halves.map((half) => fromZfsoftTerm(year.value, half.value)!));
  return termInfo(currentTerm, codes, week1Starts);
}

// ---------------------------------------------------------------------------------------------
// HTTP (the cookie jar lives in scrape.server)

function encryptPassword(password: string, key: { modulus: string; exponent: string }): string {
  // The key comes as base64 big-endian integers; JWK wants the same bytes in base64url.
  const toBase64Url = (b64: string) => {
    const bytes = Buffer.from(b64, "base64");
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++; // JWK forbids leading zeros
    return bytes.subarray(start).toString("base64url");
  };
  const publicKey = crypto.createPublicKey({
    key: { kty: "RSA", n: toBase64Url(key.modulus), e: toBase64Url(key.exponent) },
    format: "jwk",
  });
  return crypto
    .publicEncrypt({ key: publicKey, padding: crypto.constants.RSA_PKCS1_PADDING }, Buffer.from(password, "utf8"))
    .toString("base64");
}

type TimetableJson = { expired: true } | { expired: false; json: Raw };

export function createZfsoftSystem(options: ZfsoftOptions): AcademicSystem {
  const base = options.baseUrl.replace(/\/+$/, "");
  const { timeoutMs, fetchImpl, now, week1Starts } = scrapeClient(base, options);

  async function request(
    path: string,
    jar: CookieJar,
    init: { form?: Record<string, string>; ajax?: boolean } = {},
  ): Promise<Answer> {
    const headers = requestHeaders("text/html,application/json;q=0.9,*/*;q=0.8", jar, init);
    try {
      // One timeout covers headers and body: a server that stalls mid-body also times out.
      const response = await fetchImpl(`${base}/${path}`, {
        method: init.form ? "POST" : "GET",
        headers,
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        redirect: "manual", // the login answer is a 302 whose cookies we must keep
        signal: AbortSignal.timeout(timeoutMs),
      });
      storeCookies(jar, response.headers.getSetCookie());
      const body = await response.text();
      if (response.status >= 500) {
        throw new AcademicSystemError("unavailable", `academic system answered HTTP ${response.status}`);
      }
      return { status: response.status, location: response.headers.get("location") ?? "", body };
    } catch (error) {
      throw networkError(error);
    }
  }

  async function fetchTimetableJson(jar: CookieJar, term: string): Promise<TimetableJson> {
    const { xnm, xqm } = toZfsoftTerm(term);
    const answer = await request(`kbcx/xskbcx_cxXsgrkb.html?gnmkdm=${TIMETABLE_MODULE}`, jar, {
      form: { xnm, xqm, kzlx: "ck", xsdm: "" },
      ajax: true,
    });
    // Data pages only redirect when the session is gone (to the login page).
    if (answer.status >= 300 && answer.status < 400) return { expired: true };
    if (answer.status !== 200) {
      throw new AcademicSystemError("failed", `timetable answered HTTP ${answer.status}`);
    }
    let json: unknown;
    try {
      json = JSON.parse(answer.body);
    } catch {
      if (isLoginPage(answer.body)) return { expired: true };
      throw new AcademicSystemError("failed", "timetable answer is not JSON");
    }
    if (typeof json !== "object" || json === null) {
      throw new AcademicSystemError("failed", "timetable answer is not an object");
    }
    return { expired: false, json: json as Raw };
  }

  /** A paged query module (grades, exams): every page's items, or the expired marker. */
  async function fetchPagedItems(
    path: string,
    jar: CookieJar,
    form: Record<string, string>,
  ): Promise<{ expired: true } | { expired: false; items: Raw[] }> {
    const items: Raw[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const answer = await request(path, jar, {
        form: { ...form, "queryModel.showCount": String(PAGE_SIZE), "queryModel.currentPage": String(page) },
        ajax: true,
      });
      if (answer.status >= 300 && answer.status < 400) return { expired: true };
      if (answer.status !== 200) throw new AcademicSystemError("failed", `${path} answered HTTP ${answer.status}`);
      let json: Raw;
      try {
        json = JSON.parse(answer.body) as Raw;
      } catch {
        if (isLoginPage(answer.body)) return { expired: true };
        throw new AcademicSystemError("failed", `${path} answer is not JSON`);
      }
      const pageItems = records(json?.items);
      items.push(...pageItems);
      const total = Number(str(json?.totalResult));
      if (pageItems.length === 0 || !Number.isFinite(total) || items.length >= total) break;
    }
    return { expired: false, items };
  }

  const jarOf = (session: AcademicSession) => sessionJar(session, "zfsoft", "ZFsoft");

  async function attemptLogin(studentId: string, password: string): Promise<LoginResult> {
    const jar: CookieJar = new Map();
    const page = await request("xtgl/login_slogin.html", jar);
    if (page.status !== 200) return { ok: false, failure: { kind: "failed" } };
    if (page.body.includes("zfcaptchaLogin")) {
      return { ok: false, failure: { kind: "captcha_required", schoolMessage: SLIDER_CAPTCHA_MESSAGE } };
    }
    const loginPage = parseHtml(page.body);
    if (findInput(loginPage, "yzm") !== null) {
      return { ok: false, failure: { kind: "captcha_required", schoolMessage: IMAGE_CAPTCHA_MESSAGE } };
    }
    const csrfInput = findInput(loginPage, "csrftoken");
    const csrftoken = csrfInput ? (attr(csrfInput, "value") ?? "") : "";

    const keyAnswer = await request(`xtgl/login_getPublicKey.html?time=${Date.now()}`, jar);
    let mm: string;
    try {
      const key = JSON.parse(keyAnswer.body) as { modulus?: unknown; exponent?: unknown };
      if (typeof key.modulus !== "string" || typeof key.exponent !== "string") throw new Error("no key");
      mm = encryptPassword(password, { modulus: key.modulus, exponent: key.exponent });
    } catch {
      return { ok: false, failure: { kind: "failed" } };
    }

    const answer = await request(`xtgl/login_slogin.html?time=${Date.now()}`, jar, {
      form: { csrftoken, language: "zh_CN", yhm: studentId, mm },
    });
    if (answer.status >= 300 && answer.status < 400) {
      // Success is a 302 to xtgl/index_initMenu.html; a bounce back to the login page is not.
      if (answer.location.includes("login_slogin")) return { ok: false, failure: { kind: "failed" } };
    } else if (answer.status === 200) {
      const tips = extractTips(answer.body);
      if (tips) return { ok: false, failure: failureFromTips(tips) };
      if (isLoginPage(answer.body)) return { ok: false, failure: { kind: "failed" } };
    } else {
      return { ok: false, failure: { kind: "failed" } };
    }

    // The name lives in the timetable answer's xsxx: cheaper than scraping the profile page.
    const timetable = await fetchTimetableJson(jar, termForDate(now()).code);
    if (timetable.expired) return { ok: false, failure: { kind: "failed" } };
    return {
      ok: true,
      profile: profileFrom(timetable.json, studentId),
      session: { system: "zfsoft", studentId, data: Object.fromEntries(jar) },
    };
  }

  return {
    async login(studentId, password) {
      try {
        return await attemptLogin(studentId, password);
      } catch (error) {
        if (!(error instanceof AcademicSystemError)) throw error;
        const kind = error.kind === "timeout" || error.kind === "unavailable" ? error.kind : "failed";
        return { ok: false, failure: { kind } };
      }
    },

    async timetable(session, term): Promise<TimetableResult> {
      const answer = await fetchTimetableJson(jarOf(session), term);
      if (answer.expired) return { sessionExpired: true };
      return { term, courses: parseKbList(answer.json.kbList, answer.json.xsbjList), notes: parseSjkList(answer.json.sjkList) };
    },

    async grades(session): Promise<GradesResult> {
      // Empty xnm and xqm: every term at once.
      const answer = await fetchPagedItems(`cjcx/cjcx_cxXsgrcj.html?doType=query&gnmkdm=${GRADES_MODULE}`, jarOf(session), {
        xnm: "",
        xqm: "",
        _search: "false",
        "queryModel.sortName": "",
        "queryModel.sortOrder": "asc",
        time: "0",
      });
      if (answer.expired) return { sessionExpired: true };
      // ZFsoft's student grade query carries no ranking.
      return { grades: parseZfsoftGrades(answer.items), ranking: null };
    },

    async exams(session, term): Promise<ExamsResult> {
      const { xnm, xqm } = toZfsoftTerm(term);
      const answer = await fetchPagedItems(`kwgl/kscx_cxXsksxxIndex.html?doType=query&gnmkdm=${EXAMS_MODULE}`, jarOf(session), { xnm, xqm });
      if (answer.expired) return { sessionExpired: true };
      return { term, exams: parseZfsoftExams(answer.items, term) };
    },

    async termInfo(session) {
      const answer = await request(
        `kbcx/xskbcx_cxXskbcxIndex.html?gnmkdm=${TIMETABLE_MODULE}&layout=default`,
        jarOf(session),
      );
      if ((answer.status >= 300 && answer.status < 400) || isLoginPage(answer.body)) {
        throw new AcademicSystemError("session_expired", "academic session expired");
      }
      const info = parseTermPage(answer.body, termForDate(now()).code, week1Starts);
      if (!info) throw new AcademicSystemError("failed", "term selectors missing from the timetable page");
      return info;
    },
  };
}
