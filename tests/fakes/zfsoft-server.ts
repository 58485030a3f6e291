// A fake ZFsoft (正方) jwglxt server on loopback that replays the real protocol: login page with
// csrftoken, RSA public key, encrypted password, 302 to index_initMenu with a rotated session
// cookie, timetable JSON behind the session, the term index page, and the paged grade
// (cjcx_cxXsgrcj) and exam-arrangement (kscx_cxXsksxxIndex) queries.
import crypto from "node:crypto";
import http from "node:http";
import { listenOnLoopback, pageServer, readBody } from "./loopback";

export type FakeZfsoftMode =
  | "ok"
  | "locked" // every login answers tips '账号已被锁定'
  | "captcha" // the login page carries an image captcha (input#yzm)
  | "slider" // the login page uses the zfcaptchaLogin slider captcha
  | "down" // every connection is dropped
  | "error503" // every request answers 503
  | "slow"; // every answer waits `slowMs` first

export interface FakeStudent {
  id: string;
  password: string;
  name: string;
  className?: string;
  college?: string;
}

type RawTimetable = { kbList: Record<string, string>[]; sjkList: Record<string, string>[] };

export interface FakeZfsoftOptions {
  students?: FakeStudent[];
  mode?: FakeZfsoftMode;
  slowMs?: number;
  /** Path prefix of the deployment; '' for schools that deploy at the root. */
  basePath?: string;
  /** The term selected on the term page, as xnm/xqm. */
  current?: { xnm: string; xqm: string };
  /** Timetables by 'xnm-xqm' ('2025-3'); other terms answer empty lists. */
  timetables?: Record<string, RawTimetable>;
  /** Grade rows (every term); filtered by the query's xnm/xqm like the real server. */
  grades?: Record<string, string>[];
  /** Exam rows by 'xnm-xqm'. */
  exams?: Record<string, Record<string, string>[]>;
  /** The most rows the server returns per page whatever showCount asks (some deployments cap it). */
  maxPageSize?: number;
}

export interface FakeZfsoftState {
  mode: FakeZfsoftMode;
  slowMs: number;
  /** When set, every login attempt answers this tip (e.g. '用户名不存在'). */
  tipsOverride: string | null;
  /** Logged-in JSESSIONIDs → student id. Clear it to expire every session. */
  sessions: Map<string, string>;
  /** Raw bodies of login POSTs, so tests can check the password never travels in clear. */
  loginBodies: string[];
  /** Method and path of every request received. */
  requests: string[];
  /** The grade rows served; tests push a new one to play a newly published result. */
  grades: Record<string, string>[];
}

export interface FakeZfsoft {
  baseUrl: string;
  state: FakeZfsoftState;
  close(): Promise<void>;
}

export const FAKE_STUDENT: FakeStudent = {
  id: "2023110101",
  password: "Zf@pass2023",
  name: "王小明",
  className: "软件工程2301班",
  college: "信息工程学院",
};

const course = (
  kcmc: string,
  xm: string,
  cdmc: string,
  xqj: string,
  jcs: string,
  zcd: string,
): Record<string, string> => ({
  kcmc,
  xm,
  cdmc,
  xqj,
  jcs,
  jc: `${jcs}节`,
  zcd,
  xqmc: "南校区",
  xf: "2.0",
  kch_id: crypto.createHash("md5").update(kcmc).digest("hex").slice(0, 8).toUpperCase(),
  jxbmc: `(2025-2026-1)-${kcmc}-01`,
});

