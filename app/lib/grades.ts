// The rules of grades that need no I/O: a score (number or grade word) to grade points, which
// attempt of a course counts (补考 and 重修 replace the original the way the school counts it),
// term / overall / 必修 GPA weighted by credit, and the points of the GPA-by-term chart.
import { compareTerms } from "./term";

export type CourseType = "required" | "elective";
export type ExamKind = "normal" | "makeup" | "retake";

/** One result as an adapter reports it (the same shape is cached and rendered). */
export type GradeRecord = {
  /** '2025-2026-1' */
  term: string;
  course: string;
  /** The school's course code when it gives one: the key that ties a 补考 to its original. */
  courseCode?: string;
  credit: number;
  /** What the school shows: '92', '85.5', '优', '及格'… */
  score: string;
  /** The school's own grade point for this result, when the system gives one. */
  schoolPoint: number | null;
  courseType: CourseType;
  examKind: ExamKind;
  teacher?: string;
};

/** The standard 4.0 table (标准4.0): 90–100 → 4, 80–89 → 3, 70–79 → 2, 60–69 → 1, below → 0. */
export function standardPoint(score: number): number {
  if (score >= 90) return 4;
  if (score >= 80) return 3;
  if (score >= 70) return 2;
  if (score >= 60) return 1;
  return 0;
}

/**
 * The GPA rules an operator can choose for a school (/admin/schools). Each turns a numeric score
 * into a point, names its top point (the chart's scale) and values the grade words; a school that
 * prints its own point per course (绩点) keeps it whatever the rule.
 */
export const GPA_FORMULAS = ["standard4", "score10", "pku4", "five", "wes"] as const;
export type GpaFormula = (typeof GPA_FORMULAS)[number];

export function isGpaFormula(value: unknown): value is GpaFormula {
  return typeof value === "string" && (GPA_FORMULAS as readonly string[]).includes(value);
}

type FormulaRule = { max: number; point: (score: number) => number; words?: Record<string, number> };

const round2 = (value: number) => Math.round(value * 100) / 100;

export const FORMULA_RULES: Record<GpaFormula, FormulaRule> = {
  standard4: { max: 4, point: standardPoint },
  // 绩点 = 成绩/10 − 5 from 60 up (85 → 3.5, 100 → 5), 0 below; a word is its band's middle (优 95 → 4.5).
  score10: { max: 5, point: (score) => (score >= 60 ? round2(score / 10 - 5) : 0) },
  // 北大4.0: 4 − 3·(100 − x)²/1600 from 60 up, 0 below.
  pku4: { max: 4, point: (score) => (score >= 60 ? round2(4 - (3 * (100 - score) ** 2) / 1600) : 0) },
  // 5-point: 90–100 → 5, 80–89 → 4, 70–79 → 3, 60–69 → 2, below → 0.
  five: { max: 5, point: (score) => (score >= 60 ? Math.min(5, Math.floor(score / 10) - 4) : 0) },
  // WES: 85–100 → 4 (A), 75–84 → 3 (B), 60–74 → 2 (C), below → 0; 优 A, 良 B, 中 and 及格 C.
  wes: {
    max: 4,
    point: (score) => (score >= 85 ? 4 : score >= 75 ? 3 : score >= 60 ? 2 : 0),
    words: { 优: 4, 优秀: 4, 良: 3, 良好: 3, 中: 2, 中等: 2, 及格: 2, 合格: 2 },
  },
};

/** The middle score of each grade word's band (优 90–100 → 95…), how a rule values the words. */
const WORD_BANDS: Record<string, number> = { 优: 95, 优秀: 95, 良: 85, 良好: 85, 中: 75, 中等: 75, 及格: 65, 合格: 65 };
const FAILING_WORDS = ["不及格", "不合格", "缺考", "旷考"];

/** A rule's grade-word table: its own, else each word's band middle through the rule. */
export function formulaWords(formula: GpaFormula): Record<string, number> {
  const rule = FORMULA_RULES[formula];
  const words: Record<string, number> = rule.words
    ? { ...rule.words }
    : Object.fromEntries(Object.entries(WORD_BANDS).map(([word, score]) => [word, rule.point(score)]));
  for (const word of FAILING_WORDS) words[word] = 0;
  return words;
}

/** What a grade word is worth on the standard table (五级制 and the usual long forms). */
export const DEFAULT_GRADE_WORDS: Record<string, number> = {
  优: 4,
  优秀: 4,
  良: 3,
  良好: 3,
  中: 2,
  中等: 2,
  及格: 1,
  合格: 1,
  不及格: 0,
  不合格: 0,
  缺考: 0,
  旷考: 0,
};

/**
 * How a school counts grades. `makeup`: a passed 补考 counts as a bare pass (cap_pass, the usual
 * '补考及格按60分计'), or at its own points (replace). `retake`: a 重修 result replaces the
 * original (replace) or the better of the two counts (best).
 */
export type GradeScale = {
  /** How a numeric score becomes a point (and the chart's top); the operator's choice per school. */
  formula: GpaFormula;
  words: Record<string, number>;
  makeup: "cap_pass" | "replace";
  retake: "replace" | "best";
};

