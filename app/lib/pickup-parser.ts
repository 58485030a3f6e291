// The pickup-SMS recogniser: pasted text (one or many SMS) → one entry per parcel. Pure and
// synchronous, so the page, the JSON endpoint and the screenshot pipeline share it and the tests
// can run it over a corpus. The labelling conventions it follows are in shared/fixtures/README.md:
//
// - values are NFKC-normalised, every dash folded to "-" without surrounding spaces;
// - an SMS yields entries only with a pickup code, or a full tracking number plus a place;
//   masked numbers (尾号0107), times and phone numbers are never codes or tracking numbers;
// - company: the brand in the signature tag, else the first carrier named in the body, else null;
// - station: the place after the first locative verb, up to 取/领取 or punctuation (a bare 已到站
//   is skipped), else the value after 地址:, else a clause that names a station.

export type PickupType = "code" | "tracking";

export type ParsedPickup = {
  company: string | null;
  trackingNumber: string | null;
  pickupCode: string | null;
  stationName: string | null;
  pickupType: PickupType;
};

// ---------------------------------------------------------------------------------------------
// Normalisation

// Dashes and minus signs of every script (NFKC leaves most of them alone).
const DASHES = /[\u2010-\u2015\u2212\u2E3A\u2E3B\uFE58\uFE63\uFF0D\u30FC\uFF70]/g;
const INVISIBLE = /[\u200B-\u200D\u2060\uFEFF]/g;

/** NFKC, folded dashes, no spaces around a dash between two word characters, LF line ends. */
export function normalizeText(text: string): string {
  return text
    .normalize("NFKC")
    .replace(INVISIBLE, "")
    .replace(/\r\n?/g, "\n")
    .replace(DASHES, "-")
    .replace(/\u3000/g, " ")
    .replace(/([A-Za-z0-9])[ \t]*-[ \t]*(?=[A-Za-z0-9])/g, "$1-");
}

// ---------------------------------------------------------------------------------------------
// Splitting a paste into messages

const TIMESTAMP_LINE =
  /^\s*(?:(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?|昨天|今天|前天|星期[一二三四五六日天]|周[一二三四五六日天])?\s*(?:上午|下午|晚上|凌晨|中午)?\s*\d{1,2}:\d{2}(?::\d{2})?\s*$/;
const DATE_ONLY_LINE = /^\s*(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?\s*$/;
const TAG_ONLY = /^\s*[【[][^】\]\n]{1,20}[】\]]\s*$/;

/**
 * Messages are separated by blank lines; a line that starts with a signature tag, or a
 * timestamp line between messages, also starts a new one. A signature standing alone after a
 * message (tags at the end, as some senders put them) stays with that message.
 */
export function splitMessages(text: string): string[] {
  const normalized = normalizeText(text);
  const messages: string[] = [];
  let current: string[] = [];
  let hasTag = false;
  let closed = false;
  // The lines of one message are joined without a separator: a wrapped line continues its sentence.
  const flush = () => {
    const body = current.join("").trim();
    if (body) messages.push(body);
    current = [];
    hasTag = false;
    closed = false;
  };
  for (const rawLine of normalized.split("\n")) {
    const line = rawLine.trim();
    if (!line || TIMESTAMP_LINE.test(line) || DATE_ONLY_LINE.test(line)) {
      flush();
      continue;
    }
    // Several SMS glued on one line: split before a tag that follows the end of a sentence.
    for (const piece of line.split(/(?<=[。!?])\s*(?=【)/)) {
      if (closed) flush();
      if (TAG_ONLY.test(piece)) {
        if (current.length > 0 && !hasTag) {
          current.push(piece); // a signature after its message
          closed = true;
          continue;
        }
        if (current.length > 0) flush();
        current.push(piece);
        hasTag = true;
        continue;
      }
      if (piece.startsWith("【")) {
        if (current.length > 0 && !(hasTag && current.length === 1 && TAG_ONLY.test(current[0]!))) flush();
        hasTag = true;
      } else if (current.length > 0 && !hasTag && startsAnotherNotice(current, piece)) {
        flush(); // untagged notices one per line
      } else if (/[【[][^】\]\n]{1,24}[】\]]\s*$/.test(piece) && !hasTag) {
        current.push(piece); // body and signature on one line
        closed = true;
        continue;
      }
      current.push(piece);
    }
  }
  flush();
  return messages;
}

