import { describe, expect, it } from "vitest";
import { heatAt, HOT_EPOCH, HOT_HALF_LIFE_HOURS, hotScore, hotTerm, logAddExp, logSubExp } from "./hot";

const hours = (n: number) => new Date(HOT_EPOCH + n * 3_600_000);

describe("the hot score", () => {
  it.each([
    // events, when measured, heat
    [[{ kind: "post" as const, at: hours(0) }], hours(0), 1],
    [[{ kind: "post" as const, at: hours(0) }], hours(HOT_HALF_LIFE_HOURS), 0.5],
    [[{ kind: "post" as const, at: hours(0) }, { kind: "like" as const, at: hours(0) }], hours(0), 2],
    [[{ kind: "post" as const, at: hours(0) }, { kind: "comment" as const, at: hours(0) }], hours(0), 3],
    [[{ kind: "post" as const, at: hours(0) }, { kind: "like" as const, at: hours(24) }], hours(24), 1.5],
  ])("%j at %s → heat %f", (events, at, heat) => {
    expect(heatAt(hotScore(events), at)).toBeCloseTo(heat, 10);
  });

  it("keeps two posts' order as time passes: only events change it", () => {
    const a = hotScore([{ kind: "post", at: hours(0) }, { kind: "like", at: hours(1) }, { kind: "like", at: hours(2) }]);
    const b = hotScore([{ kind: "post", at: hours(10) }]);
    expect(a > b).toBe(heatAt(a, hours(20)) > heatAt(b, hours(20)));
    expect(a > b).toBe(heatAt(a, hours(2000)) > heatAt(b, hours(2000)));
  });

  it("stays finite years from the epoch (log space)", () => {
    const far = hotScore([{ kind: "post", at: hours(24 * 365 * 10) }, { kind: "like", at: hours(24 * 365 * 10) }]);
    expect(Number.isFinite(far)).toBe(true);
    expect(far - hotTerm({ kind: "post", at: hours(24 * 365 * 10) })).toBeCloseTo(Math.log(2), 10);
  });

  it("takes an event back, never below the post's own term", () => {
    const post = hotTerm({ kind: "post", at: hours(0) });
    const like = hotTerm({ kind: "like", at: hours(5) });
    expect(logSubExp(logAddExp(post, like), like, post)).toBeCloseTo(post, 10);
    expect(logSubExp(post, like, post)).toBe(post);
  });
});
