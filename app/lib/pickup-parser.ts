// The pickup-SMS recogniser: pasted text (one or many SMS) → one entry per parcel. Pure and
// synchronous, so the page, the JSON endpoint and the screenshot pipeline share it and the tests
// can run it over a corpus. The labelling conventions it follows are in docs/product-rules.md ("Pickup SMS labels")
// (design and measured accuracy: docs/decisions/020-pickup-parser.md):
//
// - values are NFKC-normalised, every dash folded to "-" without surrounding spaces;
// - an SMS yields entries only with a pickup code, or a full tracking number plus a place and a
//   word of picking up; masked numbers (尾号0107), times and phone numbers are never codes or
//   tracking numbers;
// - company: the carrier (快递公司) named for the parcel (its own line or bracket in a message
//   listing several), else the first carrier the body names, else a carrier in the signature tag,
//   else the first carrier of the other messages pasted with it without a blank line, else the
//   brand of the signature tag, else null;
// - station: the place after the first locative verb, up to 取/领取 or punctuation (a bare 已到站
//   is skipped), else the value after 地址:, else a clause that names a station.
//
// Linear time: every regular expression either runs once over a message (global or sticky, no
// nested unbounded repetition) or reads a bounded window at a known position; nothing re-slices
// the rest of the text per match.

export type PickupType = "code" | "tracking";

export type ParsedPickup = {
  company: string | null;
  trackingNumber: string | null;
  pickupCode: string | null;
  stationName: string | null;
  pickupType: PickupType;
  /** The station's deadline as the text says it (今天18:00前, 3天内, 12.20前), else null. */
  deadline?: string | null;
  /** The recipient's phone tail the label carries (手机尾号1234), only when the text states it. */
  phoneTail?: string;
  /** The text put a waybill-long number where its code stands (取件码773…): the entry carries it as
   * the tracking number and the student checks it before ordering. */
  check?: "long-number";
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
    .replace(/[\u3000\u00A0]/g, " ")
    .replace(/([A-Za-z0-9])[ \t]{0,3}-[ \t]{0,3}(?=[A-Za-z0-9])/g, "$1-");
}

// ---------------------------------------------------------------------------------------------
// Carriers and brands

// Every spelling of a carrier → its name in the conventions (a short form is the same carrier).
const CARRIER_SPELLINGS: [string, string[]][] = [
  ["中通快运", ["中通快运"]],
  ["中通快递", ["中通快递", "中通速递", "中通"]],
  ["圆通速递", ["圆通速递", "圆通快递", "圆通"]],
  ["申通快递", ["申通快递", "申通"]],
  ["韵达快递", ["韵达快递", "韵达速递", "韵达"]],
  ["顺丰速运", ["顺丰速运", "顺丰快递", "顺丰"]],
  ["京东快递", ["京东快递", "京东物流", "京东"]],
  ["极兔速递", ["极兔速递", "极兔快递", "极兔"]],
  ["邮政EMS", ["邮政EMS", "中国邮政", "邮政快递", "邮政包裹", "邮政", "EMS"]],
  ["德邦快递", ["德邦快递", "德邦物流", "德邦"]],
  ["百世快递", ["百世快递", "百世汇通", "汇通快递", "汇通", "百世"]],
  ["天天快递", ["天天快递"]],
  ["优速快递", ["优速快递", "优速"]],
  ["宅急送", ["宅急送"]],
  ["丹鸟", ["丹鸟"]],
  ["众邮快递", ["众邮快递"]],
  ["安能物流", ["安能物流"]],
  ["跨越速运", ["跨越速运"]],
  ["苏宁物流", ["苏宁物流"]],
];
const CARRIER_OF = new Map(CARRIER_SPELLINGS.flatMap(([name, spellings]) => spellings.map((spelling) => [spelling, name] as const)));
// Latin spellings (EMS) only as a word of their own: never inside "SYSTEMS".
const CARRIER_ALTERNATION = [...CARRIER_OF.keys()]
  .sort((a, b) => b.length - a.length)
  .map((spelling) => (/^[A-Z]+$/.test(spelling) ? `(?<![A-Za-z])${spelling}(?![A-Za-z])` : escapeRegex(spelling)))
  .join("|");
const CARRIER_GLOBAL = new RegExp(CARRIER_ALTERNATION, "g");
const CARRIER_AT_START = new RegExp(`^(?:${CARRIER_ALTERNATION})`);

// Station chains and locker networks a signature tag may carry, as the conventions name them.
const STATION_BRANDS: [RegExp, string | null][] = [
  [/^丰巢/, "丰巢"],
  [/^(?:菜鸟驿站|菜鸟裹裹|菜鸟)/, null],
  [/^(?:兔喜生活|兔喜快递超市|兔喜)/, null],
  [/^(?:妈妈驿站|多多驿站|中邮驿站|邮政驿站|近邻宝|速递易|熊猫快收|日日顺|递管家|云柜|格格小区|收件宝|小兵驿站|喵站|快宝驿站|蜂站)/, null],
];
const BRAND_TAIL = /^(?:快递|速递|速运|物流|快运|驿站|智能柜|快递柜|生活|超市|快递超市|包裹|服务|科技|官方|网点)*$/;

// A tag no list knows is a sender's own name (邮侠, 驿小哥) when it is a short coined name, not an
// institution or a shop named by what it is (…后勤服务中心, 华联超市, 西湖区网点, 教务处, …银行).
const SENDER_NAME = /^[\u4e00-\u9fff]{2,6}$/;
const GENERIC_NAME_END =
  /(?:中心|超市|站|点|处|部|馆|店|所|室|厅|行|院|校|大学|公司|集团|商城|平台|系统|通知|提醒|助手|生活|服务|科技|网|办|局|委|会|队|堂|园|物业|移动|联通|电信|外卖|支付|咖啡|商场|市场)$/;

