// A student's own changes to the timetable: courses they add and local overrides of the school's
// courses (room, time, weeks, hidden, a note, a colour). Pure: the merge runs on every /schedule
// load and feed request over the school's cached timetable, so a refresh from the school never
// loses a change (the changes live in their own rows, the school's copy is only ever replaced).
import type { ScheduleCourse } from "./schedule";
import { courseColour, COURSE_COLOURS } from "./schedule";
import { MAX_WEEK, MIN_WEEK, formatWeeks } from "./weeks";

/** Periods a student may enter: schools teach up to 12 a day. */
export const MAX_PERIOD = 12;
export const COURSE_NAME_MAX = 40;
export const COURSE_TEXT_MAX = 30;
export const COURSE_NOTE_MAX = 200;
/** Changes a student may keep per term (own courses and overrides together). */
export const TIMETABLE_EDITS_MAX = 80;

/** A synced course as the school sends it (weeksText kept for display). */
export type SyncedCourse = ScheduleCourse & { weeksText?: string };

/** The editable fields of a change, as stored (null: keep the school's value). */
export type EditFields = {
  hidden: boolean;
  name: string | null;
  teacher: string | null;
  location: string | null;
  weekday: number | null;
  startPeriod: number | null;
  endPeriod: number | null;
  weeks: number[] | null;
  note: string;
  colour: number | null;
  /** A removed change is kept (for undo) but no longer applies. */
  removed: boolean;
};

/** A change that changes nothing: what a new change starts from, and an undo goes back to. */
export const NO_CHANGE: EditFields = {
  hidden: false,
  name: null,
  teacher: null,
  location: null,
  weekday: null,
  startPeriod: null,
  endPeriod: null,
  weeks: null,
  note: "",
  colour: null,
  removed: false,
};

export type TimetableEdit = EditFields & {
  id: number;
  kind: "own" | "override";
  /** override: the key of the school's course it changes (syncedCourseKey). */
  courseKey: string | null;
};

export type MergedCourse = ScheduleCourse & {
  weeksText: string;
  source: "school" | "own";
  /** The change behind this course (an own course's row, or the override), null when untouched. */
  editId: number | null;
  /** Position among the school's courses (the mutual-help link's key); null for an own course. */
  syncedIndex: number | null;
  hidden: boolean;
  note: string;
  colour: number;
};

/**
 * Identifies a school course across refreshes: what the school says about it, not its position.
 * When the school itself moves the course, the override no longer matches and the school's new
 * data shows (the school's change is the newer one).
 */
export function syncedCourseKey(course: Pick<SyncedCourse, "name" | "teacher" | "weekday" | "startPeriod" | "endPeriod">): string {
  return [course.name, course.teacher, course.weekday, course.startPeriod, course.endPeriod].join("|");
}

const SEGMENT = /^\d{1,2}(-\d{1,2})?周?(\((单|双)周?\)|[单双]周?)?$/;

/**
 * Reads the weeks a student types: '1-16', '1-8,10-16', '1-15单', '2-16双', '1-16周(单)', '3,5,7'.
 * Null when any part is unreadable or lies outside weeks 1–26 (the form then says so, rather than
 * quietly dropping a part the way a school's text is read).
 */
export function readWeeksInput(text: string): number[] | null {
  const cleaned = text
    .replace(/[，、;；\s]+/g, ",")
    .replace(/[－—–~～至]/g, "-")
    .replace(/（/g, "(")
    .replace(/）/g, ")")
    .replace(/^,+|,+$/g, "");
  if (!cleaned) return null;
  const weeks = new Set<number>();
  for (const segment of cleaned.split(",")) {
    if (!SEGMENT.test(segment)) return null;
    const [a, b = a] = segment.replace(/[^\d-]/g, "").split("-").map(Number);
    if (a < MIN_WEEK || b > MAX_WEEK || b < a) return null;
    const parity = segment.includes("单") ? 1 : segment.includes("双") ? 0 : null;
    for (let week = a; week <= b; week++) if (parity === null || week % 2 === parity) weeks.add(week);
  }
  return weeks.size ? [...weeks].sort((x, y) => x - y) : null;
}

function applyOverride(course: SyncedCourse, edit: TimetableEdit): SyncedCourse {
  return {
    ...course,
    location: edit.location ?? course.location,
    weekday: edit.weekday ?? course.weekday,
    startPeriod: edit.startPeriod ?? course.startPeriod,
    endPeriod: edit.endPeriod ?? course.endPeriod,
    weeks: edit.weeks ?? course.weeks,
    weeksText: edit.weeks ? formatWeeks(edit.weeks) : course.weeksText,
  };
}

/**
 * The timetable the student sees: the school's courses in the school's order (so their positions
 * stay the keys of mutual-help links), each with its override applied, then the student's own
 * courses. Hidden courses stay in the list (to be shown again) with `hidden` set; removed changes
 * do not apply.
 */
export function mergeTimetable(synced: SyncedCourse[], edits: TimetableEdit[]): MergedCourse[] {
  const live = edits.filter((edit) => !edit.removed);
  const overrides = new Map<string, TimetableEdit>();
  for (const edit of live) if (edit.kind === "override" && edit.courseKey) overrides.set(edit.courseKey, edit);
  const colourOf = (edit: TimetableEdit | undefined, name: string) =>
    edit?.colour != null && edit.colour >= 0 && edit.colour < COURSE_COLOURS ? edit.colour : courseColour(name);

  const merged: MergedCourse[] = synced.map((course, index) => {
    const edit = overrides.get(syncedCourseKey(course));
    const shown = edit ? applyOverride(course, edit) : course;
    return {
      ...shown,
      weeksText: formatWeeks(shown.weeks) || shown.weeksText || "",
      source: "school" as const,
      editId: edit?.id ?? null,
      syncedIndex: index,
      hidden: edit?.hidden ?? false,
      note: edit?.note ?? "",
      colour: colourOf(edit, course.name),
    };
  });
  for (const edit of live) {
    if (edit.kind !== "own" || !edit.name || edit.weekday === null || edit.startPeriod === null || edit.endPeriod === null || !edit.weeks) continue;
    merged.push({
      name: edit.name,
      teacher: edit.teacher ?? "",
      location: edit.location ?? "",
      weekday: edit.weekday,
      startPeriod: edit.startPeriod,
      endPeriod: edit.endPeriod,
      weeks: edit.weeks,
      weeksText: formatWeeks(edit.weeks),
      source: "own",
      editId: edit.id,
      syncedIndex: null,
      hidden: edit.hidden,
      note: edit.note,
      colour: colourOf(edit, edit.name),
    });
  }
  return merged;
}

/** The courses that take place (hidden ones left out), for the grid, today and the feed. */
export function shownCourses(courses: MergedCourse[]): MergedCourse[] {
  return courses.filter((course) => !course.hidden);
}

/**
 * The first other shown course meeting at the same time as course `index` in some week (same
 * weekday, overlapping periods, a common week): what the form warns about after saving.
 */
export function clashWith(courses: MergedCourse[], index: number): MergedCourse | null {
  const course = courses[index];
  if (!course || course.hidden) return null;
  return (
    courses.find(
      (other, i) =>
        i !== index &&
        !other.hidden &&
        other.weekday === course.weekday &&
        other.startPeriod <= course.endPeriod &&
        course.startPeriod <= other.endPeriod &&
        other.weeks.some((week) => course.weeks.includes(week)),
    ) ?? null
  );
}
