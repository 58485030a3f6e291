// The model every academic-system adapter (demo, ZFsoft, QiangZhi…) speaks.
import type { ScheduleCourse } from "~/lib/schedule";
import type { SchoolSystemKind } from "~/lib/school-systems";
import type { ExamRecord } from "../../lib/exams";
import type { GradeRecord, GradeScale } from "../../lib/grades";

export type { ExamRecord } from "../../lib/exams";
export type { GradeRecord } from "../../lib/grades";

export type LoginFailureKind =
  | "wrong_password"
  | "account_missing"
  | "account_locked"
  | "captcha_required"
  | "unavailable"
  | "timeout"
  | "failed";

export type LoginFailure = {
  kind: LoginFailureKind;
  /** The school's own words (its tip text), shown to the student when present. */
  schoolMessage?: string;
  /** captcha_required with an image captcha the student can answer: pass it back to login(). */
  challenge?: CaptchaChallenge;
};

/** The school's image captcha: the picture and the (opaque) school session it belongs to. */
export type CaptchaChallenge = { image: string; contentType: string; state: Record<string, string> };

/** The student's reading of a CaptchaChallenge, for a second login() in the same school session. */
export type CaptchaAnswer = { answer: string; state: Record<string, string> };

export type Profile = { name: string; className?: string; college?: string };

/**
 * A course as the school lists it: weekday 1 = Monday … 7 = Sunday; periods (节) 1-based and
 * inclusive (1–2 is the first slot); weeks sorted within 1–26.
 */
export type Course = ScheduleCourse & {
  /** The school's own weeks text ('1-15周(单)'), kept for display. */
  weeksText: string;
  kind?: "normal" | "experiment";
};

/** Practice, internship or other courses with no weekday or period. */
export type PracticeNote = {
  name: string;
  teacher: string;
  location: string;
  weeks: number[];
  description: string;
};

export type Timetable = {
  /** '2025-2026-1' */
  term: string;
  courses: Course[];
  notes: PracticeNote[];
};

export type TermInfo = {
  currentTerm: string;
  /** YYYY-MM-DD, a Monday */
  week1Start: string;
  /** Newest first. */
  terms: { code: string; label: string }[];
};


/** A rank the school's system itself publishes (e.g. 专业排名 12/86); never computed by us. */
export type Ranking = { scope: string; rank: number; total: number | null };

export type GradeReport = {
  /** Every term's results the school shows. */
  grades: GradeRecord[];
  /** null: this school's system exposes no ranking. */
  ranking: Ranking | null;
};

export type GradesResult = GradeReport | { sessionExpired: true };

export type ExamList = { term: string; exams: ExamRecord[] };
export type ExamsResult = ExamList | { sessionExpired: true };
// The kinds are one list in app/lib (the admin school form offers them).
export type { SchoolSystemKind };

export type SchoolConfig = {
  code: string;
  name: string;
  system: SchoolSystemKind;
  /** ZFsoft: the jwglxt base, e.g. 'https://jw.example.edu.cn/jwglxt'; QiangZhi: the host (its /jsxsd is added). */
  baseUrl?: string;
  /**
   * Monday of week 1 per term code, when the school publishes it. ZFsoft's term page does not
   * carry it, so without an entry the first Monday of September/March is assumed.
   */
  week1Starts?: Record<string, string>;
  /** How the school counts grades; absent: the standard 4.0 table and the usual rules. */
  gradeScale?: GradeScale;
};

/**
 * What an adapter needs to keep talking to the school after login (e.g. its cookies).
 * Plain JSON so it can be stored with our own session; callers must treat `data` as opaque.
 */
export interface AcademicSession {
  readonly system: SchoolSystemKind;
  readonly studentId: string;
  readonly data: Record<string, string>;
}

export type LoginResult =
  | { ok: true; profile: Profile; session: AcademicSession }
  | { ok: false; failure: LoginFailure };

export type TimetableResult = Timetable | { sessionExpired: true };

export interface AcademicSystem {
  /** `captcha` answers a challenge an earlier attempt returned (schools with an image captcha). */
  login(studentId: string, password: string, captcha?: CaptchaAnswer): Promise<LoginResult>;
  /** `term` is a code like '2025-2026-1'; an invalid code throws a RangeError. */
  timetable(session: AcademicSession, term: string): Promise<TimetableResult>;
  /** Throws AcademicSystemError (kind 'session_expired' when the school's session is gone). */
  termInfo(session: AcademicSession): Promise<TermInfo>;
  /** Every term's grades (and the school's ranking where it has one). */
  grades(session: AcademicSession): Promise<GradesResult>;
  /** The exam arrangements of a term ('2025-2026-1'). */
  exams(session: AcademicSession, term: string): Promise<ExamsResult>;
}

export type AcademicSystemErrorKind = "unavailable" | "timeout" | "session_expired" | "failed";

/** Thrown by timetable() and termInfo() when the school cannot answer usefully. */
export class AcademicSystemError extends Error {
  readonly kind: AcademicSystemErrorKind;
  readonly schoolMessage?: string;

  constructor(kind: AcademicSystemErrorKind, message: string, schoolMessage?: string) {
    super(message);
    this.name = "AcademicSystemError";
    this.kind = kind;
    this.schoolMessage = schoolMessage;
  }
}

/**
 * Thrown by withAcademicSession when the school rejects the stored credentials (or there are none):
 * the student's own session has ended, and they must log in again. `returnTo` is the page to come
 * back to; the HTTP layer (app/server/http/remix.ts) sends the browser to the login page with it.
 */
export class StoredCredentialsRejected extends Error {
  constructor(readonly returnTo?: string) {
    super("the school rejected the stored credentials");
    this.name = "StoredCredentialsRejected";
  }
}

export function isSessionExpired(result: TimetableResult | GradesResult | ExamsResult): result is { sessionExpired: true } {
  return "sessionExpired" in result;
}