/** A tag's value: a carrier (any tag that starts with one), a station brand, a sender's own name, or nothing. */
function readTag(tag: string): Tags {
  const value = tag.trim();
  const carrier = CARRIER_AT_START.exec(value);
  if (carrier) return { carrier: CARRIER_OF.get(carrier[0])!, brand: null, sender: null };
  for (const [pattern, canonical] of STATION_BRANDS) {
    const match = pattern.exec(value);
    if (match && BRAND_TAIL.test(value.slice(match[0].length))) return { carrier: null, brand: canonical ?? value, sender: null };
  }
  // Any other tag that names a place to pick up from (欢猫驿站, 多多代收点, 袋鼠智柜, 鸟箱) is that place's brand.
  if (/^[\u4e00-\u9fff]{1,8}(?:驿站|代收点|快递超市|智柜|快递柜|自提柜|快收|便民站|箱|柜)$/.test(value)) return { carrier: null, brand: value, sender: null };
  return { carrier: null, brand: null, sender: SENDER_NAME.test(value) && !GENERIC_NAME_END.test(value) ? value : null };
}

type Mention = { name: string; index: number };
// What the signature tags say: a carrier, a station brand, and a sender's own name (邮侠) that only
// names the company of a text naming nothing else; it never makes a text a pickup notice.
type Tags = { carrier: string | null; brand: string | null; sender: string | null };

// A carrier the list does not know, named by its shape before the parcel it carries
// ("您的晟邦物流包裹", "晟邦物流编号20"): a short name ending in 物流/速递/速运/快运.
const UNKNOWN_CARRIER = /[\u4e00-\u9fff]{2,8}?(?:物流|速递|速运|快运)(?=包裹|快件|编号|编码|货号|单号)/;
const NOT_A_CARRIER_NAME = /驿站|超市|代收|柜|中心|站|点|店|您|你|的|有/;

function unknownCarrier(body: string): string | null {
  const match = UNKNOWN_CARRIER.exec(body);
  if (!match) return null;
  const name = match[0].replace(/^(?:.*?(?:您的|你的|的|您|你))/, "");
  return name.length >= 4 && name.length <= 6 && !NOT_A_CARRIER_NAME.test(name) ? name : null;
}

function carrierMentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const match of text.matchAll(CARRIER_GLOBAL)) found.push({ name: CARRIER_OF.get(match[0])!, index: match.index! });
  return found;
}

// ---------------------------------------------------------------------------------------------
// Splitting a paste into blocks (separated by blank or timestamp lines) and messages

