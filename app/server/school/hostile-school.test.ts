// A school system (or whatever answers at its address) that is hostile: pages built to make a
// parser slow, a login that redirects elsewhere, an answer of 50 MB. The pages are read in time
// proportional to their length, memory stays bounded, and nothing leaves the school's host.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { allowFake } from "../../../tests/fakes/allow";
import { FAKE_QZ_STUDENT, startFakeQiangzhi, type FakeQiangzhi } from "../../../tests/fakes/qiangzhi-server";
import { FAKE_STUDENT } from "../../../tests/fakes/zfsoft-server";
import { parseHtml } from "./html.server";
import { createQiangzhiSystem, isLoginPage as qzIsLoginPage, loginError, nameFromHome, parseKbtable, parseQiangzhiGrades, parseTermSelect } from "./qiangzhi.server";
import { createZfsoftSystem, extractTips, isLoginPage, parseTermPage } from "./zfsoft.server";

const OCTOBER_2025 = () => new Date("2025-10-15T02:00:00Z");

/** Every page reader of both adapters over one page. */
function readEverything(html: string) {
  extractTips(html);
  isLoginPage(html);
  parseTermPage(html, "2025-2026-1");
  loginError(html);
  qzIsLoginPage(html);
  nameFromHome(html, "2023");
  parseKbtable(html);
  parseQiangzhiGrades(html);
  parseTermSelect(html, "2025-2026-1");
}

/**
 * The CPU time of the work in ms, the better of two runs: CPU time, not wall time, so other
 * processes on a shared machine do not count.
 */