/** A realistic first-term timetable: odd/even weeks, split blocks, a shared cell, a weekend class. */
export const FAKE_TIMETABLES: Record<string, RawTimetable> = {
  "2025-3": {
    kbList: [
      course("高等数学A(上)", "陈建国", "南教1-201", "1", "1-2", "1-16周"),
      course("高等数学A(上)", "陈建国", "南教1-201", "3", "3-4", "1-16周"),
      // One long class delivered as two blocks: the adapter merges them into periods 5–8.
      course("程序设计基础", "刘芳", "计算中心305", "2", "5-6", "1-16周"),
      course("程序设计基础", "刘芳", "计算中心305", "2", "7-8", "1-16周"),
      course("线性代数", "赵敏", "南教2-105", "2", "1-2", "1-15周(单)"),
      course("大学物理实验", "孙立", "物理实验楼B203", "4", "7-8", "2-16周(双)"),
      course("大学英语(一)", "Emily Zhang", "外语楼402", "4", "1-2", "1-8周,10-16周"),
      course("中国近现代史纲要", "周红", "南教3-101", "5", "3-4", "1,3,5-9周"),
      // Two courses in one cell, alternating weeks.
      course("形势与政策", "郑伟", "南教3-201", "5", "9-10", "1-7周(单)"),
      course("心理健康教育", "吴静", "南教3-202", "5", "9-10", "2-8周(双)"),
      course("体育(篮球)", "钱勇", "篮球馆", "6", "3-4", "1-16周"),
    ],
    sjkList: [
      { qtkcgs: "公益劳动白利波(共1周)/1周", sfsjk: "1" },
      { kcmc: "金工实习", jsxm: "马强", qsjsz: "19-20周", qtkcgs: "金工实习马强(共2周)/19-20周", sfsjk: "1" },
    ],
  },
  "2024-12": {
    kbList: [
      course("大学计算机基础", "刘芳", "计算中心201", "1", "3-4", "1-12周"),
      course("思想道德与法治", "周红", "南教3-101", "3", "5-6", "1-16周"),
    ],
    sjkList: [{ qtkcgs: "军事训练李海(共3周)/1-3周", sfsjk: "1" }],
  },
};

export const gradeRow = (
  xnm: string,
  xqm: string,
  kcmc: string,
  xf: string,
  cj: string,
  jd: string,
  kcxzmc: string,
  ksxz = "正常考试",
): Record<string, string> => ({
  xnm,
  xqm,
  xnmmc: `${xnm}-${Number(xnm) + 1}`,
  xqmmc: xqm === "3" ? "1" : xqm === "12" ? "2" : "3",
  kcmc,
  xf,
  cj,
  jd,
  kcxzmc,
  ksxz,
  jsxm: "任课教师",
  kch_id: crypto.createHash("md5").update(kcmc).digest("hex").slice(0, 8).toUpperCase(),
  khfsmc: "考试",
});

/** Two years of results: grade words, a failed course with its 补考, a 重修, a 0-credit course. */
export const FAKE_GRADES: Record<string, string>[] = [
  gradeRow("2024", "3", "大学计算机基础", "3.0", "92", "4.20", "必修课"),
  gradeRow("2024", "3", "高等数学A(上)", "5.0", "52", "0.00", "必修课"),
  gradeRow("2024", "3", "思想道德与法治", "3.0", "良", "3.50", "必修课"),
  gradeRow("2024", "3", "形势与政策", "0.0", "优", "", "必修课"),
  gradeRow("2024", "12", "高等数学A(上)", "5.0", "71", "1.00", "必修课", "补考一"),
  gradeRow("2024", "12", "线性代数", "3.0", "58", "0.00", "必修课"),
  gradeRow("2024", "12", "书法鉴赏", "1.0", "及格", "1.50", "公共选修课"),
  gradeRow("2025", "3", "线性代数", "3.0", "83", "3.30", "必修课", "重修"),
  gradeRow("2025", "3", "程序设计基础", "4.0", "88", "3.80", "必修课"),
];

