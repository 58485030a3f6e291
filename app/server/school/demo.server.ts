// The built-in demo school (code 'demo'): seeded students and timetables, no network, so the app
// works out of the box. Its current term follows the clock, so the demo never goes stale.
import {
  defaultWeek1Start,
  parseTermCode,
  recentTerms,
  termForDate,
  termLabel,
  type TermNumber,
} from "../../lib/term";
import { addDays, shanghaiToday } from "../../lib/time";
import { parseWeeksText } from "../../lib/weeks";
import type {
  AcademicSession,
  AcademicSystem,
  Course,
  ExamRecord,
  ExamsResult,
  GradeRecord,
  GradesResult,
  LoginResult,
  PracticeNote,
  Profile,
  TermInfo,
  Timetable,
  TimetableResult,
  Ranking,
} from "./types";

export const DEMO_SCHOOL = { code: "demo", name: "演示大学", system: "demo" } as const;
/** Shared by both demo students; documented on the login page's help text. */
export const DEMO_PASSWORD = "demo1234";

/** name, teacher, location, weekday, first period of a two-period slot, weeks text */
type CourseRow = [string, string, string, number, 1 | 3 | 5 | 7 | 9, string];
/** name, teacher, location, weeks text, description */
type NoteRow = [string, string, string, string, string];

type TermPlan = { courses: CourseRow[]; notes: NoteRow[] };

/** course, credit, score, the school's point ('' = none given), 必 or 选, exam kind */
type GradeRow = [string, number, string, number | null, "必" | "选", GradeRecord["examKind"]?];
/** course, days from today (null: not scheduled yet), start, end, place, seat, exam name */
type ExamRow = [string, number | null, string, string, string, string, string];

interface DemoStudent {
  profile: Required<Profile>;
  /** Autumn and spring plans; short terms (3) only carry practice notes. */
  plans: { 1: TermPlan; 2: TermPlan; 3: TermPlan };
  /** Results of the regular terms before the current one, the latest term first. */
  grades: GradeRow[][];
  /** This term's exams, placed relative to today so the demo always has upcoming and past ones. */
  exams: ExamRow[];
  ranking: Ranking | null;
}