function timeOf(work: () => void) {
  let best = Infinity;
  for (let run = 0; run < 2; run++) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const KB = 1024;
const HOSTILE: [string, (bytes: number) => string][] = [
  // The pen test's page: each '<font ' once made the regexes look ahead to the end.
  ["'<font ' repeated", (bytes) => "<font ".repeat(Math.ceil(bytes / 6))],
  ["unclosed attributes", (bytes) => `<font title="周次${"<font color=red title='".repeat(Math.ceil(bytes / 24))}`],
  ["table cells that never close", (bytes) => `<table id="kbtable"><tr>${"<td><div class=\"kbcontent\">课<br><font title=\"老师\">".repeat(Math.ceil(bytes / 48))}`],
  ["nested tags, then close tags of no open tag", (bytes) => "<div><b>".repeat(Math.ceil(bytes / 16)) + "</i></u>".repeat(Math.ceil(bytes / 16))],
];

describe("hostile pages are read in linear time", () => {
  it.each(HOSTILE)("%s: 192 KB through every reader in moments, and four times as much in about four times as long", (_, page) => {
    const small = page(192 * KB);
    const large = page(4 * 192 * KB);
    readEverything(small); // warm up the code paths
    const smallMs = timeOf(() => readEverything(small));
    const largeMs = timeOf(() => readEverything(large));
    // Nine readers, each parsing the page (the regexes took 9.6 s over one such login page).
    expect(smallMs).toBeLessThan(3_000);
    // Linear: ×4 the bytes, ~×4 the time (quadratic would be ×16). Slack for a shared machine.
    console.log(`[hostile] ${_}: ${Math.round(smallMs)} ms CPU for 192 KB, ${Math.round(largeMs)} ms for 768 KB`);
    expect(largeMs).toBeLessThan(Math.max(8 * smallMs, 200));
  });

  it("reads 10,000 nested tags without running out of stack, and still finds the table after them", () => {
    const rows = `<table id="dataList"><tr><th>开课学期</th><th>课程名称</th><th>成绩</th><th>学分</th></tr><tr><td>2025-2026-1</td><td>数据结构</td><td>86</td><td>4</td></tr></table>`;
    const html = `<html><body>${"<div><span>".repeat(5_000)}${"</span></div>".repeat(5_000)}${rows}</body></html>`;
    const ms = timeOf(() => readEverything(html));
    expect(ms).toBeLessThan(3_000);
    expect(parseQiangzhiGrades(html)).toMatchObject([{ term: "2025-2026-1", course: "数据结构", score: "86", credit: 4 }]);
  });

  it("keeps the tree bounded however many tags a page holds", () => {
    const before = process.memoryUsage().heapUsed;
    const page = parseHtml("<b>x".repeat(1_000_000)); // 4 MB of tags, within the 5 MB answer cap
    const grown = process.memoryUsage().heapUsed - before;
    expect(page.children.length).toBeGreaterThan(0);
    expect(grown).toBeLessThan(120 * 1024 * 1024);
  });
});

/** A "school" on loopback that answers every request with `answer`. */
async function hostileSchool(answer: (res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    answer(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const closers: (() => Promise<void>)[] = [];
let qz: FakeQiangzhi | undefined;
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await qz?.close();
  qz = undefined;
});

describe("a hostile school through the adapters", () => {
  it("answers a login whose page is 192 KB of '<font ' at once", async () => {
    const school = await hostileSchool((res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<font ".repeat(32 * KB)));
    closers.push(school.close);
    const started = process.cpuUsage();
    const result = await createZfsoftSystem({ baseUrl: school.baseUrl, now: OCTOBER_2025, outbound: allowFake(school.baseUrl) }).login(FAKE_STUDENT.id, FAKE_STUDENT.password);
    expect(result).toEqual({ ok: false, failure: { kind: "failed" } });
    // CPU time of this process (the fake's answering included): the regexes burnt ~10 s here.
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(1_500);
  });

  it("refuses a 50 MB answer at the 5 MB cap, before parsing it, with memory flat", async () => {
    const chunk = Buffer.alloc(256 * KB, "<font ");
    const school = await hostileSchool((res) => {
      res.writeHead(200, { "Content-Type": "text/html" }); // no length: it streams
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * KB && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    closers.push(school.close);
    let peak = 0;
    const baseline = process.memoryUsage();
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peak = Math.max(peak, now.heapUsed + now.arrayBuffers - baseline.heapUsed - baseline.arrayBuffers);
    }, 5);
    const started = process.cpuUsage();
    const result = await createQiangzhiSystem({ baseUrl: school.baseUrl, now: OCTOBER_2025, outbound: allowFake(school.baseUrl) }).login("2023", "pw");
    clearInterval(sampler);
    expect(result).toEqual({ ok: false, failure: { kind: "failed" } });
    // Cut at 5 MB: the CPU of reading 5 MB, not 50 (the fake's writing is in this process too).
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(3_000);
    expect(peak).toBeLessThan(48 * 1024 * KB);
  });

  it.each<[string, (elsewhere: string) => string]>([
    ["another host on loopback", (elsewhere) => `${elsewhere}/jsxsd/framework/xsMain.jsp`],
    ["the cloud metadata address", () => "http://169.254.169.254/jsxsd/framework/xsMain.jsp"],
    ["a decimal loopback address", () => "http://2130706433:1/jsxsd/framework/xsMain.jsp"],
  ])("does not follow a login that redirects to %s", async (_, target) => {
    const elsewhere = await hostileSchool((res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html><title>学生个人中心</title></html>"));
    closers.push(elsewhere.close);
    qz = await startFakeQiangzhi({ loginRedirect: target(elsewhere.baseUrl) });
    // Even a host the test lets through is refused: a redirect never leaves the school's host.
    const system = createQiangzhiSystem({ baseUrl: qz.baseUrl, now: OCTOBER_2025, outbound: allowFake(qz.baseUrl, elsewhere.baseUrl) });
    expect(await system.login(FAKE_QZ_STUDENT.id, FAKE_QZ_STUDENT.password)).toEqual({ ok: false, failure: { kind: "unavailable" } });
    expect(elsewhere.hits).toEqual([]);
  });
});
