import { describe, expect, it } from "vitest";
import {
  CHART,
  DEFAULT_GRADE_SCALE,
  chartMax,
  chartPoints,
  countGrades,
  gradePoint,
  isFailingScore,
  newGrades,
  parseGradeScale,
  standardPoint,
  summariseGrades,
  weightedGpa,
  type GpaFormula,
  type GradeRecord,
  type GradeScale,
} from "./grades";

const grade = (course: string, score: string, extra: Partial<GradeRecord> = {}): GradeRecord => ({
  term: "2024-2025-1",
  course,
  credit: 3,
  score,
  schoolPoint: null,
  courseType: "required",
  examKind: "normal",
  ...extra,
});

describe("the standard 4.0 table", () => {
  it.each([
    [100, 4],
    [90, 4],
    [89.5, 3],
    [80, 3],
    [79, 2],
    [70, 2],
    [69, 1],
    [60, 1],
    [59.5, 0],
    [0, 0],
  ])("%s → %s", (score, point) => {
    expect(standardPoint(score)).toBe(point);
  });
});

describe("the GPA rules an operator can choose", () => {
  const scaleOf = (formula: GpaFormula) => parseGradeScale(null, formula);
  const point = (formula: GpaFormula, score: string) => gradePoint({ score, schoolPoint: null }, scaleOf(formula));

  it.each<[GpaFormula, string, number]>([
    ["standard4", "95", 4], ["standard4", "85", 3], ["standard4", "60", 1], ["standard4", "59", 0], ["standard4", "优", 4], ["standard4", "及格", 1],
    ["score10", "100", 5], ["score10", "85", 3.5], ["score10", "72.5", 2.25], ["score10", "60", 1], ["score10", "59", 0],
    ["score10", "优", 4.5], ["score10", "良", 3.5], ["score10", "中", 2.5], ["score10", "及格", 1.5], ["score10", "不及格", 0],
    ["pku4", "100", 4], ["pku4", "90", 3.81], ["pku4", "80", 3.25], ["pku4", "70", 2.31], ["pku4", "60", 1], ["pku4", "59", 0], ["pku4", "优", 3.95],
    ["five", "100", 5], ["five", "90", 5], ["five", "89", 4], ["five", "75", 3], ["five", "60", 2], ["five", "59", 0], ["five", "良", 4], ["five", "及格", 2],
    ["wes", "100", 4], ["wes", "85", 4], ["wes", "84", 3], ["wes", "75", 3], ["wes", "74", 2], ["wes", "60", 2], ["wes", "59", 0],
    ["wes", "优", 4], ["wes", "良", 3], ["wes", "中", 2], ["wes", "及格", 2], ["wes", "缺考", 0],
  ])("%s: %s → %s", (formula, score, expected) => {
    expect(point(formula, score)).toBe(expected);
  });

  it("the school's own point wins over any rule", () => {
    expect(gradePoint({ score: "85", schoolPoint: 3.7 }, scaleOf("score10"))).toBe(3.7);
  });

  it("a school counting score/10−5 sees its own figure, not the standard table's", () => {
    // 80, 80, 优 (3 credits each): the school's 3.00 + 3.00 + 4.5 … the standard table's 3, 3, 4.
    const records = [grade("A", "80"), grade("B", "80"), grade("C", "优")];
    expect(summariseGrades(records, scaleOf("standard4")).overall).toBe(3.33);
    expect(summariseGrades(records, scaleOf("score10")).overall).toBe(3.5);
  });

  it("a passed 补考 is capped at the rule's pass point", () => {
    const records = [grade("A", "50"), grade("A", "90", { term: "2024-2025-2", examKind: "makeup" })];
    expect(summariseGrades(records, scaleOf("five")).overall).toBe(2);
    expect(summariseGrades(records, scaleOf("score10")).overall).toBe(1);
  });

  it("the chart's top is the rule's top point; an unknown rule falls back to the standard table", () => {
    expect([chartMax(scaleOf("standard4")), chartMax(scaleOf("score10")), chartMax(scaleOf("five")), chartMax(scaleOf("wes"))]).toEqual([4, 5, 5, 4]);
    expect(parseGradeScale(null, "nonsense").formula).toBe("standard4");
    expect(parseGradeScale(JSON.stringify({ makeup: "replace" }), "score10")).toMatchObject({ formula: "score10", makeup: "replace", words: { 优: 4.5 } });
  });
});