const DEMO_STUDENTS: Record<string, DemoStudent> = {
  "20230001": {
    profile: { name: "张明", className: "计算机科学与技术2301班", college: "计算机学院" },
    plans: {
      1: {
        courses: [
          ["数据结构", "王建华", "信息楼A301", 1, 1, "1-16周"],
          ["离散数学", "李红", "教二-204", 1, 3, "1-15周(单)"],
          ["大学物理(上)", "陈志刚", "教一-105", 2, 1, "1-16周"],
          ["计算机组成原理", "赵磊", "信息楼B102", 2, 5, "1-8周,10-16周"],
          ["大学英语(三)", "刘婷", "外语楼402", 3, 1, "1-16周"],
          ["数据结构", "王建华", "信息楼A301", 3, 3, "1-16周"],
          ["马克思主义基本原理", "周红", "教三-101", 4, 3, "1-16周"],
          ["大学物理实验", "孙立", "物理实验楼B203", 4, 7, "2-16周(双)"],
          ["体育(羽毛球)", "钱勇", "体育馆二楼", 5, 5, "1-16周"],
          ["形势与政策", "郑伟", "教三-201", 5, 9, "2-8周(双)"],
          ["Python程序设计", "吴昊", "信息楼A205", 6, 3, "1-12周"],
        ],
        notes: [
          ["认识实习", "赵磊", "校外实习基地", "17-18周", "赴合作企业参观学习，提交实习报告"],
          ["公益劳动", "白利波", "校园", "1周", "公益劳动白利波(共1周)/1周"],
        ],
      },
      2: {
        courses: [
          ["操作系统", "赵磊", "信息楼B102", 1, 1, "1-16周"],
          ["计算机网络", "王建华", "信息楼A301", 2, 3, "1-16周"],
          ["毛泽东思想和中国特色社会主义理论体系概论", "周红", "教三-101", 2, 5, "1-16周"],
          ["概率论与数理统计", "李红", "教二-204", 3, 1, "1-15周(单)"],
          ["数字电路实验", "孙立", "电子实验楼C305", 3, 7, "2-16周(双)"],
          ["大学物理(下)", "陈志刚", "教一-105", 4, 1, "1-16周"],
          ["数据库原理", "黄敏", "信息楼A402", 4, 5, "1-8周,10-16周"],
          ["大学英语(四)", "刘婷", "外语楼402", 5, 1, "1-16周"],
          ["体育(羽毛球)", "钱勇", "体育馆二楼", 5, 5, "1-16周"],
          ["软件工程导论", "吴昊", "信息楼A205", 7, 3, "1,3,5-9周"],
        ],
        notes: [["金工实习", "刘强", "工程训练中心", "17-18周", "车、铣、钳、焊基本操作训练，共2周"]],
      },
      3: {
        courses: [],
        notes: [["程序设计综合实践", "吴昊", "信息楼A205", "1-2周", "小学期集中实践，分组完成一个小型项目"]],
      },
    },
    grades: [
      [
        ["操作系统", 4, "88", null, "必"],
        ["计算机网络", 3, "91", null, "必"],
        ["概率论与数理统计", 3, "76", null, "必"],
        ["数据库原理", 3, "85", null, "必"],
        ["大学英语(四)", 2, "良", null, "必"],
        ["离散数学", 3, "68", null, "必", "retake"],
        ["软件工程导论", 2, "优", null, "选"],
      ],
      [
        ["数据结构", 4, "93", null, "必"],
        ["离散数学", 3, "55", null, "必"],
        ["大学物理(上)", 4, "58", null, "必"],
        ["大学物理(上)", 4, "72", null, "必", "makeup"],
        ["大学英语(三)", 2, "81", null, "必"],
        ["马克思主义基本原理", 3, "中", null, "必"],
        ["形势与政策", 0, "优", null, "必"],
        ["Python程序设计", 2, "95", null, "选"],
      ],
      [
        ["高等数学A(下)", 5, "79", null, "必"],
        ["程序设计基础", 4, "90", null, "必"],
        ["大学英语(二)", 2, "84", null, "必"],
        ["体育(篮球)", 1, "及格", null, "必"],
      ],
    ],
    exams: [
      ["数据结构", -12, "09:00", "11:00", "信息楼A301", "17", "期中考试"],
      ["大学物理(上)", -3, "14:30", "16:30", "教一-105", "5", "期中考试"],
      ["离散数学", 2, "09:00", "11:00", "教二-204", "23", "期末考试"],
      ["计算机组成原理", 9, "14:00", "16:00", "信息楼B102", "8", "期末考试"],
      ["大学英语(三)", 16, "08:30", "10:30", "外语楼402", "41", "期末考试"],
      ["Python程序设计", null, "", "", "", "", "期末考试"],
    ],
    ranking: { scope: "专业排名", rank: 12, total: 86 },
  },
  "20230002": {
    profile: { name: "李雪", className: "汉语言文学2302班", college: "文学院" },
    plans: {
      1: {
        courses: [
          ["古代汉语(上)", "郭文", "文学楼201", 1, 1, "1-16周"],
          ["中国古代文学史(三)", "沈清", "文学楼305", 1, 5, "1-16周"],
          ["现代汉语", "杨帆", "文学楼203", 2, 3, "1-15周(单)"],
          ["马克思主义基本原理", "周红", "教三-102", 2, 9, "1-16周"],
          ["外国文学史", "林月", "文学楼108", 3, 1, "1-8周,10-16周"],
          ["体育(太极拳)", "钱勇", "南区操场", 3, 5, "1-16周"],
          ["文学概论", "马骏", "文学楼305", 4, 3, "1-16周"],
          ["语音学实验", "何琳", "语言实验室C201", 4, 7, "2-16周(双)"],
          ["大学英语(三)", "Emily Zhang", "外语楼306", 5, 1, "1-16周"],
          ["书法鉴赏", "许墨", "艺术楼101", 6, 5, "1-12周"],
        ],
        notes: [["教育见习", "沈清", "附属中学", "9周", "到附属中学听课并协助批改作业"]],
      },
      2: {
        courses: [
          ["古代汉语(下)", "郭文", "文学楼201", 1, 1, "1-16周"],
          ["中国古代文学史(四)", "沈清", "文学楼305", 1, 5, "1-16周"],
          ["语言学概论", "杨帆", "文学楼203", 2, 3, "1-15周(单)"],
          ["中国现当代文学", "林月", "文学楼108", 3, 1, "1-8周,10-16周"],
          ["体育(太极拳)", "钱勇", "南区操场", 3, 5, "1-16周"],
          ["文学写作", "马骏", "文学楼305", 4, 3, "1-16周"],
          ["方言调查实验", "何琳", "语言实验室C201", 4, 7, "2-16周(双)"],
          ["大学英语(四)", "Emily Zhang", "外语楼306", 5, 1, "1-16周"],
          ["中华诗词鉴赏", "许墨", "艺术楼101", 7, 3, "1-12周"],
        ],
        notes: [["社会实践", "马骏", "校外", "17-18周", "暑期前开展方言与民俗调研，提交调研报告"]],
      },
      3: {
        courses: [],
        notes: [["军事训练", "武装部", "东区田径场", "1-2周", "军事技能训练，全体学生参加"]],
      },
    },
    grades: [
      [
        ["古代汉语(下)", 3, "86", null, "必"],
        ["中国古代文学史(四)", 3, "92", null, "必"],
        ["语言学概论", 2, "良", null, "必"],
        ["中华诗词鉴赏", 1, "优", null, "选"],
      ],
      [
        ["古代汉语(上)", 3, "78", null, "必"],
        ["现代汉语", 3, "88", null, "必"],
        ["书法鉴赏", 1, "及格", null, "选"],
      ],
    ],
    exams: [
      ["现代汉语", -5, "09:00", "11:00", "文学楼203", "12", "期中考试"],
      ["古代汉语(上)", 4, "09:00", "11:00", "文学楼201", "30", "期末考试"],
      ["文学概论", 11, "14:00", "16:00", "文学楼305", "6", "期末考试"],
    ],
    ranking: null,
  },
};