export const FAKE_EXAMS: Record<string, Record<string, string>[]> = {
  "2025-3": [
    { kcmc: "高等数学A(下)", kssj: "2026-01-12(09:00-11:00)", cdmc: "南教1-201", zwh: "23", ksmc: "2025-2026-1期末考试", xqmc: "南校区" },
    { kcmc: "程序设计基础", kssj: "2026-01-08(14:30-16:30)", cdmc: "计算中心305", zwh: "7", ksmc: "2025-2026-1期末考试", xqmc: "南校区" },
    { kcmc: "大学物理实验", kssj: "", cdmc: "", zwh: "", ksmc: "2025-2026-1期末考试", xqmc: "南校区" },
  ],
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

function loginPage(base: string, csrftoken: string, mode: FakeZfsoftMode, tips = ""): string {
  const captcha =
    mode === "captcha"
      ? `<input type="text" class="form-control" name="yzm" id="yzm" placeholder="验证码">
         <img id="yzmPic" src="${base}/kaptcha?time=${Date.now()}">`
      : "";
  const slider =
    mode === "slider"
      ? `<script src="${base}/zfcaptchaLogin?type=resource&instanceId=zfcaptchaLogin&name=zfdun_captcha.js"></script>`
      : "";
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>教学综合信息服务平台</title>${slider}</head>
<body>
<div class="login-box">
  <h5>用户登录</h5>
  <form class="form-horizontal" role="form" action="${base}/xtgl/login_slogin.html" method="post">
    <input type="hidden" id="csrftoken" name="csrftoken" value="${csrftoken}"/>
    <p id="tips" class="bg_danger sl_danger">${escapeHtml(tips)}</p>
    <input type="text" class="form-control" name="yhm" id="yhm" placeholder="用户名" autocomplete="off">
    <input type="password" class="form-control" name="hidMm" id="hidMm" placeholder="密码">
    <input type="hidden" name="mm" id="mm">
    ${captcha}
    <button type="button" class="btn btn-primary btn-block" id="dl">登 录</button>
  </form>
</div>
</body></html>`;
}

function termPage(base: string, current: { xnm: string; xqm: string }): string {
  const start = Number(current.xnm);
  const years: string[] = [];
  for (let year = start + 4; year >= start - 6; year--) {
    const selected = String(year) === current.xnm ? ' selected="selected"' : "";
    years.push(`<option value="${year}"${selected}>${year}-${year + 1}</option>`);
  }
  const halves = [
    ["3", "1"],
    ["12", "2"],
    ["16", "3"],
  ].map(([value, label]) => {
    const selected = value === current.xqm ? ' selected="selected"' : "";
    return `<option value="${value}"${selected}>${label}</option>`;
  });
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>学生课表查询</title></head><body>
<form class="form-horizontal sl_all_form" role="form" name="ajaxForm" id="ajaxForm">
  <select name="xnm" id="xnm" class="form-control chosen-select">
    <option value="">全部</option>
    ${years.join("\n    ")}
  </select>
  <select name="xqm" id="xqm" class="form-control chosen-select">
    <option value="">全部</option>
    ${halves.join("\n    ")}
  </select>
  <button type="button" class="btn btn-primary btn-sm" id="search_go">查询</button>
</form>
<a href="${base}/xtgl/login_logoutAccount.html">退出</a>
</body></html>`;
}

/** PKCS#1 v1.5 type-2 unpadding of a raw RSA block (00 02 <non-zero padding> 00 <message>). */
function unpadPkcs1(block: Buffer): Buffer | null {
  if (block[0] !== 0 || block[1] !== 2) return null;
  const separator = block.indexOf(0, 2);
  return separator >= 10 ? block.subarray(separator + 1) : null;
}

export async function startFakeZfsoft(options: FakeZfsoftOptions = {}): Promise<FakeZfsoft> {
  const base = options.basePath ?? "/jwglxt";
  const students = new Map((options.students ?? [FAKE_STUDENT]).map((s) => [s.id, s]));
  const timetables = options.timetables ?? FAKE_TIMETABLES;
  const current = options.current ?? { xnm: "2025", xqm: "3" };
  const state: FakeZfsoftState = {
    mode: options.mode ?? "ok",
    slowMs: options.slowMs ?? 2_000,
    tipsOverride: null,
    sessions: new Map(),
    loginBodies: [],
    requests: [],
    grades: [...(options.grades ?? FAKE_GRADES)],
  };
  const exams = options.exams ?? FAKE_EXAMS;

  const { publicKey, privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 1024 });
  const jwk = publicKey.export({ format: "jwk" });
  const publicKeyJson = JSON.stringify({
    modulus: Buffer.from(jwk.n!, "base64url").toString("base64"),
    exponent: Buffer.from(jwk.e!, "base64url").toString("base64"),
  });

  /** Pre-login JSESSIONID → csrftoken handed out with its login page. */
  const csrfTokens = new Map<string, string>();
  const timers = new Set<NodeJS.Timeout>();

  function decryptPassword(mm: string): string | null {
    // Node 20 refuses RSA_PKCS1_PADDING in privateDecrypt (CVE-2023-46809, Marvin attack) unless
    // started with --security-revert. Raw RSA (NO_PADDING) is allowed: unpad by hand.
    try {
      const block = crypto.privateDecrypt(
        { key: privateKey, padding: crypto.constants.RSA_NO_PADDING },
        Buffer.from(mm, "base64"),
      );
      return unpadPkcs1(block)?.toString("utf8") ?? null;
    } catch {
      return null;
    }
  }

  const cookiesOf = (req: http.IncomingMessage): Map<string, string> =>
    new Map(
      (req.headers.cookie ?? "")
        .split(";")
        .map((part) => part.trim().split("="))
        .filter((pair) => pair.length === 2)
        .map(([k, v]) => [k, v] as [string, string]),
    );

  const newSessionId = () => crypto.randomBytes(16).toString("hex").toUpperCase();
  const sessionCookie = (sid: string) => `JSESSIONID=${sid}; Path=${base || "/"}; HttpOnly`;

  function send(
    res: http.ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string | string[]> = {},
  ): void {
    const contentType = body.startsWith("{") ? "application/json;charset=UTF-8" : "text/html;charset=UTF-8";
    res.writeHead(status, { "Content-Type": contentType, ...headers });
    res.end(body);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake");
    state.requests.push(`${req.method} ${url.pathname}`);
    if (state.mode === "down") {
      req.socket.destroy();
      return;
    }
    if (state.mode === "error503") {
      send(res, 503, "<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>");
      return;
    }
    if (state.mode === "slow") {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, state.slowMs);
        timers.add(timer);
      });
      if (res.destroyed) return;
    }

    if (!url.pathname.startsWith(`${base}/`)) {
      send(res, 404, "<html><body>404</body></html>");
      return;
    }
    const path = url.pathname.slice(base.length);
    const cookies = cookiesOf(req);
    const sid = cookies.get("JSESSIONID") ?? "";
    const student = state.sessions.get(sid);
    const body = req.method === "POST" ? await readBody(req) : "";
    const form = new URLSearchParams(body);

    // Every unauthenticated visit to the login page gets a fresh pre-login session and token.
    const freshLoginPage = (tips = "") => {
      const preSid = newSessionId();
      const csrftoken = crypto.randomBytes(12).toString("hex");
      csrfTokens.set(preSid, csrftoken);
      send(res, 200, loginPage(base, csrftoken, state.mode, tips), {
        "Set-Cookie": [sessionCookie(preSid), `route=${crypto.randomBytes(8).toString("hex")}; Path=/`],
      });
    };

    if (path === "/xtgl/login_slogin.html" && req.method === "GET") {
      freshLoginPage();
      return;
    }

    if (path === "/xtgl/login_getPublicKey.html") {
      send(res, 200, publicKeyJson);
      return;
    }

    if (path === "/xtgl/login_slogin.html" && req.method === "POST") {
      state.loginBodies.push(body);
      const expectedToken = csrfTokens.get(sid);
      const answerTips = (tips: string) => send(res, 200, loginPage(base, expectedToken ?? "", state.mode, tips));
      if (!expectedToken || form.get("csrftoken") !== expectedToken) {
        answerTips("页面已过期，请刷新页面后重试");
        return;
      }
      if (state.mode === "captcha" && !form.get("yzm")) {
        answerTips("验证码不能为空！");
        return;
      }
      if (state.tipsOverride) {
        answerTips(state.tipsOverride);
        return;
      }
      if (state.mode === "locked") {
        answerTips("账号已被锁定");
        return;
      }
      const account = students.get(form.get("yhm") ?? "");
      const password = decryptPassword(form.get("mm") ?? "");
      if (!account || password !== account.password) {
        answerTips("用户名或密码不正确，请重新输入！");
        return;
      }
      // Like the real server, a successful login rotates the session id.
      csrfTokens.delete(sid);
      const loggedIn = newSessionId();
      state.sessions.set(loggedIn, account.id);
      send(res, 302, "", {
        Location: `${base}/xtgl/index_initMenu.html?jsdm=xs&_t=${Date.now()}`,
        "Set-Cookie": sessionCookie(loggedIn),
      });
      return;
    }

    if (path === "/xtgl/index_initMenu.html") {
      if (!student) return freshLoginPage();
      send(res, 200, "<html><head><title>教学综合信息服务平台</title></head><body>首页</body></html>");
      return;
    }

    if (path === "/kbcx/xskbcx_cxXsgrkb.html" && req.method === "POST") {
      if (!student || url.searchParams.get("gnmkdm") !== "N2151") return freshLoginPage();
      const account = students.get(student)!;
      const xnm = form.get("xnm") ?? "";
      const xqm = form.get("xqm") ?? "";
      const timetable = timetables[`${xnm}-${xqm}`] ?? { kbList: [], sjkList: [] };
      send(
        res,
        200,
        JSON.stringify({
          xsxx: {
            XH: account.id,
            XH_ID: account.id,
            XM: account.name,
            XNM: xnm,
            XQM: xqm,
            XNMC: `${xnm}-${Number(xnm) + 1}`,
            XQMMC: xqm === "3" ? "1" : xqm === "12" ? "2" : "3",
            ...(account.college ? { JGMC: account.college } : {}),
            ...(account.className ? { BJMC: account.className } : {}),
          },
          kbList: timetable.kbList,
          sjkList: timetable.sjkList,
          xkkg: true,
          sfxsd: "1",
          xqjmcMap: { "1": "星期一", "2": "星期二", "3": "星期三", "4": "星期四", "5": "星期五", "6": "星期六", "7": "星期日" },
        }),
      );
      return;
    }

    // The paged query modules answer {items, totalResult, currentPage, showCount} like jqGrid.
    const paged = (rows: Record<string, string>[]) => {
      const asked = Number(form.get("queryModel.showCount") ?? "15") || 15;
      const showCount = Math.min(asked, options.maxPageSize ?? asked);
      const currentPage = Number(form.get("queryModel.currentPage") ?? "1") || 1;
      const items = rows.slice((currentPage - 1) * showCount, currentPage * showCount);
      send(res, 200, JSON.stringify({ items, totalResult: rows.length, currentPage, showCount, totalPage: Math.ceil(rows.length / showCount) }));
    };

    if (path === "/cjcx/cjcx_cxXsgrcj.html" && req.method === "POST") {
      if (!student || url.searchParams.get("gnmkdm") !== "N305005" || url.searchParams.get("doType") !== "query") return freshLoginPage();
      const xnm = form.get("xnm") ?? "";
      const xqm = form.get("xqm") ?? "";
      paged(state.grades.filter((row) => (!xnm || row.xnm === xnm) && (!xqm || row.xqm === xqm)));
      return;
    }

    if (path === "/kwgl/kscx_cxXsksxxIndex.html" && req.method === "POST") {
      if (!student || url.searchParams.get("gnmkdm") !== "N358105" || url.searchParams.get("doType") !== "query") return freshLoginPage();
      paged(exams[`${form.get("xnm") ?? ""}-${form.get("xqm") ?? ""}`] ?? []);
      return;
    }

    if (path === "/kbcx/xskbcx_cxXskbcxIndex.html") {
      if (!student) return freshLoginPage();
      send(res, 200, termPage(base, current));
      return;
    }

    send(res, 404, "<html><body>404</body></html>");
  }

  const { port, close } = await listenOnLoopback(pageServer(handle));

  return {
    baseUrl: `http://127.0.0.1:${port}${base}`,
    state,
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await close();
    },
  };
}