describe("grade words by the school's table", () => {
  it.each([
    ["优", 4],
    ["优秀", 4],
    ["良", 3],
    ["良好", 3],
    ["中", 2],
    ["中等", 2],
    ["及格", 1],
    ["合格", 1],
    ["不及格", 0],
    ["缺考", 0],
    ["通过", null],
    ["", null],
  ])("%s → %s on the default table", (score, point) => {
    expect(gradePoint({ score, schoolPoint: null })).toBe(point);
  });

  it("a school's own word table replaces the default", () => {
    const scale: GradeScale = { ...DEFAULT_GRADE_SCALE, words: { 优: 4.5, 良: 3.5, 中: 2.5, 及格: 1.5, 不及格: 0 } };
    expect(gradePoint({ score: "优", schoolPoint: null }, scale)).toBe(4.5);
    expect(gradePoint({ score: "及格", schoolPoint: null }, scale)).toBe(1.5);
    expect(gradePoint({ score: "优秀", schoolPoint: null }, scale)).toBeNull();
  });
});

describe("school points against the 4.0 table", () => {
  it.each([
    // score, the school's point, the point that counts
    ["85", 3.5, 3.5],
    ["85", null, 3],
    ["92", 4.2, 4.2],
    ["92", null, 4],
    ["良", 3.3, 3.3],
    ["良", null, 3],
    ["58", 0, 0],
    ["通过", 2, 2],
  ])("score %s with school point %s counts %s", (score, schoolPoint, point) => {
    expect(gradePoint({ score, schoolPoint })).toBe(point);
  });

  it("the GPA uses the school's points where given and the table elsewhere", () => {
    const records = [grade("A", "85", { schoolPoint: 3.5, credit: 2 }), grade("B", "95", { credit: 2 })];
    // (2 × 3.5 + 2 × 4) / 4
    expect(summariseGrades(records).overall).toBe(3.75);
  });
});

describe("补考 and 重修", () => {
  it.each<[string, GradeRecord[], GradeScale, number | null]>([
    [
      "a passed 补考 replaces the fail and counts as a bare pass",
      [grade("高数", "45"), grade("高数", "88", { examKind: "makeup", term: "2024-2025-2" })],
      DEFAULT_GRADE_SCALE,
      1,
    ],
    [
      "under 'replace' a 补考 counts at its own points",
      [grade("高数", "45"), grade("高数", "88", { examKind: "makeup", term: "2024-2025-2" })],
      { ...DEFAULT_GRADE_SCALE, makeup: "replace" },
      3,
    ],
    [
      "a failed 补考 still replaces the original",
      [grade("高数", "45"), grade("高数", "50", { examKind: "makeup" })],
      DEFAULT_GRADE_SCALE,
      0,
    ],
    [
      "the school's own point for a 补考 is taken as given",
      [grade("高数", "45"), grade("高数", "88", { examKind: "makeup", schoolPoint: 1.5 })],
      DEFAULT_GRADE_SCALE,
      1.5,
    ],
    [
      "a 重修 replaces the original at full points",
      [grade("高数", "55"), grade("高数", "92", { examKind: "retake", term: "2025-2026-1" })],
      DEFAULT_GRADE_SCALE,
      4,
    ],
    [
      "a worse 重修 replaces the original under 'replace'",
      [grade("高数", "75"), grade("高数", "65", { examKind: "retake", term: "2025-2026-1" })],
      DEFAULT_GRADE_SCALE,
      1,
    ],
    [
      "a worse 重修 does not count under 'best'",
      [grade("高数", "75"), grade("高数", "65", { examKind: "retake", term: "2025-2026-1" })],
      { ...DEFAULT_GRADE_SCALE, retake: "best" },
      2,
    ],
    [
      "补考 then 重修: the 重修 counts",
      [
        grade("高数", "40"),
        grade("高数", "50", { examKind: "makeup", term: "2024-2025-2" }),
        grade("高数", "81", { examKind: "retake", term: "2025-2026-1" }),
      ],
      DEFAULT_GRADE_SCALE,
      3,
    ],
  ])("%s", (_name, records, scale, overall) => {
    expect(summariseGrades(records, scale).overall).toBe(overall);
    expect(countGrades(records, scale).filter((entry) => entry.counts)).toHaveLength(1);
  });

  it("ties attempts by course code when the name differs", () => {
    const counted = countGrades([
      grade("高等数学A(上)", "40", { courseCode: "MATH101" }),
      grade("高等数学A（上）", "70", { courseCode: "MATH101", examKind: "makeup" }),
    ]);
    expect(counted.map((entry) => [entry.counts, entry.replaced])).toEqual([
      [false, true],
      [true, false],
    ]);
  });

  it("the replacing result counts in its own term, the original drops out of its term", () => {
    const summary = summariseGrades([
      grade("高数", "40", { credit: 4 }),
      grade("英语", "90", { credit: 2 }),
      grade("高数", "75", { examKind: "retake", term: "2024-2025-2", credit: 4 }),
    ]);
    expect(summary.terms.map((term) => [term.term, term.gpa, term.credits])).toEqual([
      ["2024-2025-2", 2, 4],
      ["2024-2025-1", 4, 2],
    ]);
  });
});

