// A fake QiangZhi (强智) /jsxsd server on loopback replaying the real protocol: the login page
// (with an image captcha when enabled), flag=sess handing out scode#sxh (older deployments) or
// not existing (newer, base64 `encoded`), LoginToXk with its red-font errors and its 302 to
// xsMain.jsp, and the HTML pages of the timetable (table#kbtable), terms (select xnxq01id),
// grades and exams (table#dataList), each answering the login page once the session is gone.
import crypto from "node:crypto";
import http from "node:http";
import { listenOnLoopback, pageServer, readBody } from "./loopback";

export type QiangzhiVariant = "base64" | "interleave";

export interface FakeQiangzhiStudent {
  id: string;
  password: string;
  name: string;
}

export interface FakeQiangzhiOptions {
  students?: FakeQiangzhiStudent[];
  /** Which `encoded` the server expects; 'interleave' also answers flag=sess. */
  variant?: QiangzhiVariant;
  captcha?: boolean;
  /** The term selected on the timetable page. */
  currentTerm?: string;
  /** Weekday columns starting with Sunday, as some schools show them. */
  sundayFirst?: boolean;
  /** Extra seconds of silence before every answer (timeouts). */
  slowMs?: number;
  /** Where a successful login's 302 points instead of /jsxsd/framework/xsMain.jsp (a hostile school). */
  loginRedirect?: string;
}

export interface FakeQiangzhiState {
  /** Logged-in JSESSIONIDs → student id; clear it to expire every session. */
  sessions: Map<string, string>;
  /** The captcha text shown to each pre-login session (what a student reads off the picture). */
  captchas: Map<string, string>;
  /** Raw bodies of LoginToXk posts (never the password in clear). */
  loginBodies: string[];
  requests: string[];
  /** Grade rows served; push one to publish a new result. */
  grades: GradeRow[];
}

export interface FakeQiangzhi {
  baseUrl: string;
  state: FakeQiangzhiState;
  close(): Promise<void>;
}

export const FAKE_QZ_STUDENT: FakeQiangzhiStudent = { id: "202301020304", password: "Qz#2023pass", name: "赵小川" };

/** 开课学期, 课程编号, 课程名称, 成绩, 学分, 绩点, 课程属性, 考试性质 */
export type GradeRow = [string, string, string, string, string, string, string, string];

export const FAKE_QZ_GRADES: GradeRow[] = [
  ["2024-2025-1", "B1001", "高等数学(上)", "58", "5", "0", "必修", "正常考试"],
  ["2024-2025-1", "B1002", "大学英语(一)", "良好", "3", "3.5", "必修", "正常考试"],
  ["2024-2025-1", "B1003", "军事理论", "优秀", "0", "", "必修", "正常考试"],
  ["2024-2025-2", "B1001", "高等数学(上)", "75", "5", "1", "必修", "补考"],
  ["2024-2025-2", "X2001", "摄影基础", "91", "2", "", "任选", "正常考试"],
  ["2025-2026-1", "B2001", "数据结构", "86", "4", "3.6", "必修", "正常考试"],
];

/** Weekday (1 = Monday), period block (1 = periods 1–2), cell HTML. */
const TIMETABLE: Record<string, [number, number, string][]> = {
  "2025-2026-1": [
    [1, 1, course("数据结构", "王建华", "1-16(周)[01-02节]", "明德楼A301")],
    [1, 2, course("数据结构", "王建华", "1-16(周)[03-04节]", "明德楼A301")],
    [
      3,
      3,
      `${course("形势与政策", "郑伟", "1-15(单周)[05-06节]", "至善楼201")}---------------------<br>${course("心理健康", "吴静", "2-16(双周)[05-06节]", "至善楼202")}`,
    ],
    [5, 2, course("大学物理实验", "孙立", "1-3,6,11-12(周)[03-04节]", "物理楼B203")],
    [7, 1, course("篮球", "钱勇", "1-12(周)[01-02节]", "体育馆")],
  ],
  "2024-2025-2": [[2, 1, course("线性代数", "赵敏", "1-16(周)[01-02节]", "明德楼B105")]],
};