const TIMESTAMP_LINE =
  /^(?:(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?|昨天|今天|前天|星期[一二三四五六日天]|周[一二三四五六日天])?\s{0,3}(?:上午|下午|晚上|凌晨|中午|早上)?\s{0,3}\d{1,2}:\d{2}(?::\d{2})?$/;
// A timestamp in front of an SMS on the same line ("11月03日 10:15 【韵达快递】…").
const TIMESTAMP_PREFIX =
  /^(?:(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?|昨天|今天|前天|星期[一二三四五六日天]|周[一二三四五六日天])?\s{0,3}(?:上午|下午|晚上|凌晨|中午|早上)?\s{0,3}\d{1,2}:\d{2}(?::\d{2})?\s{1,3}(?=[^\d\s:-])/;
const DATE_ONLY_LINE = /^(?:\d{4}[-/.年])?\d{1,2}[-/.月]\d{1,2}日?(?:\s{0,3}(?:星期|周)[一二三四五六日天])?$/;
// Without a sentence end, a tag (or tags) starts a new SMS when a notice opens after it: a
// greeting, a code word, a request, a carrier; not a tag after a locative ("已到【地址】").
const GLUED_SMS = new RegExp(
  `(?<=[。!?])\\s*(?=【)|(?<=[^\\s】[])(?<!到|至|在|于|由|被|送达)\\s*(?=(?:【[^】\\n]{1,24}】){1,3}(?:您|你|亲|尊敬|同学|取件码|取货码|提货码|货号|编号|编码|请|凭|尾号|包裹|快件|快递已|温馨|${CARRIER_ALTERNATION}))`,
);
// A greeting that opens a second notice on the same line without a tag or a sentence end
// ("…取件带证件亲申通快递A12-4-7111已到…", "…来取您好，您的包裹…"): split there only when
// both sides read a pickup code of their own.
const GREETING = new RegExp(`您好|你好|尊敬的|亲(?=[,!~\\s]|${CARRIER_ALTERNATION})`, "g");

const GREETING_WINDOW = 240;

function splitAtGreetings(piece: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (const match of piece.matchAll(GREETING)) {
    const at = match.index!;
    if (at <= from) continue;
    // Bounded windows on both sides keep a long line linear: an SMS is far shorter than this.
    const before = piece.slice(Math.max(from, at - GREETING_WINDOW), at);
    if (/[,:;(\[【「『“"]\s*$/.test(before)) continue; // inside a sentence
    const after = piece.slice(at, at + GREETING_WINDOW);
    const own = findCodes(before).map((hit) => hit.code);
    const next = findCodes(after).map((hit) => hit.code);
    if (own.length === 0 || next.length === 0 || next.every((code) => own.includes(code))) continue;
    parts.push(before);
    from = at;
  }
  parts.push(piece.slice(from));
  return parts;
}
const TAG_ONLY = /^(?:[【[][^】\]\n]{1,24}[】\]]\s*)+$/;
const ENDS_WITH_TAG = /[【[][^】\]\n]{1,24}[】\]]$/;
const HAS_CODE_WORD = /取件码|取货码|提货码|货号|编码|请用|输入|取件密码|开箱码|开柜码|密码|凭\s?[『「【"“]?\s?[A-Za-z0-9]/;
const NOTICE_OPENING = /^(?:您|你|亲|尊敬|同学|取件码|取货码|提货码|取件密码|开箱码|货号|请凭|凭|单号|运单)/;
const SENTENCE_END = /[。!?]$/;
// A signature in ASCII brackets ("[菜鸟驿站]…", as some phones copy it): Chinese inside.
const SQUARE_TAG_START = /^\[[^\]\n]{0,12}[\u4e00-\u9fff][^\]\n]{0,12}\]/;
const CJK_END = /[\u4e00-\u9fff]$/;
const CJK_START = /^[\u4e00-\u9fff]/;

type Segment = { lines: string[]; leadingTag: boolean; hasCodeWord: boolean; onlyTags: boolean };

/** Lines of one message: a wrapped Chinese sentence is joined, anything else keeps its line. */
function joinLines(lines: string[]): string {
  let text = lines[0] ?? "";
  for (let i = 1; i < lines.length; i += 1) {
    const next = lines[i]!;
    const wrapped = CJK_END.test(lines[i - 1]!) && CJK_START.test(next) && !CARRIER_AT_START.test(next);
    text += wrapped ? next : `\n${next}`;
  }
  return text;
}

/** A paste → blocks of messages. A block is what a blank line or a timestamp line delimits. */
function splitBlocks(text: string): string[][] {
  const blocks: string[][] = [];
  let block: string[] = [];
  let segment: Segment | null = null;
  let closed = false;
  const endSegment = () => {
    if (segment && segment.lines.length > 0) block.push(joinLines(segment.lines));
    segment = null;
    closed = false;
  };
  const endBlock = () => {
    endSegment();
    if (block.length > 0) blocks.push(block);
    block = [];
  };
  const start = (piece: string, leadingTag: boolean) => {
    endSegment();
    segment = { lines: [piece], leadingTag, hasCodeWord: HAS_CODE_WORD.test(piece), onlyTags: TAG_ONLY.test(piece) };
  };
  for (const rawLine of normalizeText(text).split("\n")) {
    let line = rawLine.trim();
    if (!line || TIMESTAMP_LINE.test(line) || DATE_ONLY_LINE.test(line)) {
      endBlock();
      continue;
    }
    const stamp = TIMESTAMP_PREFIX.exec(line);
    if (stamp) {
      endBlock();
      line = line.slice(stamp[0].length);
    }
    // Several SMS glued on one line: split before a tag that follows the end of a sentence, or,
    // without punctuation, before a tag (or tags) that opens a notice ("…取件【中通快递】您的…").
    for (const glued of line.split(GLUED_SMS)) {
      const [piece, ...greeted] = splitAtGreetings(glued) as [string, ...string[]];
      place(piece);
      for (const next of greeted) start(next, false); // a second notice, opened by its greeting
    }
  }
  endBlock();
  return blocks;

  // One piece of a line: a tag piece, or text that continues the current message or starts one.
  function place(piece: string) {
    const current = segment as Segment | null;
    const tagOnly = TAG_ONLY.test(piece);
    if (piece.startsWith("【") || SQUARE_TAG_START.test(piece)) {
      if (current && tagOnly && !current.leadingTag && !closed) {
        current.lines.push(piece); // a signature after its message
        closed = true;
      } else if (current && current.onlyTags && !closed) {
        current.lines.push(piece); // a second tag, or the body after a tag line
        current.onlyTags = tagOnly;
        current.hasCodeWord ||= HAS_CODE_WORD.test(piece);
      } else {
        start(piece, true);
      }
      return;
    }
    const codeWord = HAS_CODE_WORD.test(piece);
    const opensNotice = NOTICE_OPENING.test(piece);
    // Untagged notices one per line: a line that opens like a notice after a line that ended a
    // sentence, or a second code after the first, starts a new message.
    const afterSentence = current !== null && SENTENCE_END.test(current.lines[current.lines.length - 1]!);
    if (!current || closed || (opensNotice && ((current.hasCodeWord && codeWord) || afterSentence))) {
      start(piece, false);
    } else {
      current.lines.push(piece);
      current.onlyTags = false;
      current.hasCodeWord ||= codeWord;
    }
    if (ENDS_WITH_TAG.test(piece) && !(segment as Segment | null)?.leadingTag) closed = true; // body and signature on one line

  }
}

/** The messages of a paste, in order (blocks flattened). */
export function splitMessages(text: string): string[] {
  return splitBlocks(text).flat();
}

// ---------------------------------------------------------------------------------------------
// Pickup codes

const KEYWORD_RE =
  /取件验证码|取件码|取货码|提货码|提件码|取件号|取货号|取件编码|取件密码|开箱码|开柜码|开箱密码|开柜密码|柜门码|提取码|取件凭证|取货凭证|取件编号|货号|编码|编号|请用|输入|密码|凭/g;
// Between a keyword and its code: 为/是/:, 分别为, quotes and brackets, spaces (bounded).
const LEAD = /(?:\s|分别|依次|在此|如下|为|是|码|:|『|「|“|"|'|【|\[|\(|<|《){0,8}/y;
const CODE_TOKEN = /(?:[A-Za-z]{1,3}-?)?\d[A-Za-z0-9]{0,11}(?:-[A-Za-z0-9]{1,8}){0,4}/y;
const LOCKER_PREFIX = /\d{1,3}号(?:柜|格口|货架|架)\s{0,2}/y;
const CLOSE = /(?:』|」|”|"|'|】|\]|>|》){0,3}/y;
const LIST_SEPARATOR = /\s{0,3}(?:、|,|和|及|与|\/|;|\s)\s{0,3}(?:『|「|“|")?/y;
const PAREN = /\s{0,2}\(([^()\n]{0,60})\)/y;
const AFTER_CODE_NOT = /^(?::|元|天|小时|分钟|月|日|点|号(?![取速到请,，。!！\s]|$)|个|件|年|%|kg|公斤|\.\d|[A-Za-z0-9])/i;
// Keywords that name the code itself: after them a short code (货号 57, 货号2F8) is still a code.
const STRONG_KEYWORD = /^(?:取件码|取货码|提货码|提件码|取件号|取货号|取件编码|货号|编码|编号|开箱码|开柜码|取件编号)$/;
const PICK_WORD_NEXT = /^(?:领取|取件|来取|领|取)/;
const PHONE_LIKE = /^(?:0\d{2,3}-?\d{7,8}|(?:\+?86)?1[3-9]\d{9}|400-?\d{3}-?\d{4}|95\d{3})$/;

type CodeHit = { code: string; tracking: string | null; carrier: string | null; index: number };

function readAt(pattern: RegExp, text: string, position: number): string {
  pattern.lastIndex = position;
  return pattern.exec(text)?.[0] ?? "";
}

function validCode(code: string, after: string, strong = false): boolean {
  if (AFTER_CODE_NOT.test(after) || PHONE_LIKE.test(code)) return false;
  const digits = code.replace(/\D/g, "").length;
  if (/^\d+$/.test(code)) return code.length >= (strong ? 2 : 3) && code.length <= 8;
  // Digits and letters mixed without a dash (2F8, 3B7, 12A03) after a keyword that names the code.
  if (strong && /^\d/.test(code) && !code.includes("-")) return digits >= 2 && code.length <= 8;
  // Shelf code A12; after a keyword that names the code, one digit is enough (编号D6).
  if (/^[A-Za-z]/.test(code) && !code.includes("-")) return digits >= (strong ? 1 : 2) && code.length <= 8 && digits <= 6;
  if (digits < (strong ? 2 : 3) && !/^[A-Za-z]/.test(code)) return false;
  if (digits < 2) return false;
  return code.length <= 16;
}

/** Same number of dash groups; without dashes, both shelf codes (A12, B307) or digits of one length. */
function sameShape(a: string, b: string) {
  const groups = a.split("-").length;
  if (groups !== b.split("-").length) return false;
  if (groups > 1) return true;
  const letter = /^[A-Za-z]/;
  return letter.test(a) ? letter.test(b) : !letter.test(b) && a.length === b.length;
}

/** Codes after one keyword: a list separated by 、/,/和, each optionally followed by (运单号… / 中通). */
function readCodeList(text: string, start: number, strong = false): { hits: CodeHit[]; end: number } {
  const hits: CodeHit[] = [];
  let position = start + readAt(LEAD, text, start).length;
  for (;;) {
    const prefix = readAt(LOCKER_PREFIX, text, position);
    const token = readAt(CODE_TOKEN, text, position + prefix.length);
    if (!token) break;
    const afterStart = position + prefix.length + token.length;
    // A short shelf code right before a word of picking up ("请凭5-2领取") names itself as a code.
    const pickedNext = PICK_WORD_NEXT.test(text.slice(afterStart, afterStart + 2));
    if (!validCode(token, text.slice(afterStart, afterStart + 3), strong || (pickedNext && token.includes("-")))) break;
    let end = afterStart + readAt(CLOSE, text, afterStart).length;
    PAREN.lastIndex = end;
    const paren = PAREN.exec(text);
    let tracking: string | null = null;
    let carrier: string | null = null;
    if (paren) {
      tracking = findTrackingNumbers(paren[1]!)[0]?.value ?? null;
      carrier = carrierMentions(paren[1]!)[0]?.name ?? null;
      end += paren[0].length;
    }
    hits.push({ code: prefix.replace(/\s/g, "") + token, tracking, carrier, index: position });
    const separator = readAt(LIST_SEPARATOR, text, end);
    if (!separator) break;
    const next = readAt(CODE_TOKEN, text, end + separator.length);
    if (!next) break;
    // After 、/和/及 any code follows; after a comma or a space only one of the same shape
    // ("取件码 5521，101室" names a room, not a second code).
    if (!/[、和及与]/.test(separator) && !sameShape(next, token)) break;
    position = end + separator.length;
  }
  return { hits, end: position };
}

// A station-style code with no keyword in front: 3-4-1208, A2-3-101, 15-2-3307.
const BARE_CODE =
  /(?<![\w:.\-/*])([A-Za-z]-?\d{1,2}-\d{1,3}-\d{3,5}|\d{1,2}-\d{1,3}-\d{3,5}|[A-Za-z]-?\d{1,3}-\d{3,5})(?![\w:\-/])/g;
const PHONE_CONTEXT = /电话|热线|客服|手机|尾号|联系|致电|拨打|tel|号码/i;

// A list line "中通快递 518881" (a carrier, then only a code): the code needs no keyword there.
const CARRIER_LINE = new RegExp(`(?:^|\\n)[ \\t]{0,3}(?:\\d{1,2}[.、)][ \\t]{0,3})?(?:${CARRIER_ALTERNATION})[ \\t:,]{0,3}([A-Za-z0-9][A-Za-z0-9-]{2,15})[ \\t。]{0,3}(?=\\n|$)`, "g");

const PARCEL_NUMBER = /(?:包裹|快件)(\d{4,8})(?=已(?:到|放|存|送|在))/g;

function findCodes(text: string): CodeHit[] {
  const hits: CodeHit[] = [];
  const seen = new Set<string>();
  // A keyword inside a list already read (取件码 1-1-1001、取件码 …) starts no second reading.
  let readUpTo = -1;
  for (const match of text.matchAll(KEYWORD_RE)) {
    if (match.index! < readUpTo) continue;
    const list = readCodeList(text, match.index! + match[0].length, STRONG_KEYWORD.test(match[0]));
    readUpTo = list.end;
    for (const hit of list.hits) {
      if (seen.has(hit.code)) continue;
      seen.add(hit.code);
      hits.push(hit);
    }
  }
  // "您的京东包裹08538已到…": a number between the parcel and its arrival is its code.
  for (const match of text.matchAll(PARCEL_NUMBER)) {
    const code = match[1]!;
    if (seen.has(code)) continue;
    seen.add(code);
    hits.push({ code, tracking: null, carrier: null, index: match.index! + match[0].indexOf(code) });
  }
  for (const match of text.matchAll(CARRIER_LINE)) {
    const code = match[1]!;
    if (seen.has(code) || !validCode(code, "")) continue;
    seen.add(code);
    hits.push({ code, tracking: null, carrier: null, index: match.index! + match[0].indexOf(code) });
  }
  for (const match of text.matchAll(BARE_CODE)) {
    const code = match[1]!;
    if (seen.has(code)) continue;
    if (PHONE_CONTEXT.test(text.slice(Math.max(0, match.index! - 8), match.index!))) continue;
    seen.add(code);
    PAREN.lastIndex = match.index! + match[0].length;
    const paren = PAREN.exec(text);
    hits.push({
      code,
      tracking: paren ? findTrackingNumbers(paren[1]!)[0]?.value ?? null : null,
      carrier: paren ? carrierMentions(paren[1]!)[0]?.name ?? null : null,
      index: match.index!,
    });
  }
  return hits.sort((a, b) => a.index - b.index);
}

// ---------------------------------------------------------------------------------------------
// Tracking numbers

const TRACKING_RE = /(?<![A-Za-z0-9*-])([A-Z]{2}\d{9}[A-Z]{2}|[A-Z]{2,4}\d{10,18}|\d{12,20})(?![A-Za-z0-9*-])/g;
const TRACKING_NOT_BEFORE = /尾号|订单编?号?\s?:?\s?$|电话|热线|客服|手机|联系|致电|拨打|号码|tel/i;

function findTrackingNumbers(text: string): { value: string; index: number }[] {
  const found: { value: string; index: number }[] = [];
  for (const match of text.matchAll(TRACKING_RE)) {
    const value = match[1]!;
    if (PHONE_LIKE.test(value) || /^0\d{9,11}$/.test(value)) continue; // a landline read without its hyphen
    if (TRACKING_NOT_BEFORE.test(text.slice(Math.max(0, match.index! - 8), match.index!))) continue;
    found.push({ value, index: match.index! });
  }
  return found;
}

// A waybill-long number right after a code word: 12-15 digits, or 2-4 letters and 10-13 digits.
const CODE_NAMING_WORD = /^(?:取件验证码|取件码|取货码|提货码|提件码|取件号|取货号|取件编码|取件密码|开箱码|开柜码|柜门码|提取码|取件凭证|取货凭证|取件编号|货号|请用|凭)$/;
const LONG_NUMBER = /(?:[A-Z]{2,4}\d{10,13}|\d{12,15})(?![A-Za-z0-9])/y;

/** Numbers of a waybill's length standing where a code word puts its code, in order, once each. */
function trackingInCodePlace(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(KEYWORD_RE)) {
    // Only a word that names the pickup code (not 编号/密码/输入: an order's or a member's number).
    if (!CODE_NAMING_WORD.test(match[0])) continue;
    const start = match.index! + match[0].length;
    const number = readAt(LONG_NUMBER, text, start + readAt(LEAD, text, start).length);
    if (number && !PHONE_LIKE.test(number) && !/^0\d{9,11}$/.test(number) && !found.includes(number)) found.push(number);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Station

const LOCATIVE_RE = /到达|送达|送至|存入|存于|存放于|存放在|存放至|放置于|放置在|放至|放入|放在|放于|位于|投递至|到|至|在|由|于/g;
// A place ends at a word of picking up, of asking, at a condition (如拒签…), at a date or hour
// (12.20前, 5点半以前, 八点前) or at punctuation; a note after a trailing 了 ("京东派了(小北门西30米)") is not the place.
const STATION_STOP =
  /暂时保管|暂为保管|代为保管|保管|代收(?![点处站柜])|暂存|进行|未取|未领|自取|自提(?![柜点站处])|待取|待领|取件|领取|速取|尽快|及时|取|请|凭|已|有(?:问题|疑问|事|任何|需要|异议|\d|[一二两三四五六七八九十几多])|如(?:拒|有|需|未|已|您|你|不)|\d{1,2}[.\/月]\d{1,2}[日号]?(?:前|之前|以前)|(?:\d{1,2}|[一二三四五六七八九十]{1,3})(?::\d{2}|点(?:半|\d{1,2}分?)?)(?:前|之前|以前)|了(?=\()|[,，。.;；!！?？、:~\s]/;

// "您在A店的中通*53211包裹移动到…": the place ends at 的 before the parcel it holds (a carrier
// and its number, a masked number, a number before 包裹/快件, 包裹, 快件); "门口的快递柜" and
// "东门的2号柜" stay one place.
const OWNED_PARCEL = new RegExp(`的(?=(?:${CARRIER_ALTERNATION})(?:快递)?(?:[*]|\\d|包裹|快件)|(?:快递)?(?:[*]|包裹|快件)|\\d{3,}(?:包裹|快件))`);

/** The first end of a place in a window: a stop word, or 的 before the parcel (looked up only at a 的). */
function stationStop(window: string): RegExpExecArray | null {
  const stop = STATION_STOP.exec(window);
  const at = window.indexOf("的");
  if (at < 0 || (stop && stop.index < at)) return stop;
  const owned = OWNED_PARCEL.exec(window);
  return owned && (!stop || owned.index < stop.index) ? owned : stop;
}
const MAX_STATION = 40;
const TIME_START =
  /^(?:\d{1,2}(?::|点|时|小时|天|日|月|分|号前)|\d{4}|今天|今日|今晚|明天|明日|明早|后天|当天|当日|本日|次日|周[一二三四五六日天末]|星期|工作|营业|有效|规定|保管期|期限|关门|[一二三四五六七八九十两几半]+(?:天|日|小时|周|个?星期|个?月)|晚上|早上|上午|下午|中午|\d+个?工作)/;
const BARE_ARRIVAL = /^站[啦了咯喽啰哦呀喔]?$/;
// "在一周内", "在保管期内", "在关门前": a span of time, not a place.
// Only a span ends so: "门店内" is a place.
const TIME_END = /(?:\d|小时|天|日|周|星期|月|分钟|期|时间|关门|下班|营业|点|时)(?:内|前|之前|以前|以内|之内|期间)$/;

function locativeAllowed(verb: string, before: string, after: string): boolean {
  switch (verb) {
    case "到":
      return !/[收迟报签得想遇直达找]$/.test(before) && !/^(?:期|付|货|账|家|手|店|访|位|点|时|件|很|好久|过|底)/.test(after);
    case "在":
      return !/[正现存所实不还自好内都放]$/.test(before) && !/^(?:线|此|途|派|路上|运|您|你)/.test(after);
    case "至":
      return !/[截直以甚]$/.test(before) && !/^(?:少|今|\d{1,2}:|\d{1,2}点)/.test(after);
    // "已由X暂时保管", "由X代收": the keeper is the place; "由于", "由您" are not.
    case "由":
      return /^(?!本|我|该)[^,，。;；!！?？\n]{4,40}?(?:暂时|暂为|代为)?(?:保管|代收|暂存)/.test(after) && !/^(?:于|您|你)/.test(after);
    // "请于X领取": after 于 only where a request or a place verb stands before it (not 关于, 对于, 由于).
    case "于":
      return /[请存放位置]$/.test(before);
    default:
      return true;
  }
}

// A carrier glued after the place is what waits there, not part of it: "22栋106圆通爆仓" (the
// carrier's parcels overflow), "学创文印EMS速取" (a short carrier name before the word of picking
// up). A carrier's outlet keeps its name: "斜对面申通快递取您的快递", "到极兔领取".
const CARRIER_AT_END = new RegExp(`(?:${CARRIER_ALTERNATION})(爆仓|爆满)?$`);
const PICK_STOP = /^(?:速取|取|领取|取件|来取|领)$/;

function withoutGluedCarrier(phrase: string, stopWord: string): string {
  const glued = CARRIER_AT_END.exec(phrase);
  if (!glued || !/[\u4e00-\u9fff\d]{2}$/.test(phrase.slice(0, glued.index))) return phrase;
  const shortName = !/(?:快递|速递|速运|物流|快运)(?:爆仓|爆满)?$/.test(glued[0]);
  return glued[1] || (shortName && PICK_STOP.test(stopWord)) ? phrase.slice(0, glued.index) : phrase;
}

function stationAfterLocative(body: string): string | null {
  for (const match of body.matchAll(LOCATIVE_RE)) {
    let start = match.index! + match[0].length;
    while (start < body.length && (body[start] === " " || body[start] === "\t" || body[start] === "\n")) start += 1;
    const window = body.slice(start, start + MAX_STATION + 1);
    if (!locativeAllowed(match[0], body.slice(Math.max(0, match.index! - 1), match.index!), window)) continue;
    let stop = stationStop(window);
    // "8 栋丰巢柜": a space after a bare number is inside the place, not its end.
    while (stop && /^[ \t]$/.test(stop[0]) && /[\u4e00-\u9fff]/.test(window[stop.index - 1] ?? "") && /[\u4e00-\u9fff]/.test(window[stop.index + 1] ?? "")) {
      const rest = stationStop(window.slice(stop.index + 1));
      stop = rest ? Object.assign(rest, { index: rest.index + stop.index + 1 }) : null;
    }
    if (stop && /\s/.test(stop[0]) && /^[\dA-Za-z]{1,4}$/.test(window.slice(0, stop.index))) {
      const rest = stationStop(window.slice(stop.index + 1));
      stop = rest ? Object.assign(rest, { index: rest.index + stop.index + 1 }) : null;
    }
    if (!stop && start + window.length < body.length) continue; // no end within a place's length
    const phrase = withoutGluedCarrier((stop ? window.slice(0, stop.index) : window).trim(), stop?.[0] ?? "");
    if (!phrase || phrase.length < 2 || BARE_ARRIVAL.test(phrase) || TIME_START.test(phrase) || TIME_END.test(phrase)) continue;
    const station = cleanStation(phrase);
    if (station.length >= 2 && (!/^[\dA-Za-z-]+$/.test(station) || PLACEHOLDER.test(station))) return station;
  }
  return null;
}

const ADDRESS_RE = /(?:取件地址|地址|地点|位置|取件点|自提点)\s?:\s?([^,，。;；!！?？\s]{2,40})/;

function stationAfterAddress(body: string): string | null {
  const match = ADDRESS_RE.exec(body);
  return match ? cleanStation(match[1]!) : null;
}

const STATION_SUFFIX =
  /(?:驿站|快递柜|智能柜|自提柜|丰巢柜|储物柜|快递超市|超市|便利店|便民站|快递站|服务站|服务点|快递点|自提点|代收点|快递中心|服务中心|收发室|邮政所|营业部|营业厅|网点|门卫室?|传达室|柜|店\))$/;

// Shopping apps copy a pickup as "取件码 H-683" and a line "东山极兔快递 | 苏果超市…": network | store.
const NETWORK_STORE_LINE = /(?:^|\n)[ \t]{0,3}([^\n|]{2,24}?[ \t]{0,2}\|[ \t]{0,2}[^\n|]{2,40}?)[ \t]{0,3}(?=\n|$)/;

function stationByClause(body: string): string | null {
  for (const clause of body.split(/[,，。;；!！?？\n]/)) {
    const value = clause.trim();
    if (value.length < 3 || value.length > MAX_STATION || /\d{3,}|码|电话/.test(value) || /^(?:您|你)/.test(value)) continue;
    if (STATION_SUFFIX.test(value)) return cleanStation(value);
  }
  return null;
}

// A place the sender or a reporter masked ("到xxx速取", "已到【地址】"): it stands for the place,
// so it is read as written.
const PLACEHOLDER = /^(?:[xX×*]{2,}|【[\u4e00-\u9fff]{2,4}】)$/;

const OPENER_OF: Record<string, string> = { "】": "【", "]": "[", "」": "「", "』": "『", "\"": "", "”": "“" };

function cleanStation(value: string): string {
  if (PLACEHOLDER.test(value.trim())) return value.trim();
  let station = value
    .replace(/^(?:了|您的|你的|至|到|在|于)/, "")
    .replace(/(?:的|了|啦|咯|喽|哦|呀)$/, "")
    .replace(/^[【[「『"“]+/, "")
    .trim();
  // A closing bracket at the end is a stray one unless its opener is inside (菜鸟『智能柜』).
  const close = /[】\]」』"”]+$/.exec(station);
  if (close && !OPENER_OF[close[0][0]!]?.split("").some((opener) => station.includes(opener))) station = station.slice(0, close.index).trim();
  // An opening bracket whose closing one was cut off (a time inside it): drop the fragment.
  const open = station.lastIndexOf("(");
  if (open > 0 && !station.includes(")", open)) station = station.slice(0, open);
  return station.trim();
}

// ---------------------------------------------------------------------------------------------
// Is this a pickup notice at all?

// Words of a parcel: a code for a meal, a ticket or a login is not a pickup code.
const PICKUP_CONTEXT = /取[^\n。]{0,8}件|取货|提货|驿站|快递|包裹|快件|邮件|邮包|邮政|柜|货号|自提|代收|运单|收发室/;
const PICKUP_VERB = /取|领|自提|提货/;
const PICKUP_PLACE = /驿站|柜|兔喜|菜鸟|丰巢|店\)$|超市|代收|自提|收发室|快递中心|快递站|服务站|服务中心|便民站|邮政|邮局|快递点|门卫|传达室|快收|近邻宝|速递易/;
const PICKED_UP = /(?<!如|若|如您|若您|如果|如果您|如你)已(?:被)?(?:取出|取走|领取|取件)|已完成取件|取件成功|成功取件|已被您取/;
const SIGNED = /已(?:被)?签收|签收人/;
const IN_TRANSIT =
  /正在派送|派送中|派件中|派送途中|即将派送|正在为您派送|已发货|运输中|已揽收|已揽件|揽收成功|预计.{0,6}送达|配送中|正在配送|转运中心|分拨中心|集散中心|发往|已发出|已离开|退回|已退|拒收|改派/;
const ONE_TIME_CODE = /验证码|校验码|动态码|动态密码|登录密码|支付密码|激活码/;
const CODE_CONTEXT = /取件|取货|提货|货号/;

const URL_RE = /(?:https?:\/\/|www\.)[^\s\u4e00-\u9fff，。；！？、]{1,300}|\b[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,6}\/[^\s\u4e00-\u9fff，。]{0,300}/gi;
const TAG_RE = /[【[]([^】\]\n]{1,24})[】\]]/y;
const TRAILING_TAG = /[【[]([^】\]\n]{1,24})[】\]]\s*$/;

/** The leading signature tags (one or more) and a trailing one; the body is what is between. */
function splitTags(message: string): { tags: Tags; body: string } {
  const tags: Tags = { carrier: null, brand: null, sender: null };
  const take = (value: string) => {
    const read = readTag(value);
    tags.carrier ??= read.carrier;
    tags.brand ??= read.brand;
    tags.sender ??= read.sender;
  };
  let start = 0;
  for (;;) {
    while (start < message.length && /\s/.test(message[start]!)) start += 1;
    TAG_RE.lastIndex = start;
    const tag = TAG_RE.exec(message);
    if (!tag) break;
    take(tag[1]!);
    start = TAG_RE.lastIndex;
  }
  let end = message.length;
  const trailing = TRAILING_TAG.exec(message.slice(Math.max(start, message.length - 40)));
  if (trailing) {
    take(trailing[1]!);
    end = message.length - trailing[0].length;
  }
  return { tags, body: message.slice(start, Math.max(start, end)) };
}

/**
 * The carrier of each code: a carrier in the code's own bracket, else (in a message whose codes
 * stand on several lines) the carrier on the code's line or on a heading line after the previous
 * code's line, else the message's carrier. One pass over lines, mentions and codes.
 */
function carriersOfCodes(body: string, codes: CodeHit[], fallback: string | null): (string | null)[] {
  const lineEnds: number[] = [];
  for (let i = body.indexOf("\n"); i >= 0; i = body.indexOf("\n", i + 1)) lineEnds.push(i);
  lineEnds.push(body.length);
  let line = 0;
  const codeLines = codes.map((hit) => {
    while (hit.index > lineEnds[line]!) line += 1;
    return line;
  });
  if (codeLines.length === 0 || codeLines[0] === codeLines[codeLines.length - 1]) return codes.map((hit) => hit.carrier ?? fallback);
  const mentions = carrierMentions(body);
  line = 0;
  const mentionLines = mentions.map((mention) => {
    while (mention.index > lineEnds[line]!) line += 1;
    return line;
  });
  const result: (string | null)[] = [];
  let heading: string | null = null;
  let m = 0;
  let c = 0;
  while (c < codes.length) {
    const current = codeLines[c]!;
    // Lines before the code's line: a carrier there is a heading for the next code line.
    while (m < mentions.length && mentionLines[m]! < current) heading = mentions[m++]!.name;
    const own = m < mentions.length && mentionLines[m] === current ? mentions[m]!.name : null;
    while (c < codes.length && codeLines[c] === current) {
      result.push(codes[c]!.carrier ?? own ?? heading ?? fallback);
      c += 1;
    }
    while (m < mentions.length && mentionLines[m] === current) m += 1;
    heading = null;
  }
  return result;
}

/**
 * The place of each code when the codes stand on several lines: the place read from the code's
 * own line and the lines after it up to the next code's line (a list "取件码 X" / "network | store"
 * or "凭X到A驿站…" / "凭Y到B驿站…"); else the message's place.
 */
function stationsOfCodes(body: string, codes: CodeHit[], fallback: string | null): (string | null)[] {
  if (codes.length < 2) return codes.map(() => fallback);
  // Codes are in order: one forward pass finds the start of each code's line.
  let lineStart = 0;
  let scanned = 0;
  const starts = codes.map((hit) => {
    for (; scanned < hit.index; scanned += 1) if (body[scanned] === "\n") lineStart = scanned + 1;
    return lineStart;
  });
  if (starts[0] === starts[starts.length - 1]) return codes.map(() => fallback);
  // One reading per line that holds codes (several codes on one line share it): linear.
  const byLine = new Map<number, string | null>();
  let next = 0;
  return codes.map((_, i) => {
    const start = starts[i]!;
    if (!byLine.has(start)) {
      if (next <= i) next = i + 1;
      while (next < codes.length && starts[next]! <= start) next += 1;
      const part = body.slice(start, next < codes.length ? starts[next] : body.length);
      byLine.set(start, stationAfterLocative(part) ?? stationAfterAddress(part) ?? NETWORK_STORE_LINE.exec(part)?.[1]?.trim() ?? null);
    }
    return byLine.get(start) ?? fallback;
  });
}

// ---------------------------------------------------------------------------------------------
// The station's deadline

// "请于今天18:00前领取", "请23:59前到站", "当日16:00前", "12.20前取件", "下午1点前领取", "5点半以前",
// "3天内取件", "24小时内免费" is a fee, not a deadline (a span is a deadline only before a word of picking up).
const DEADLINE_AT =
  /(?:请于|请在|请|于|在)?\s?((?:今天|今日|今晚|明天|明日|当天|当日|本日|\d{1,2}月\d{1,2}日|\d{1,2}[./]\d{1,2})?\s?(?:上午|下午|晚上|中午|早上)?\s?(?:\d{1,2}[:：]\d{2}|(?:\d{1,2}|[一二三四五六七八九十]{1,3})点(?:半|\d{1,2}分?)?)?(?<=[\d点半分天日晚]))\s?(?:前|之前|以前)/y;
const DEADLINE_SPAN = /([\d一二三四五六七八九十两]{1,3}(?:天|日|个工作日|小时))(?:内|之内|以内)(?=[^免]{0,4}(?:取|领))/y;
const DEADLINE_START = /(?:请于|请在|请|于|在|今天|今日|今晚|明天|明日|当天|当日|本日|上午|下午|晚上|中午|早上|\d|[一二三四五六七八九十](?=[一二三四五六七八九十]{0,2}点))/g;

/** The first deadline the message states, as written (spaces dropped), or null. One pass, bounded windows. */
export function readDeadline(body: string): string | null {
  let lastEnd = -1;
  for (const match of body.matchAll(DEADLINE_START)) {
    const at = match.index!;
    if (at < lastEnd) continue;
    // A number inside a longer one (a phone, a code) starts no deadline.
    if (/\d/.test(match[0]) && /[\dA-Za-z-]/.test(body[at - 1] ?? "")) continue;
    DEADLINE_SPAN.lastIndex = at;
    const span = DEADLINE_SPAN.exec(body);
    if (span) return span[1]! + "内";
    DEADLINE_AT.lastIndex = at;
    const point = DEADLINE_AT.exec(body);
    if (point && point[1] && /\d|今|明|当|本|点/.test(point[1]) && !/^\d{1,2}$/.test(point[1].trim())) return point[1].replace(/\s/g, "").replace("：", ":") + "前";
    lastEnd = at + 1;
  }
  return null;
}

// The recipient's phone tail: "收件人手机尾号1234", "您手机号尾号为1234的包裹". A bare 尾号 is the
// tracking number's ("运单尾号6017"), and "请报手机尾号取件" names no digits.
const PHONE_TAIL = /(?:手机|电话|收件人)号?码?尾号(?:为|是)?[:：]?\s?(\d{4})(?!\d)/;

/** The phone tail a message states for its recipient, or null. */
export function readPhoneTail(body: string): string | null {
  return PHONE_TAIL.exec(body)?.[1] ?? null;
}

/**
 * The first carrier the body names, unless it is inside the place's name ("已到韵达西区驿站",
 * "中通快递菜鸟驿站"): that one is the station's, and yields to a carrier in the signature tag.
 */
function carrierOutsidePlace(body: string, mentions: Mention[], station: string | null): string | null {
  const first = mentions[0];
  if (!first) return null;
  const at = station ? body.indexOf(station) : -1;
  return at >= 0 && first.index >= at && first.index < at + station!.length ? null : first.name;
}

/** One SMS → its parcels (none for anything that is not a pickup notice). */
export function parseMessage(rawMessage: string, neighbourCarrier: string | null = null): ParsedPickup[] {
  return parseNormalized(normalizeText(rawMessage), neighbourCarrier);
}

function parseNormalized(normalized: string, neighbourCarrier: string | null): ParsedPickup[] {
  const message = normalized.includes("/") ? normalized.replace(URL_RE, " ") : normalized;
  const { tags, body } = splitTags(message);
  const mentions = carrierMentions(body);
  const bodyCarrier = mentions[0]?.name ?? unknownCarrier(body);
  if (!PICKUP_CONTEXT.test(body) && !bodyCarrier && !tags.brand && !tags.carrier) return [];
  if (PICKED_UP.test(body)) return [];
  if (ONE_TIME_CODE.test(body) && !CODE_CONTEXT.test(body)) return [];

  const codes = findCodes(body);
  if (codes.length === 0 && (IN_TRANSIT.test(body) || SIGNED.test(body))) return [];

  const stationName = stationAfterLocative(body) ?? stationAfterAddress(body) ?? NETWORK_STORE_LINE.exec(body)?.[1]?.trim() ?? stationByClause(body);
  const fallback = carrierOutsidePlace(body, mentions, stationName) ?? tags.carrier ?? bodyCarrier ?? neighbourCarrier ?? tags.brand ?? tags.sender ?? null;
  const deadline = readDeadline(body);
  const tail = readPhoneTail(body);
  const phoneTail = tail ? { phoneTail: tail } : {};
  const inCodes = new Set(codes.map((hit) => hit.tracking).filter(Boolean));
  const trackingNumbers = [...new Set(findTrackingNumbers(body).map((found) => found.value))].filter((value) => !inCodes.has(value));

  if (codes.length > 0) {
    const carriers = carriersOfCodes(body, codes, fallback);
    const stations = stationsOfCodes(body, codes, stationName);
    // Tracking numbers outside the codes' own brackets go to the codes still without one, in order.
    const spare = [...trackingNumbers];
    const withoutOwn = codes.filter((hit) => !hit.tracking).length;
    return codes.map((hit, i) => ({
      company: carriers[i] ?? fallback,
      trackingNumber: hit.tracking ?? (withoutOwn === 1 || spare.length === withoutOwn ? spare.shift() ?? null : null),
      pickupCode: hit.code,
      stationName: stations[i] ?? stationName,
      pickupType: "code" as const,
      deadline,
      ...phoneTail,
    }));
  }
  const byTracking = (trackingNumber: string) => ({
    company: fallback,
    trackingNumber,
    pickupCode: null,
    stationName,
    pickupType: "tracking" as const,
    deadline,
    ...phoneTail,
  });
  // A waybill-long number where the code stands ("取件码773…", "凭4321…到"): no code is taken
  // from it; it is the parcel's tracking number, and the student checks the entry before ordering.
  const misplaced = trackingInCodePlace(body);
  if (misplaced.length > 0) return misplaced.map((trackingNumber) => ({ ...byTracking(trackingNumber), check: "long-number" as const }));
  // Tracking only: the place must be one to pick up from (a station, a locker…) or the text must
  // say to pick it up; a depot on the way ("到达杭州西湖区营业部") is a logistics update.
  if (stationName && trackingNumbers.length > 0 && (PICKUP_VERB.test(body) || PICKUP_PLACE.test(stationName))) {
    return trackingNumbers.map((trackingNumber) => byTracking(trackingNumber));
  }
  return [];
}

/** A paste of any number of SMS → every parcel, in order of appearance. */
export function parsePickupSms(text: string): ParsedPickup[] {
  if (!text || !text.trim()) return [];
  const parcels: ParsedPickup[] = [];
  for (const block of splitBlocks(text)) {
    // Messages pasted without a blank line between them read as one text: a message that names
    // no carrier takes the first one named in the others.
    const neighbour = block.length > 1 ? carrierMentions(block.join("\n"))[0]?.name ?? null : null;
    for (const message of block) parcels.push(...parseNormalized(message, neighbour));
  }
  return parcels;
}

function escapeRegex(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