// A third account with 20230001's courses. The timetable's browser tests log in with it, so they
// never share a student with the login tests (a new login ends that student's other sessions).
DEMO_STUDENTS["20230003"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "王芳", className: "计算机科学与技术2302班", college: "计算机学院" },
};

// A fourth account with 20230001's courses and grades, for the grades and exams browser tests.
DEMO_STUDENTS["20230004"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "周强", className: "计算机科学与技术2302班", college: "计算机学院" },
};

// An account with 20230001's courses, grades and exams for the round-three screens' browser
// tests (the empty-week notice, the calendar sheet, the exams page), apart from every other spec.
DEMO_STUDENTS["20230019"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "吴越", className: "计算机科学与技术2302班", college: "计算机学院" },
};

// One more with 20230001's courses for the browser tests of coming back after a login and of
// mutual-help dates (a login ends that student's other sessions, so no other spec shares it).
DEMO_STUDENTS["20230035"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "李想", className: "计算机科学与技术2303班", college: "计算机学院" },
};

// Four accounts for the browser tests of logging out inside the messenger, another student
// logging in on it, and the nickname asked of a messenger placeholder, apart from every other spec.
for (const [id, name] of [["20230043", "钱多"], ["20230044", "郑好"], ["20230045", "冯晓"], ["20230046", "陈诺"]] as const) {
  DEMO_STUDENTS[id] = { ...DEMO_STUDENTS["20230001"]!, profile: { name, className: "计算机科学与技术2303班", college: "计算机学院" } };
}
// An account with 20230001's courses for the browser tests of a student's own courses, overrides
// and the timetable's display settings (they change its timetable, so no other spec shares it).
DEMO_STUDENTS["20230040"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "陈晨", className: "计算机科学与技术2301班", college: "计算机学院" },
};

// An account with 20230001's courses for the browser test of importing a timetable file (it adds
// own courses, so no other spec shares it).
DEMO_STUDENTS["20230047"] = {
  ...DEMO_STUDENTS["20230001"],
  profile: { name: "林导", className: "计算机科学与技术2301班", college: "计算机学院" },
};

// Two more accounts for trying the invite campaign (its registration is a school-account
// login); the campaign's browser tests register with them, apart from the login tests.
DEMO_STUDENTS["20230006"] = {
  ...DEMO_STUDENTS["20230002"],
  profile: { name: "赵磊", className: "汉语言文学2301班", college: "文学院" },
};
DEMO_STUDENTS["20230007"] = {
  ...DEMO_STUDENTS["20230002"],
  profile: { name: "孙悦", className: "汉语言文学2301班", college: "文学院" },
};