function course(name: string, teacher: string, time: string, room: string) {
  return `${name}<br/><font title="老师">${teacher}</font><br/><font title="周次(节次)">${time}</font><br/><font title="教室">${room}</font><br/>`;
}

const EXAMS: Record<string, string[][]> = {
  // 序号, 校区, 考试场次, 课程编号, 课程名称, 授课教师, 考试时间, 考场, 座位号
  "2025-2026-1": [
    ["1", "本部", "2025-2026-1期末考试", "B2001", "数据结构", "王建华", "2026-01-10 09:00~11:00", "明德楼A301", "18"],
    ["2", "本部", "2025-2026-1期末考试", "B2002", "大学物理", "孙立", "2026-01-13 14:00~16:00", "至善楼101", "6"],
  ],
};

/** A tiny valid GIF: the picture a captcha would draw. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==", "base64");

function escapeHtml(text: string) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

function loginPage(captcha: boolean, error = "") {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>教务管理系统</title></head><body>
<form action="/jsxsd/xk/LoginToXk" method="post" name="loginForm" id="loginForm">
  <input type="hidden" name="encoded" id="encoded" value="">
  <input id="userAccount" name="userAccount" type="text"><input id="userPassword" type="password">
  ${captcha ? '<input name="RANDOMCODE" id="RANDOMCODE" type="text"><img src="/jsxsd/verifycode.servlet" id="SafeCodeImg">' : ""}
  <div id="showMsg" style="color:red"><font color="red">${escapeHtml(error)}</font></div>
  <button type="submit">登录</button>
</form></body></html>`;
}

function termSelect(current: string) {
  const start = Number(current.slice(0, 4));
  const options: string[] = [];
  for (let year = start; year >= start - 3; year--) {
    for (const half of [2, 1]) {
      const code = `${year}-${year + 1}-${half}`;
      options.push(`<option value="${code}"${code === current ? ' selected="selected"' : ""}>${code}</option>`);
    }
  }
  return `<select id="xnxq01id" name="xnxq01id" onchange="query()">${options.join("")}</select>`;
}

function timetablePage(term: string, current: string, sundayFirst: boolean) {
  const days = sundayFirst ? [7, 1, 2, 3, 4, 5, 6] : [1, 2, 3, 4, 5, 6, 7];
  const names = ["", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"];
  const cells = TIMETABLE[term] ?? [];
  const blocks = ["第一大节", "第二大节", "第三大节", "第四大节", "第五大节"];
  const rows = blocks.map((label, index) => {
    const tds = days.map((day) => {
      const found = cells.find(([weekday, block]) => weekday === day && block === index + 1);
      const inner = found ? found[2] : "&nbsp;";
      return `<td width="123" height="28" align="center" valign="top"><div id="${index}-${day}-1" class="kbcontent1">${found ? found[2].split("<br/>")[0] : "&nbsp;"}</div><div id="${index}-${day}-2" style="display: none;" class="kbcontent">${inner}</div></td>`;
    });
    return `<tr><th width="70" height="28" align="center">${label}</th>${tds.join("")}</tr>`;
  });
  return `<!DOCTYPE html><html><head><title>学期理论课表</title></head><body>
<form action="/jsxsd/xskb/xskb_list.do" method="post">${termSelect(current)}</form>
<table id="kbtable" border="1" width="100%" cellspacing="0" cellpadding="0" class="Nsb_r_list Nsb_table">
<tr><th width="70" height="28" align="center">&nbsp;</th>${days.map((day) => `<th width="123" height="28" align="center">${names[day]}</th>`).join("")}</tr>
${rows.join("\n")}
<tr><th>备注:</th><td colspan="7">无</td></tr>
</table></body></html>`;
}

function dataList(headers: string[], rows: string[][]) {
  const body = rows.length
    ? rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join("")}</tr>`).join("\n")
    : `<tr><td colspan="${headers.length}">未查询到数据</td></tr>`;
  return `<!DOCTYPE html><html><body><table id="dataList" class="Nsb_r_list Nsb_table">
<tr>${headers.map((header) => `<th class="Nsb_r_list_thb">${header}</th>`).join("")}</tr>
${body}
</table></body></html>`;
}

/** Reverses the interleave: the first 20 characters each skip that position's sxh digit of scode. */
function decodeInterleaved(encoded: string, sxh: string) {
  let out = "";
  let position = 0;
  for (let i = 0; i < 20 && position < encoded.length; i++) {
    out += encoded[position];
    position += 1 + Number(sxh[i]);
  }
  return out + encoded.slice(position);
}

