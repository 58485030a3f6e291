import { describe, expect, it } from "vitest";
import { deadlineAt, earliestDeadline } from "./pickup-deadline";

// Entered at 2026-11-28 10:00 Shanghai (02:00 UTC).
const entered = new Date("2026-11-28T02:00:00.000Z");

describe("deadlineAt: the station's deadline as an instant", () => {
  it.each<[string, string | null]>([
    ["今天18:00前", "2026-11-28T10:00:00.000Z"],
    ["21:00前", "2026-11-28T13:00:00.000Z"],
    ["20:30前", "2026-11-28T12:30:00.000Z"],
    ["当日7点前", "2026-11-28T11:00:00.000Z"],
    ["当日16:00前", "2026-11-28T08:00:00.000Z"],
    ["六点前", "2026-11-28T10:00:00.000Z"],
    ["十九点前", "2026-11-28T11:00:00.000Z"],
    ["21点前", "2026-11-28T13:00:00.000Z"],
    ["下午1点前", "2026-11-28T05:00:00.000Z"],
    ["上午10点前", "2026-11-28T02:00:00.000Z"],
    ["5点半前", "2026-11-28T09:30:00.000Z"],
    ["明天18:00前", "2026-11-29T10:00:00.000Z"],
    ["12.20前", "2026-12-19T16:00:00.000Z"],
    ["12月20日前", "2026-12-19T16:00:00.000Z"],
    ["3天内", "2026-11-30T16:00:00.000Z"],
    ["24小时内", "2026-11-29T02:00:00.000Z"],
    ["今天前", null],
    ["", null],
    ["营业时间", null],
  ])("%s", (text, instant) => {
    expect(deadlineAt(text, entered)).toBe(instant);
  });
  it("a date of January entered in late December is next year's", () => {
    expect(deadlineAt("1.3前", new Date("2026-12-30T02:00:00.000Z"))).toBe("2027-01-02T16:00:00.000Z");
  });
  it("the earliest of several parcels, none when none has one", () => {
    expect(earliestDeadline([null, "2026-11-28T13:00:00.000Z", "2026-11-28T10:00:00.000Z"])).toBe("2026-11-28T10:00:00.000Z");
    expect(earliestDeadline([null, undefined])).toBeNull();
  });
});