const HAS_CODE_WORD = /取件码|取货码|提货码|货号|取件密码|凭\s*[A-Za-z0-9]/;
const NOTICE_OPENING = /^(?:您|你|亲|尊敬|【|\[)/;

/** A line that opens like a notice and has its own code, after lines that already had one. */
function startsAnotherNotice(current: string[], line: string) {
  return NOTICE_OPENING.test(line) && HAS_CODE_WORD.test(line) && HAS_CODE_WORD.test(current.join(""));
}

// ---------------------------------------------------------------------------------------------
// Company

// Brands a signature tag may carry: carriers, station chains and locker networks. The value is
// the tag as written, except for the families the conventions fold to one name.
const TAG_BRANDS = [
  "菜鸟驿站", "菜鸟", "丰巢", "兔喜生活", "兔喜", "妈妈驿站", "近邻宝", "速递易", "日日顺", "熊猫快收", "递管家",
  "中邮驿站", "邮政驿站", "云柜", "格格小区", "收件宝", "小兵驿站", "喵站",
  "京东快递", "京东物流", "京东", "顺丰速运", "顺丰快递", "顺丰", "中通快递", "中通快运", "中通", "圆通速递", "圆通快递", "圆通",
  "申通快递", "申通", "韵达快递", "韵达速递", "韵达", "极兔速递", "极兔快递", "极兔", "邮政EMS", "中国邮政", "邮政", "EMS",
  "百世快递", "百世", "德邦快递", "德邦物流", "德邦", "天天快递", "宅急送", "优速快递", "优速", "丹鸟", "众邮快递", "安能物流",
  "跨越速运", "苏宁物流", "EMS快递",
];
// What may follow a brand inside its own tag ("丰巢智能柜", "中国邮政速递物流").
const TAG_SUFFIX = /^(?:快递|速递|速运|物流|快运|驿站|智能柜|快递柜|生活|超市|快递超市|速递物流|包裹|服务|科技|官方|EMS)*$/;

// Courier companies named in a body, longest spelling first.
const CARRIERS = [
  "中通快递", "中通快运", "中通", "圆通速递", "圆通快递", "圆通", "申通快递", "申通", "韵达快递", "韵达速递", "韵达",
  "顺丰速运", "顺丰快递", "顺丰", "京东快递", "京东物流", "京东", "极兔速递", "极兔快递", "极兔", "邮政EMS", "中国邮政",
  "邮政快递", "邮政包裹", "EMS", "邮政", "百世快递", "百世", "德邦快递", "德邦物流", "德邦", "天天快递", "宅急送", "优速快递",
  "优速", "丹鸟", "众邮快递", "安能物流", "跨越速运", "苏宁物流",
];
const CARRIER_RE = new RegExp(CARRIERS.map(escapeRegex).join("|"));

function canonicalBrand(name: string): string {
  if (name.startsWith("丰巢")) return "丰巢";
  if (/^(?:中国邮政|邮政|EMS)/.test(name) && !/驿站$/.test(name)) return "邮政EMS";
  return name;
}

function tagBrand(tag: string): string | null {
  const value = tag.trim();
  for (const brand of TAG_BRANDS) {
    if (value.startsWith(brand) && TAG_SUFFIX.test(value.slice(brand.length))) return canonicalBrand(value);
  }
  return null;
}

function bodyCarrier(body: string): string | null {
  const match = CARRIER_RE.exec(body);
  return match ? canonicalBrand(match[0]) : null;
}

// ---------------------------------------------------------------------------------------------
// Pickup codes

const CODE_KEYWORDS = [
  "取件码", "取货码", "提货码", "提件码", "取件号", "取货号", "取件编码", "取件密码", "开箱码", "开柜码", "开箱密码", "开柜密码",
  "柜门码", "提取码", "取件凭证", "取货凭证", "货架号", "货号", "密码", "取件编号", "凭",
];
const KEYWORD_RE = new RegExp(`(?:${CODE_KEYWORDS.map(escapeRegex).join("|")})`, "g");
// Between a keyword and its code: 为/是/:, quotes and brackets, spaces.
const LEAD = /^(?:\s|为|是|:|『|「|“|"|'|【|\[|\(|<|《)*/;
const CODE_TOKEN = /^(?:[A-Za-z]{1,3}-?)?\d[A-Za-z0-9]*(?:-[A-Za-z0-9]+){0,4}/;
const CLOSE = /^(?:』|」|”|"|'|】|\]|>|》)*/;
const LIST_SEPARATOR = /^\s*(?:、|,|和|及|\/|;|\s)\s*(?:『|「|“|")?/;
const AFTER_CODE_NOT = /^(?::|元|天|小时|分钟|月|日|点|号|个|件|年|%|kg|公斤)/i;

type CodeHit = { code: string; tracking: string | null; index: number };

function validCode(code: string, rest: string): boolean {
  if (AFTER_CODE_NOT.test(rest)) return false;
  const digits = code.replace(/\D/g, "").length;
  if (digits < 3) return false;
  if (/^\d+$/.test(code)) return code.length <= 8;
  if (!code.includes("-")) {
    // Letters and digits without a dash: a shelf code like A123, never a tracking number.
    return code.length <= 8 && digits <= 6;
  }
  return code.length <= 16;
}

function shapeOf(code: string) {
  return code.split("-").length;
}

/** Codes after one keyword: a list separated by 、/,/和, each optionally followed by (运单号…). */
function readCodeList(text: string, start: number): CodeHit[] {
  const hits: CodeHit[] = [];
  let position = start + (LEAD.exec(text.slice(start))?.[0].length ?? 0);
  for (;;) {
    const rest = text.slice(position);
    const token = CODE_TOKEN.exec(rest)?.[0];
    if (!token) break;
    const after = rest.slice(token.length);
    if (/^[A-Za-z0-9]/.test(after) || !validCode(token, after)) break;
    if (hits.length > 0 && shapeOf(token) !== shapeOf(hits[0]!.code)) break;
    let consumed = token.length;
    consumed += CLOSE.exec(after)?.[0].length ?? 0;
    let tracking: string | null = null;
    const paren = /^\s*\(([^()]{0,60})\)/.exec(rest.slice(consumed));
    if (paren) {
      tracking = findTrackingNumbers(paren[1]!)[0]?.value ?? null;
      consumed += paren[0].length;
    }
    hits.push({ code: token, tracking, index: position });
    position += consumed;
    const separator = LIST_SEPARATOR.exec(text.slice(position));
    if (!separator) break;
    const next = text.slice(position + separator[0].length);
    const nextToken = CODE_TOKEN.exec(next)?.[0];
    if (!nextToken || shapeOf(nextToken) !== shapeOf(hits[0]!.code)) break;
    position += separator[0].length;
  }
  return hits;
}

// A station-style code with no keyword in front ("凭码" omitted): 3-4-1208, A2-3-101, 15-2-3307.
const BARE_CODE = /(?<![\w:.\-/*])([A-Za-z]-?\d{1,2}-\d{1,3}-\d{3,5}|\d{1,2}-\d{1,3}-\d{3,5}|[A-Za-z]-?\d{1,3}-\d{3,5})(?![\w:\-/])/g;

function findCodes(text: string): CodeHit[] {
  const hits: CodeHit[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(KEYWORD_RE)) {
    for (const hit of readCodeList(text, match.index! + match[0].length)) {
      if (seen.has(hit.code)) continue;
      seen.add(hit.code);
      hits.push(hit);
    }
  }
  if (hits.length === 0) {
    for (const match of text.matchAll(BARE_CODE)) {
      const before = text.slice(Math.max(0, match.index! - 6), match.index!);
      if (/电话|热线|客服|手机|尾号/.test(before) || seen.has(match[1]!)) continue;
      seen.add(match[1]!);
      hits.push({ code: match[1]!, tracking: null, index: match.index! });
    }
  }
  return hits.sort((a, b) => a.index - b.index);
}

// ---------------------------------------------------------------------------------------------
// Tracking numbers

const TRACKING_RE = /(?<![A-Za-z0-9*])([A-Z]{2}\d{9}[A-Z]{2}|[A-Z]{2,4}\d{10,18}|\d{12,20})(?![A-Za-z0-9*])/g;

function findTrackingNumbers(text: string): { value: string; index: number }[] {
  const found: { value: string; index: number }[] = [];
  for (const match of text.matchAll(TRACKING_RE)) {
    const before = text.slice(Math.max(0, match.index! - 4), match.index!);
    if (/尾号|订单号?[:\s]*$|电话|手机/.test(before)) continue;
    found.push({ value: match[1]!, index: match.index! });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Station

const LOCATIVE_RE = /到达|送达|送至|存入|存于|放至|放入|放在|放于|位于|到|至|在/g;
const STATION_STOP = /自取|待取|待领|取件|领取|取|请|凭|已|有|[,，。.;；!！?？、:\s]/;
const TIME_START =
  /^(?:\d{1,2}(?::|点|时|小时|天|日|月|分)|\d{4}|今天|今日|今晚|明天|明日|明早|后天|当天|当日|本日|次日|周[一二三四五六日天末]|星期|工作日|[一二三四五六七八九十两]+(?:天|日|小时)|晚上|早上|上午|下午|中午|营业|\d+个?工作)/;

function locativeAllowed(verb: string, before: string, after: string): boolean {
  switch (verb) {
    case "到":
      return !/[收迟报签得想遇直]$/.test(before) && !/^(?:期|付|货|账|家|手|店|访|位|点|时)/.test(after);
    case "在":
      return !/[正现存所实不还自好内都]$/.test(before) && !/^(?:线|此|途|派|路上|运)/.test(after);
    case "至":
      return !/[截直以甚\d]$/.test(before) && !/^(?:少|今|\d{1,2}:)/.test(after);
    default:
      return true;
  }
}

function stationAfterLocative(body: string): string | null {
  for (const match of body.matchAll(LOCATIVE_RE)) {
    const start = match.index! + match[0].length;
    const before = body.slice(Math.max(0, match.index! - 1), match.index!);
    const rest = body.slice(start).replace(/^[ \t]+/, "");
    if (!locativeAllowed(match[0], before, rest)) continue;
    const stop = STATION_STOP.exec(rest);
    const phrase = (stop ? rest.slice(0, stop.index) : rest).trim();
    if (!phrase || phrase === "站" || phrase.length < 2) continue;
    if (TIME_START.test(phrase)) continue;
    return cleanStation(phrase);
  }
  return null;
}

function stationAfterAddress(body: string): string | null {
  const match = /(?:地址|地点|位置|取件地址|取件点)[:\s]\s*([^,，。;；!！?？\s]+)/.exec(body);
  return match ? cleanStation(match[1]!) : null;
}

const STATION_SUFFIX =
  /(?:驿站|快递柜|智能柜|自提柜|丰巢柜|储物柜|快递超市|快递站|服务站|服务点|快递点|自提点|代收点|快递中心|服务中心|收发室|邮政所|营业部|营业厅|网点|门卫室?|传达室|柜|店\))$/;

function stationByClause(body: string): string | null {
  for (const clause of body.split(/[,，。;；!！?？\n]/)) {
    const value = clause.trim();
    if (value.length < 3 || /\d{3,}|码|号码|电话/.test(value) || /^(?:您|你)/.test(value)) continue;
    if (STATION_SUFFIX.test(value)) return cleanStation(value);
  }
  return null;
}

function cleanStation(value: string): string {
  let station = value
    .replace(/^(?:了|您的|你的|至|到|在|于)/, "")
    .replace(/[的]$/, "")
    .replace(/^[【[「『"“]+|[】\]」』"”]+$/g, "")
    .trim();
  // An opening bracket whose closing one was cut off (a time inside it): drop the fragment.
  const open = station.lastIndexOf("(");
  if (open > 0 && !station.includes(")", open)) station = station.slice(0, open);
  return station.trim();
}

// ---------------------------------------------------------------------------------------------
// Is this a pickup notice at all?

const PICKUP_CONTEXT = /取件|取货|提货|领取|取走|驿站|快递|包裹|快件|邮件|柜|货号|自提|代收/;
const PICKED_UP = /已(?:被)?(?:取出|取走|领取)|已完成取件|取件成功|已取件/;
const SIGNED = /已(?:被)?签收|签收人/;
const IN_TRANSIT = /正在派送|派送中|派件中|派送途中|即将派送|正在为您派送|已发货|运输中|已揽收|已揽件|预计.{0,6}送达|配送中|正在配送/;

const URL_RE = /(?:https?:\/\/|www\.)[^\s\u4e00-\u9fff，。；！？、]+|\b[a-z0-9-]+(?:\.[a-z0-9-]+)+\/[^\s\u4e00-\u9fff，。]*/gi;

// ---------------------------------------------------------------------------------------------

function splitTag(message: string): { tag: string | null; body: string } {
  const leading = /^\s*[【[]([^】\]\n]{1,24})[】\]]/.exec(message);
  if (leading) return { tag: leading[1]!, body: message.slice(leading[0].length) };
  const trailing = /[【[]([^】\]\n]{1,24})[】\]]\s*$/.exec(message);
  if (trailing) return { tag: trailing[1]!, body: message.slice(0, trailing.index) };
  return { tag: null, body: message };
}

/** One SMS → its parcels (none for anything that is not a pickup notice). */
export function parseMessage(rawMessage: string): ParsedPickup[] {
  const message = normalizeText(rawMessage).replace(URL_RE, " ");
  const { tag, body } = splitTag(message);
  if (!PICKUP_CONTEXT.test(body) && !(tag && tagBrand(tag))) return [];
  if (PICKED_UP.test(body)) return [];

  const codes = PICKUP_CONTEXT.test(body) ? findCodes(body) : [];
  if (codes.length === 0 && (IN_TRANSIT.test(body) || SIGNED.test(body))) return [];

  const company = (tag && tagBrand(tag)) ?? bodyCarrier(body);
  const stationName = stationAfterLocative(body) ?? stationAfterAddress(body) ?? stationByClause(body);
  const inCodes = new Set(codes.map((hit) => hit.tracking).filter(Boolean));
  const trackingNumbers = findTrackingNumbers(body)
    .map((found) => found.value)
    .filter((value) => !inCodes.has(value));

  if (codes.length > 0) {
    // Tracking numbers outside the codes' own brackets go to the codes still without one, in order.
    const spare = [...trackingNumbers];
    return codes.map((hit) => ({
      company,
      trackingNumber: hit.tracking ?? (codes.length === 1 || spare.length === codes.length ? spare.shift() ?? null : null),
      pickupCode: hit.code,
      stationName,
      pickupType: "code" as const,
    }));
  }
  if (stationName && trackingNumbers.length > 0) {
    return [...new Set(trackingNumbers)].map((trackingNumber) => ({
      company,
      trackingNumber,
      pickupCode: null,
      stationName,
      pickupType: "tracking" as const,
    }));
  }
  return [];
}

/** A paste of any number of SMS → every parcel, in order of appearance. */
export function parsePickupSms(text: string): ParsedPickup[] {
  if (!text || !text.trim()) return [];
  return splitMessages(text).flatMap(parseMessage);
}

function escapeRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