describe("credits and course types", () => {
  it("0-credit courses are shown but never counted", () => {
    const summary = summariseGrades([grade("形势与政策", "59", { credit: 0 }), grade("数据结构", "91", { credit: 4 })]);
    expect(summary.overall).toBe(4);
    expect(summary.credits).toBe(4);
    expect(summary.terms[0].grades).toHaveLength(2);
  });

  it("weights by credit, overall and 必修", () => {
    const summary = summariseGrades([
      grade("数据结构", "91", { credit: 4 }),
      grade("大学英语", "78", { credit: 2 }),
      grade("书法鉴赏", "62", { credit: 1, courseType: "elective" }),
      grade("体育", "良", { credit: 1, term: "2024-2025-2" }),
    ]);
    // (4×4 + 2×2 + 1×1 + 1×3) / 8 = 24/8
    expect(summary.overall).toBe(3);
    // (4×4 + 2×2 + 1×3) / 7 = 23/7
    expect(summary.required).toBe(3.29);
    expect(summary.terms.map((term) => term.gpa)).toEqual([3, 3]);
  });

  it("a term with nothing countable has no GPA", () => {
    expect(weightedGpa([])).toBeNull();
    expect(summariseGrades([grade("实习", "通过")]).overall).toBeNull();
  });
});

describe("new grades after a refresh", () => {
  it("finds results the previous copy did not have", () => {
    const before = [grade("高数", "45")];
    const after = [grade("高数", "45"), grade("高数", "70", { examKind: "makeup" }), grade("英语", "88", { term: "2024-2025-2" })];
    expect(newGrades(before, after).map((entry) => `${entry.course}:${entry.examKind}`)).toEqual(["高数:makeup", "英语:normal"]);
    expect(newGrades(after, after)).toEqual([]);
  });
});

describe("the GPA chart", () => {
  it("puts the oldest term on the left and 4.0 at the top", () => {
    const points = chartPoints([
      { term: "2025-2026-1", gpa: 4 },
      { term: "2024-2025-1", gpa: 0 },
      { term: "2024-2025-2", gpa: null },
    ]);
    expect(points.map((point) => point.term)).toEqual(["2024-2025-1", "2025-2026-1"]);
    expect(points[0]).toMatchObject({ x: CHART.padLeft + CHART.inset, y: CHART.height - CHART.padBottom });
    expect(points[1]).toMatchObject({ x: CHART.width - CHART.padRight - CHART.inset, y: CHART.padTop });
  });

  it("centres a single term", () => {
    const [point] = chartPoints([{ term: "2024-2025-1", gpa: 2 }]);
    expect(point.x).toBe((CHART.padLeft + CHART.width - CHART.padRight) / 2);
  });
});

describe("failing scores", () => {
  it.each([
    ["59.5", true],
    ["60", false],
    ["不及格", true],
    ["缺考", true],
    ["及格", false],
    ["优", false],
  ])("%s → %s", (score, failing) => {
    expect(isFailingScore(score)).toBe(failing);
  });
});

describe("a school's stored scale", () => {
  it.each<[string | null, GradeScale]>([
    [null, DEFAULT_GRADE_SCALE],
    ["not json", DEFAULT_GRADE_SCALE],
    ['{"makeup":"replace"}', { ...DEFAULT_GRADE_SCALE, makeup: "replace" }],
    ['{"retake":"best","makeup":"sometimes"}', { ...DEFAULT_GRADE_SCALE, retake: "best" }],
    ['{"words":{"优":4.5,"良":3.5}}', { ...DEFAULT_GRADE_SCALE, words: { 优: 4.5, 良: 3.5 } }],
    ['{"words":{"优":"A"}}', DEFAULT_GRADE_SCALE],
    ['{"words":{"优":9}}', DEFAULT_GRADE_SCALE],
  ])("%s", (json, scale) => {
    expect(parseGradeScale(json)).toEqual(scale);
  });
});