export const DEFAULT_GRADE_SCALE: GradeScale = { formula: "standard4", words: DEFAULT_GRADE_WORDS, makeup: "cap_pass", retake: "replace" };

/**
 * A school's scale: its GPA rule (schools.gpa_formula) and its stored details (JSON, e.g.
 * {"words":{"优":4.5},"makeup":"replace"}). The words default to the rule's; missing or invalid
 * parts fall back to the defaults, so a typo never breaks the grades page.
 */
export function parseGradeScale(json: string | null | undefined, formula: string | null | undefined = "standard4"): GradeScale {
  const rule: GpaFormula = isGpaFormula(formula) ? formula : "standard4";
  const base: GradeScale = { ...DEFAULT_GRADE_SCALE, formula: rule, words: rule === "standard4" ? DEFAULT_GRADE_WORDS : formulaWords(rule) };
  if (!json) return base;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return base;
  }
  if (typeof raw !== "object" || raw === null) return base;
  const { words, makeup, retake } = raw as Record<string, unknown>;
  const validWords =
    typeof words === "object" && words !== null && Object.values(words).every((value) => typeof value === "number" && value >= 0 && value <= 5)
      ? (words as Record<string, number>)
      : base.words;
  return {
    formula: rule,
    words: validWords,
    makeup: makeup === "replace" || makeup === "cap_pass" ? makeup : base.makeup,
    retake: retake === "best" || retake === "replace" ? retake : base.retake,
  };
}

/** The point of a bare pass (60) on the standard table. */
export const PASS_POINT = 1;

/** The point of a bare pass (60) under a scale's rule. */
export function passPoint(scale: GradeScale = DEFAULT_GRADE_SCALE) {
  return FORMULA_RULES[scale.formula ?? "standard4"].point(60);
}

/** The numeric score, or null for a grade word. */
export function numericScore(score: string): number | null {
  const trimmed = score.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 0 && value <= 100 ? value : null;
}

/** A failing result: below 60, or a failing grade word (shown in red). */
export function isFailingScore(score: string): boolean {
  const number = numericScore(score);
  if (number !== null) return number < 60;
  return ["不及格", "不合格", "缺考", "旷考"].includes(score.trim());
}

/**
 * The grade point of a result: the school's own where given, else the standard table for a number
 * and the school's word table for a grade word; null when it does not count (通过, unknown words).
 */
export function gradePoint(record: Pick<GradeRecord, "score" | "schoolPoint">, scale: GradeScale = DEFAULT_GRADE_SCALE): number | null {
  if (record.schoolPoint !== null && Number.isFinite(record.schoolPoint)) return record.schoolPoint;
  const number = numericScore(record.score);
  if (number !== null) return FORMULA_RULES[scale.formula ?? "standard4"].point(number);
  const word = scale.words[record.score.trim()];
  return word === undefined ? null : word;
}

export type CountedGrade = GradeRecord & {
  /** The point this result counts with (after the school's makeup rule); null: not counted. */
  point: number | null;
  /** False when a later 补考 or 重修 replaced it, or it has no credit or no point. */
  counts: boolean;
  /** Set on an original that a later attempt replaced. */
  replaced: boolean;
};

function courseKey(record: GradeRecord) {
  return record.courseCode?.trim() || record.course.trim();
}

const ATTEMPT_ORDER: Record<ExamKind, number> = { normal: 0, makeup: 1, retake: 2 };

function attemptPoint(record: GradeRecord, scale: GradeScale): number | null {
  const point = gradePoint(record, scale);
  // The school's own point already follows its rule; only our own table needs the cap.
  if (point !== null && record.examKind === "makeup" && scale.makeup === "cap_pass" && record.schoolPoint === null) {
    return Math.min(point, passPoint(scale));
  }
  return point;
}

/**
 * Which attempt of each course counts. Attempts of a course (same code, else same name) are taken
 * in term order, 正考 before 补考 before 重修; each later attempt replaces the one before, except
 * that under `retake: "best"` a 重修 replaces only a lower result. 0-credit courses never count.
 */
export function countGrades(records: GradeRecord[], scale: GradeScale = DEFAULT_GRADE_SCALE): CountedGrade[] {
  const counted: CountedGrade[] = records.map((record) => {
    const point = attemptPoint(record, scale);
    return { ...record, point, counts: record.credit > 0 && point !== null, replaced: false };
  });
  const byCourse = new Map<string, CountedGrade[]>();
  for (const grade of counted) {
    const key = courseKey(grade);
    byCourse.set(key, [...(byCourse.get(key) ?? []), grade]);
  }
  for (const attempts of byCourse.values()) {
    if (attempts.length < 2) continue;
    attempts.sort((a, b) => compareTerms(a.term, b.term) || ATTEMPT_ORDER[a.examKind] - ATTEMPT_ORDER[b.examKind]);
    let standing = attempts[0];
    for (const attempt of attempts.slice(1)) {
      if (attempt.examKind === "normal") {
        // Taking the course again as a plain course (选课重读) also replaces the old result.
      } else if (attempt.examKind === "retake" && scale.retake === "best" && (attempt.point ?? -1) < (standing.point ?? -1)) {
        attempt.counts = false;
        attempt.replaced = true;
        continue;
      }
      standing.counts = false;
      standing.replaced = true;
      standing = attempt;
    }
  }
  return counted;
}

