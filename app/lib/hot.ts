// 热门: a post's heat is the sum of its events (being posted, each like, each comment), each
// worth its weight and halving every HOT_HALF_LIFE_HOURS since it happened. Every event decays
// at the same rate, so the order of two posts never changes on its own as time passes: it
// changes only when an event happens. The score is therefore stored (the logarithm of the sum,
// measured at HOT_EPOCH, so it grows with time and never overflows) and updated on each event,
// and an index on it serves the 热门 list.

export const HOT_HALF_LIFE_HOURS = 24;
/** The instant scores are measured at (any fixed instant would do; this one keeps numbers small). */
export const HOT_EPOCH = Date.UTC(2026, 0, 1);
export const HOT_WEIGHTS = { post: 1, like: 1, comment: 2 } as const;

export type HotEvent = { kind: keyof typeof HOT_WEIGHTS; at: string | Date };

const LN2 = Math.log(2);

/** One event's contribution, in log space: ln(weight) + (hours since the epoch / half-life) · ln 2. */
export function hotTerm(event: HotEvent) {
  const at = typeof event.at === "string" ? Date.parse(event.at) : event.at.getTime();
  return Math.log(HOT_WEIGHTS[event.kind]) + ((at - HOT_EPOCH) / 3_600_000 / HOT_HALF_LIFE_HOURS) * LN2;
}

/** ln(e^a + e^b) without leaving log space. */
export function logAddExp(a: number, b: number) {
  const high = Math.max(a, b);
  return high + Math.log1p(Math.exp(-Math.abs(a - b)));
}

/** ln(e^a − e^b), never below `floor` (the post's own term: an event taken back cannot take more than it added). */
export function logSubExp(a: number, b: number, floor: number) {
  if (b >= a) return floor;
  return Math.max(floor, a + Math.log1p(-Math.exp(b - a)));
}

/** A post's score from all its events. */
export function hotScore(events: HotEvent[]) {
  return events.reduce((score, event) => logAddExp(score, hotTerm(event)), -Infinity);
}

/** The heat at an instant (the weighted, decayed count of events): what the score stands for. */
export function heatAt(score: number, at: Date) {
  return Math.exp(score - hotTerm({ kind: "like", at }));
}
