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
import { parseWeeksText } from "../../lib/weeks";
import type {
  AcademicSession,
  AcademicSystem,
  Course,
  LoginResult,
  PracticeNote,
  Profile,
  TermInfo,
  Timetable,
  TimetableResult,
} from "./types";

export const DEMO_SCHOOL = { code: "demo", name: "演示大学", system: "demo" } as const;
/** Shared by both demo students; documented on the login page's help text. */
export const DEMO_PASSWORD = "demo1234";

/** name, teacher, location, weekday, first period of a two-period slot, weeks text */
type CourseRow = [string, string, string, number, 1 | 3 | 5 | 7 | 9, string];
/** name, teacher, location, weeks text, description */
type NoteRow = [string, string, string, string, string];

type TermPlan = { courses: CourseRow[]; notes: NoteRow[] };

interface DemoStudent {
  profile: Required<Profile>;
  /** Autumn and spring plans; short terms (3) only carry practice notes. */
  plans: { 1: TermPlan; 2: TermPlan; 3: TermPlan };
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
  },
};

// A third account with 20230001's courses. The timetable's browser tests log in with it, so they
// never share a student with the login tests (a new login ends that student's other sessions).
DEMO_STUDENTS["20230003"] = {
  profile: { name: "王芳", className: "计算机科学与技术2302班", college: "计算机学院" },
  plans: DEMO_STUDENTS["20230001"].plans,
};

// Two more accounts for trying the invite campaign (its registration is a school-account login,
// issue 16); the campaign's browser tests register with them, apart from the login tests.
DEMO_STUDENTS["20230004"] = {
  profile: { name: "赵磊", className: "汉语言文学2301班", college: "文学院" },
  plans: DEMO_STUDENTS["20230002"].plans,
};
DEMO_STUDENTS["20230005"] = {
  profile: { name: "孙悦", className: "汉语言文学2301班", college: "文学院" },
  plans: DEMO_STUDENTS["20230002"].plans,
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
