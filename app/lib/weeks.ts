// Teaching-week lists and the week texts of Chinese academic systems.
// Pure: shared by the adapters, the timetable page and the calendar export.

export const MIN_WEEK = 1;
export const MAX_WEEK = 26;

type Parity = "odd" | "even" | null;

/** Folds full-width and QiangZhi spellings into the ZFsoft form ('1-15周(单)'). */
function normalise(text: string): string {
  return text
    .replace(/\[[^\]]*\]/g, "") // QiangZhi appends the periods: '1-16(周)[01-02节]'
    .replace(/[，、;；]/g, ",")
    .replace(/[－—–~～至]/g, "-")
    .replace(/（/g, "(")
    .replace(/）/g, ")")
    .replace(/\s+/g, "")
    .replace(/\((单|双)周\)/g, "周($1)") // QiangZhi '1-15(单周)'
    .replace(/\(周\)/g, "周"); // QiangZhi '1-16(周)'
}

function parseSegment(segment: string): number[] {
  // The parity marker filters only its own segment: '1-8周,10-16周(双)'.
  const parity: Parity = segment.includes("单") ? "odd" : segment.includes("双") ? "even" : null;
  const match = /^(\d+)(?:-(\d+))?$/.exec(segment.replace(/[^\d-]/g, ""));
  if (!match) return [];
  const a = Number(match[1]);
  const b = match[2] === undefined ? a : Number(match[2]);
  // Clamping before the loop also bounds the work on absurd input like '1-99999'.
  const from = Math.max(Math.min(a, b), MIN_WEEK);
  const to = Math.min(Math.max(a, b), MAX_WEEK);
  const weeks: number[] = [];
  for (let week = from; week <= to; week++) {
    if (parity === "odd" && week % 2 === 0) continue;
    if (parity === "even" && week % 2 === 1) continue;
    weeks.push(week);
  }
  return weeks;
}

/**
 * Expands a weeks text ('1-16周', '1-15周(单)', '1,3,5-9周', '1-8周,10-16周(双)',
 * QiangZhi '1-16(周)') into sorted unique week numbers within 1–26.
 * '1,6周' means weeks 1 and 6, never 1 to 6. Unreadable segments are skipped.
 */
export function parseWeeksText(text: string): number[] {
  const weeks = new Set<number>();
  for (const segment of normalise(text).split(",")) {
    for (const week of parseSegment(segment)) weeks.add(week);
  }
  return [...weeks].sort((x, y) => x - y);
}

type Piece =
  | { kind: "plain"; from: number; to: number }
  | { kind: "parity"; from: number; to: number; parity: "odd" | "even" };

/**
 * Writes weeks as readable ranges in the ZFsoft style: '1-16周', '1-15周(单)',
 * '2-16周(双)', '1,3,5-9周', '1-8周,10-16周(双)'. parseWeeksText reads it back unchanged.
 */
export function formatWeeks(weeks: number[]): string {
  const sorted = [...new Set(weeks)]
    .filter((w) => Number.isInteger(w) && w >= MIN_WEEK && w <= MAX_WEEK)
    .sort((x, y) => x - y);

  // 1. Maximal runs of consecutive weeks.
  const runs: { from: number; to: number }[] = [];
  for (const week of sorted) {
    const last = runs[runs.length - 1];
    if (last && week === last.to + 1) last.to = week;
    else runs.push({ from: week, to: week });
  }

  // 2. Neighbouring single weeks two apart (at least three of them) become an odd/even range;
  //    runs are kept whole so '1,3,5-9周' does not turn into '1-5周(单),6-9周'.
  const pieces: Piece[] = [];
  for (let i = 0; i < runs.length; ) {
    let j = i;
    while (
      j + 1 < runs.length &&
      runs[j].from === runs[j].to &&
      runs[j + 1].from === runs[j + 1].to &&
      runs[j + 1].from === runs[j].from + 2
    ) {
      j++;
    }
    if (j - i >= 2) {
      const from = runs[i].from;
      pieces.push({ kind: "parity", from, to: runs[j].from, parity: from % 2 === 1 ? "odd" : "even" });
      i = j + 1;
    } else {
      pieces.push({ kind: "plain", ...runs[i] });
      i++;
    }
  }

  // 3. Every range carries '周' ('1-8周,10-16周'); a single week leans on the next plain piece's
  //    '周' ('1,3,5-9周', '1,6周'), the way ZFsoft writes it.
  const parts: string[] = [];
  pieces.forEach((piece, index) => {
    if (piece.kind === "parity") {
      parts.push(`${piece.from}-${piece.to}周(${piece.parity === "odd" ? "单" : "双"})`);
    } else if (piece.from !== piece.to) {
      parts.push(`${piece.from}-${piece.to}周`);
    } else {
      parts.push(pieces[index + 1]?.kind === "plain" ? `${piece.from}` : `${piece.from}周`);
    }
  });
  return parts.join(",");
}
