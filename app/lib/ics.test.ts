import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { buildIcs, escapeText, foldLine, type IcsEvent } from "./ics";

const EVENTS: IcsEvent[] = [
  {
    uid: "a1@timetable",
    date: "2026-09-07",
    start: "08:10",
    end: "09:40",
    summary: "数据结构",
    location: "信息楼A301",
    description: "教师：王建华\n周次：1-16周\n第1-2节（第1周）",
  },
  {
    uid: "b2@timetable",
    date: "2026-12-31",
    start: "19:00",
    end: "20:40",
    summary: "形势与政策; 专题, 讲座\\二",
    location: "教三-201",
    description: "很长的说明".repeat(30),
  },
];

const text = buildIcs({ name: "2026-2027学年第1学期课表", generatedAt: new Date("2026-11-22T04:00:00Z"), events: EVENTS, refreshInterval: "PT6H" });

describe("iCalendar text", () => {
  it("ends every line with CRLF and keeps every line within 75 octets", () => {
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of text.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });

  it("folds without cutting a Chinese character in two", () => {
    const folded = foldLine(`DESCRIPTION:${"课".repeat(40)}`);
    const pieces = folded.split("\r\n");
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces.slice(1)) expect(piece.startsWith(" ")).toBe(true);
    expect(pieces.map((piece, i) => (i === 0 ? piece : piece.slice(1))).join("")).toBe(`DESCRIPTION:${"课".repeat(40)}`);
    expect(foldLine("SHORT:x")).toBe("SHORT:x");
  });

  it.each<[string, string]>([
    ["a;b", "a\\;b"],
    ["a,b", "a\\,b"],
    ["a\\b", "a\\\\b"],
    ["a\nb", "a\\nb"],
    ["a\r\nb", "a\\nb"],
  ])("escapes %j as %j", (raw, escaped) => {
    expect(escapeText(raw)).toBe(escaped);
  });

  it("is read by a real iCalendar parser with the right Shanghai times, place and teacher", () => {
    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue("version")).toBe("2.0");
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("2026-2027学年第1学期课表");
    const zone = calendar.getFirstSubcomponent("vtimezone")!;
    expect(zone.getFirstPropertyValue("tzid")).toBe("Asia/Shanghai");
    ICAL.TimezoneService.register(zone);

    const events = calendar.getAllSubcomponents("vevent").map((vevent) => new ICAL.Event(vevent));
    expect(events).toHaveLength(2);
    const [first, second] = events;
    expect(first.uid).toBe("a1@timetable");
    expect(first.summary).toBe("数据结构");
    expect(first.location).toBe("信息楼A301");
    expect(first.description).toBe("教师：王建华\n周次：1-16周\n第1-2节（第1周）");
    expect(first.startDate.zone?.tzid).toBe("Asia/Shanghai");
    expect(first.startDate.toJSDate().toISOString()).toBe("2026-09-07T00:10:00.000Z");
    expect(first.endDate.toJSDate().toISOString()).toBe("2026-09-07T01:40:00.000Z");

    expect(second.summary).toBe("形势与政策; 专题, 讲座\\二");
    expect(second.description).toBe("很长的说明".repeat(30));
    expect(second.startDate.toJSDate().toISOString()).toBe("2026-12-31T11:00:00.000Z");
    expect(second.endDate.toJSDate().toISOString()).toBe("2026-12-31T12:40:00.000Z");
  });

  it("is a valid empty calendar when there are no classes", () => {
    const empty = new ICAL.Component(ICAL.parse(buildIcs({ name: "课表", generatedAt: new Date(), events: [] })));
    expect(empty.getAllSubcomponents("vevent")).toHaveLength(0);
  });
});