/** Credit-weighted mean of the counted points, to two decimals; null when nothing counts. */
export function weightedGpa(grades: Pick<CountedGrade, "credit" | "point" | "counts">[]): number | null {
  let credits = 0;
  let sum = 0;
  for (const grade of grades) {
    if (!grade.counts || grade.point === null || grade.credit <= 0) continue;
    credits += grade.credit;
    sum += grade.credit * grade.point;
  }
  return credits === 0 ? null : Math.round((sum / credits) * 100) / 100;
}

export type TermSummary = { term: string; gpa: number | null; credits: number; grades: CountedGrade[] };

export type GpaSummary = {
  overall: number | null;
  required: number | null;
  /** Credits that count toward the overall GPA. */
  credits: number;
  /** Newest term first. */
  terms: TermSummary[];
};

function countedCredits(grades: CountedGrade[]) {
  return grades.reduce((total, grade) => total + (grade.counts ? grade.credit : 0), 0);
}

/**
 * Term, overall and 必修 GPA. A replacing 补考/重修 counts in the term of its own result (that is
 * where the school records it); the replaced original drops out of its term.
 */
export function summariseGrades(records: GradeRecord[], scale: GradeScale = DEFAULT_GRADE_SCALE): GpaSummary {
  const counted = countGrades(records, scale);
  const terms = [...new Set(counted.map((grade) => grade.term))].sort((a, b) => compareTerms(b, a));
  return {
    overall: weightedGpa(counted),
    required: weightedGpa(counted.filter((grade) => grade.courseType === "required")),
    credits: Math.round(countedCredits(counted) * 10) / 10,
    terms: terms.map((term) => {
      const grades = counted.filter((grade) => grade.term === term);
      return { term, gpa: weightedGpa(grades), credits: Math.round(countedCredits(grades) * 10) / 10, grades };
    }),
  };
}

/** Grades a refresh found that the previous copy did not have (a new term, a 补考 result…). */
export function newGrades(previous: GradeRecord[], next: GradeRecord[]): GradeRecord[] {
  const key = (record: GradeRecord) => [record.term, courseKey(record), record.examKind].join("|");
  const known = new Set(previous.map(key));
  return next.filter((record) => !known.has(key(record)));
}

// ---------------------------------------------------------------------------------------------
// The GPA-by-term chart (inline SVG drawn from these numbers on the server)

/** `inset` keeps the first and last points (and their value labels) off the axis labels and the edge. */
export const CHART = { width: 320, height: 140, padLeft: 34, padRight: 10, padTop: 16, padBottom: 28, inset: 16, max: 4 } as const;

export type ChartPoint = { term: string; gpa: number; x: number; y: number };

/** Oldest term on the left; terms without a GPA are left out. y grows downward as in SVG. */
export function chartPoints(terms: { term: string; gpa: number | null }[], max: number = CHART.max): ChartPoint[] {
  const withGpa = terms.filter((entry): entry is { term: string; gpa: number } => entry.gpa !== null).sort((a, b) => compareTerms(a.term, b.term));
  const left = CHART.padLeft + CHART.inset;
  const innerWidth = CHART.width - CHART.padRight - CHART.inset - left;
  const innerHeight = CHART.height - CHART.padTop - CHART.padBottom;
  const step = withGpa.length > 1 ? innerWidth / (withGpa.length - 1) : 0;
  return withGpa.map((entry, index) => ({
    term: entry.term,
    gpa: entry.gpa,
    x: Math.round((left + (withGpa.length > 1 ? step * index : innerWidth / 2)) * 10) / 10,
    y: Math.round((CHART.padTop + innerHeight * (1 - Math.min(entry.gpa, max) / max)) * 10) / 10,
  }));
}

/** The chart's y for a GPA value (gridlines). */
export function chartY(gpa: number, max: number = CHART.max) {
  const innerHeight = CHART.height - CHART.padTop - CHART.padBottom;
  return Math.round((CHART.padTop + innerHeight * (1 - gpa / max)) * 10) / 10;
}

/** The chart's top for a scale: its rule's highest point (4 or 5). */
export function chartMax(scale: GradeScale = DEFAULT_GRADE_SCALE) {
  return FORMULA_RULES[scale.formula ?? "standard4"].max;
}

/** '2025-2026-1' → '25秋'-style short labels would hide the year; '25-26-1' keeps it under the chart. */
export function shortTermLabel(term: string) {
  const match = /^(\d{4})-(\d{4})-(\d)$/.exec(term);
  return match ? `${match[1].slice(2)}-${match[2].slice(2)}-${match[3]}` : term;
}

export function formatGpa(gpa: number | null) {
  return gpa === null ? "—" : gpa.toFixed(2);
}

/** How long a fetched copy of the grades is served before the school is asked again. */
export const GRADES_CACHE_MS = 12 * 60 * 60 * 1000;