function toCourse([name, teacher, location, weekday, startPeriod, weeksText]: CourseRow): Course {
  return {
    name,
    teacher,
    location,
    weekday,
    startPeriod,
    endPeriod: startPeriod + 1,
    weeks: parseWeeksText(weeksText),
    weeksText,
    kind: name.includes("实验") ? "experiment" : "normal",
  };
}

function toNote([name, teacher, location, weeksText, description]: NoteRow): PracticeNote {
  return { name, teacher, location, weeks: parseWeeksText(weeksText), description };
}

/**
 * Academic years alternate the weekend course between Saturday and Sunday, so switching
 * semesters visibly changes the timetable while every term stays realistic.
 */
function planFor(student: DemoStudent, startYear: number, term: TermNumber): Pick<Timetable, "courses" | "notes"> {
  const plan = student.plans[term];
  const courses = plan.courses
    .map(toCourse)
    .map((course) =>
      startYear % 2 === 1 && course.weekday >= 6 ? { ...course, weekday: 13 - course.weekday } : course,
    )
    .sort((a, b) => a.weekday - b.weekday || a.startPeriod - b.startPeriod);
  return { courses, notes: plan.notes.map(toNote) };
}

/** The demo's results: the i-th list belongs to the i-th regular term before the current one. */
function gradesFor(student: DemoStudent, currentTerm: string): GradeRecord[] {
  const terms = recentTerms(currentTerm, student.grades.length + 1).slice(1);
  return student.grades.flatMap((rows, index) =>
    terms[index]
      ? rows.map(([course, credit, score, schoolPoint, type, examKind]) => ({
          term: terms[index],
          course,
          credit,
          score,
          schoolPoint,
          courseType: type === "必" ? ("required" as const) : ("elective" as const),
          examKind: examKind ?? "normal",
        }))
      : [],
  );
}

function examsFor(student: DemoStudent, term: string, today: string): ExamRecord[] {
  return student.exams.map(([course, offset, start, end, place, seat, kind]) => ({
    term,
    course,
    date: offset === null ? null : addDays(today, offset),
    start: offset === null ? null : start,
    end: offset === null ? null : end,
    place,
    seat,
    kind,
  }));
}

export function createDemoSystem(options: { now?: () => Date } = {}): AcademicSystem {
  const now = options.now ?? (() => new Date());

  const studentOf = (session: AcademicSession): DemoStudent | undefined =>
    session.system === "demo" ? DEMO_STUDENTS[session.studentId] : undefined;

  return {
    async login(studentId, password): Promise<LoginResult> {
      const student = DEMO_STUDENTS[studentId];
      if (!student) return { ok: false, failure: { kind: "account_missing" } };
      if (password !== DEMO_PASSWORD) return { ok: false, failure: { kind: "wrong_password" } };
      return {
        ok: true,
        profile: { ...student.profile },
        session: { system: "demo", studentId, data: {} },
      };
    },

    async timetable(session, term): Promise<TimetableResult> {
      const parsed = parseTermCode(term);
      if (!parsed) throw new RangeError(`invalid term code: ${term}`);
      const student = studentOf(session);
      if (!student) return { sessionExpired: true };
      return { term, ...planFor(student, parsed.startYear, parsed.term) };
    },

    async grades(session): Promise<GradesResult> {
      const student = studentOf(session);
      if (!student) return { sessionExpired: true };
      return { grades: gradesFor(student, termForDate(now()).code), ranking: student.ranking };
    },

    async exams(session, term): Promise<ExamsResult> {
      if (!parseTermCode(term)) throw new RangeError(`invalid term code: ${term}`);
      const student = studentOf(session);
      if (!student) return { sessionExpired: true };
      // Only the current term has arrangements; earlier terms' exams are long over.
      const exams = term === termForDate(now()).code ? examsFor(student, term, shanghaiToday(now())) : [];
      return { term, exams };
    },

    async termInfo(): Promise<TermInfo> {
      const currentTerm = termForDate(now()).code;
      return {
        currentTerm,
        week1Start: defaultWeek1Start(currentTerm)!,
        terms: recentTerms(currentTerm, 4).map((code) => ({ code, label: termLabel(code) })),
      };
    },
  };
}