export async function startFakeQiangzhi(options: FakeQiangzhiOptions = {}): Promise<FakeQiangzhi> {
  const students = new Map((options.students ?? [FAKE_QZ_STUDENT]).map((student) => [student.id, student]));
  const variant = options.variant ?? "base64";
  const currentTerm = options.currentTerm ?? "2025-2026-1";
  const state: FakeQiangzhiState = { sessions: new Map(), captchas: new Map(), loginBodies: [], requests: [], grades: [...FAKE_QZ_GRADES] };
  /** Pre-login session → its scode and sxh. */
  const sessCodes = new Map<string, { scode: string; sxh: string }>();
  const timers = new Set<NodeJS.Timeout>();

  const cookieSid = (req: http.IncomingMessage) => /(?:^|;\s*)JSESSIONID=([^;]+)/.exec(req.headers.cookie ?? "")?.[1] ?? "";
  const newSid = () => crypto.randomBytes(16).toString("hex").toUpperCase();

  function send(res: http.ServerResponse, status: number, body: string | Buffer, headers: Record<string, string | string[]> = {}) {
    res.writeHead(status, { "Content-Type": "text/html;charset=UTF-8", ...headers });
    res.end(body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", "http://fake");
    state.requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (options.slowMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, options.slowMs);
        timers.add(timer);
      });
      if (res.destroyed) return;
    }
    let sid = cookieSid(req);
    const student = state.sessions.get(sid);
    const body = req.method === "POST" ? await readBody(req) : "";
    const form = new URLSearchParams(body);
    const path = url.pathname;

    if (path === "/jsxsd/" || path === "/jsxsd") {
      const headers: Record<string, string> = {};
      if (!sid || !state.sessions.has(sid)) {
        sid = newSid();
        headers["Set-Cookie"] = `JSESSIONID=${sid}; Path=/jsxsd; HttpOnly`;
      }
      send(res, 200, loginPage(Boolean(options.captcha)), headers);
      return;
    }

    if (path === "/jsxsd/verifycode.servlet") {
      state.captchas.set(sid, crypto.randomBytes(3).toString("hex").slice(0, 4).replace(/^./, (c) => c.toUpperCase()));
      send(res, 200, PIXEL, { "Content-Type": "image/gif" });
      return;
    }

    if (path === "/jsxsd/xk/LoginToXk" && url.searchParams.get("flag") === "sess") {
      if (variant !== "interleave") return send(res, 404, "<html><body>404</body></html>");
      const sxh = Array.from({ length: 20 }, () => String(crypto.randomInt(1, 4))).join("");
      const length = [...sxh].reduce((sum, digit) => sum + Number(digit), 0);
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
      const scode = Array.from({ length }, () => alphabet[crypto.randomInt(alphabet.length)]).join("");
      sessCodes.set(sid, { scode, sxh });
      send(res, 200, `${scode}#${sxh}`, { "Content-Type": "text/plain;charset=UTF-8" });
      return;
    }

    if (path === "/jsxsd/xk/LoginToXk" && req.method === "POST") {
      state.loginBodies.push(body);
      const fail = (text: string) => send(res, 200, loginPage(Boolean(options.captcha), text));
      if (options.captcha) {
        const expected = state.captchas.get(sid);
        if (!expected || form.get("RANDOMCODE") !== expected) return fail("验证码错误!!");
        state.captchas.delete(sid);
      }
      const encoded = form.get("encoded") ?? "";
      let decoded = "";
      if (variant === "interleave") {
        const codes = sessCodes.get(sid);
        decoded = codes ? decodeInterleaved(encoded, codes.sxh) : "";
      } else {
        const [id, password] = encoded.split("%%%");
        const b64 = (text = "") => Buffer.from(text, "base64").toString("utf8");
        decoded = password === undefined ? "" : `${b64(id)}%%%${b64(password)}`;
      }
      const cut = decoded.indexOf("%%%");
      const account = cut > 0 ? students.get(decoded.slice(0, cut)) : undefined;
      if (!account || decoded.slice(cut + 3) !== account.password) return fail("用户名或密码错误");
      sessCodes.delete(sid);
      const loggedIn = newSid();
      state.sessions.set(loggedIn, account.id);
      send(res, 302, "", { Location: options.loginRedirect ?? "/jsxsd/framework/xsMain.jsp", "Set-Cookie": `JSESSIONID=${loggedIn}; Path=/jsxsd; HttpOnly` });
      return;
    }

    const loginAgain = () => send(res, 200, `<html><body><script>alert('请先登录系统');</script>${loginPage(Boolean(options.captcha))}</body></html>`);

    if (path === "/jsxsd/framework/xsMain.jsp") {
      if (!student) return loginAgain();
      const name = students.get(student)!.name;
      send(res, 200, `<html><head><title>学生个人中心</title></head><body><div id="Top1_divLoginName" class="Nsb_top_menu_nc" style="color: #000000;">${name}(${student})</div></body></html>`);
      return;
    }

    if (path === "/jsxsd/xskb/xskb_list.do") {
      if (!student) return loginAgain();
      send(res, 200, timetablePage(form.get("xnxq01id") || currentTerm, currentTerm, Boolean(options.sundayFirst)));
      return;
    }

    if (path === "/jsxsd/kscj/cjcx_list" && req.method === "POST") {
      if (!student) return loginAgain();
      const term = form.get("kksj") ?? "";
      const headers = ["序号", "开课学期", "课程编号", "课程名称", "成绩", "学分", "总学时", "绩点", "考核方式", "课程属性", "课程性质", "考试性质"];
      const rows = state.grades
        .filter((row) => !term || row[0] === term)
        .map(([kksj, code, name, score, credit, point, attribute, nature], index) => [
          String(index + 1),
          kksj,
          code,
          name,
          `<a href="javascript:JsMod('/jsxsd/kscj/pscj_list.do?xs0101id=${student}&jx0404id=${code}',700,500)">${score}</a>`,
          credit,
          "48",
          point,
          "考试",
          attribute,
          attribute === "必修" ? "专业基础课" : "公共选修课",
          nature,
        ]);
      send(res, 200, dataList(headers, rows));
      return;
    }

    if (path === "/jsxsd/xsks/xsksap_list" && req.method === "POST") {
      if (!student) return loginAgain();
      const headers = ["序号", "校区", "考试场次", "课程编号", "课程名称", "授课教师", "考试时间", "考场", "座位号", "准考证号", "备注"];
      const rows = (EXAMS[form.get("xnxqid") ?? ""] ?? []).map((row) => [...row, "", ""]);
      send(res, 200, dataList(headers, rows));
      return;
    }

    send(res, 404, "<html><body>404</body></html>");
  }

  const { port, close } = await listenOnLoopback(pageServer(handle));
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    state,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      await close();
    },
  };
}
