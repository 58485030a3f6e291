#!/usr/bin/env node
// Writes tests/fixtures/pickup-sms-corpus.json: labelled pickup-SMS pastes in the real formats of
// the carriers and stations students see, labelled by the conventions of
// docs/product-rules.md ("Pickup SMS labels"). The labels come from how each text is composed (which carrier the
// body names first, which place follows the first locative verb), never from the parser.
// Deterministic (seeded), so the file only changes when this script does.
//
//   node scripts/corpus/generate-pickup-corpus.mjs            # writes the fixture
//   node scripts/corpus/generate-pickup-corpus.mjs --seed 7 --out /tmp/x.json   # a fresh sample
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const arg = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const out = arg("out", path.join(root, "tests/fixtures/pickup-sms-corpus.json"));
let seed = Number(arg("seed", 20261126)) >>> 0;

function random() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];
const chance = (p) => random() < p;
const int = (low, high) => low + Math.floor(random() * (high - low + 1));
const digits = (n) => Array.from({ length: n }, () => int(0, 9)).join("");
const letter = () => pick("ABCDEFGHJKLMNPQRSTUVWXYZ".split(""));

// ---------------------------------------------------------------------------------------------
// Carriers: the name of the conventions, the spellings a body uses, tracking-number shapes.
const CARRIERS = [
  { name: "中通快递", forms: ["中通快递", "中通"], tracking: () => `7${pick(["3", "5", "8"])}${digits(12)}` },
  { name: "韵达快递", forms: ["韵达快递", "韵达"], tracking: () => `43${digits(13)}` },
  { name: "申通快递", forms: ["申通快递", "申通"], tracking: () => `77${digits(13)}` },
  { name: "圆通速递", forms: ["圆通速递", "圆通快递", "圆通"], tracking: () => `YT${digits(13)}` },
  { name: "顺丰速运", forms: ["顺丰速运", "顺丰"], tracking: () => `SF${digits(13)}` },
  { name: "京东快递", forms: ["京东快递", "京东"], tracking: () => pick([`JD${digits(13)}`, `JDVC${digits(11)}`, `JDX${digits(12)}`]) },
  { name: "极兔速递", forms: ["极兔速递", "极兔"], tracking: () => `JT${digits(13)}` },
  { name: "邮政EMS", forms: ["邮政EMS", "邮政快递", "EMS", "中国邮政"], tracking: () => pick([`11${digits(11)}`, `98${digits(11)}`, `E${letter()}${digits(9)}CN`]) },
  { name: "德邦快递", forms: ["德邦快递", "德邦"], tracking: () => `DPK${digits(12)}` },
  { name: "百世快递", forms: ["百世快递", "百世"], tracking: () => `55${digits(12)}` },
];
const carrier = (name) => CARRIERS.find((c) => c.name === name);

const PLACES = [
  "东区", "西苑", "南门", "北校区", "梅园3栋", "桂园", "学府路", "松园路", "紫荆公寓", "丁香苑", "荷园", "一食堂旁", "图书馆北侧",
  "体育馆东门", "17号楼", "研究生公寓", "湖滨小区", "锦绣花园", "翠竹苑", "银杏大道", "创新港", "大学城北", "文华路", "望江楼",
  "明德楼", "桃李园", "求是村", "长青苑", "博雅园", "枫林小区", "新华街", "和平里", "青年公寓", "实验楼西", "二号门",
];
const CAMPUSES = ["北校区", "南校区", "紫金港校区", "本部", "东校区", "新校区", "仙林校区", "江湾校区"];
const SCHOOLS = ["华中科大", "南开大学", "浙江大学", "东南大学", "川大", "中山大学", "理工学院", "师范大学"];
const SHOPS = ["好邻居", "美宜佳", "华联", "苏果", "百家惠", "校园", "喜士多", "联华"];

// ---------------------------------------------------------------------------------------------
// Codes
const shelf = () => `${int(1, 20)}-${int(1, 6)}-${digits(int(0, 3) === 0 ? 3 : 4)}`;
const codeShapes = {
  shelf,
  letterShelf: () => pick([`${letter()}${int(1, 9)}-${int(1, 6)}-${digits(4)}`, `${letter()}-${int(1, 12)}-${digits(int(3, 4))}`, `${letter()}${digits(2)}-${digits(4)}`]),
  letter: () => `${letter()}${int(1, 9)}${digits(int(1, 2))}`,
  locker8: () => `${int(1, 9)}${digits(7)}`,
  locker6: () => `${int(1, 9)}${digits(5)}`,
  short: () => `${int(1, 9)}${digits(3)}`,
};

// ---------------------------------------------------------------------------------------------
// Stations: tag(s) the sender signs with, the place, the code shape; `carrierInName` when the
// place itself names a carrier (a body mention by the conventions).
const STATIONS = [
  { key: "cainiao", tags: [["菜鸟驿站", "菜鸟驿站"], ["菜鸟", "菜鸟"]], place: (p) => pick([`${p}菜鸟驿站`, `菜鸟驿站(${p}店)`, `${p}驿站`]), codes: ["shelf", "shelf", "letterShelf"] },
  { key: "fengchao", tags: [["丰巢", "丰巢"], ["丰巢智能柜", "丰巢"], ["丰巢快递柜", "丰巢"]], place: (p) => pick([`${p}丰巢柜`, `${p}丰巢智能柜`, `${p}${int(1, 9)}号丰巢柜`]), codes: ["locker8"] },
  { key: "tuxi", tags: [["兔喜生活", "兔喜生活"]], place: (p) => pick([`${p}兔喜快递超市`, `兔喜生活(${p}店)`]), codes: ["shelf", "letterShelf"] },
  { key: "mama", tags: [["妈妈驿站", "妈妈驿站"]], place: (p) => `${p}妈妈驿站`, codes: ["shelf"] },
  { key: "duoduo", tags: [["多多驿站", "多多驿站"]], place: (p) => pick([`多多驿站(${p}店)`, `${p}多多驿站`]), codes: ["shelf", "locker6"] },
  { key: "jinlinbao", tags: [["近邻宝", "近邻宝"]], place: (p) => pick([`${p}近邻宝`, `近邻宝(${p})`, `${p}近邻宝${int(1, 9)}号柜`]), codes: ["locker8", "locker6"], keyword: ["密码", "取件密码", "取件码"] },
  { key: "xiongmao", tags: [["熊猫快收", "熊猫快收"]], place: (p) => pick([`熊猫快收(${p}店)`, `${p}熊猫快收`]), codes: ["letterShelf", "shelf"] },
  { key: "suduyi", tags: [["速递易", "速递易"]], place: (p) => `${p}速递易快递柜`, codes: ["locker6", "locker8"], keyword: ["开箱码", "取件码", "开箱密码"] },
  { key: "jdlocker", tags: [["京东快递", null], ["京东", null]], carrierInName: "京东快递", place: (p) => pick([`${p}京东自提柜`, `京东自提柜(${p})`]), codes: ["locker6", "locker8"], keyword: ["提货码", "取件码"] },
  { key: "jdstation", tags: [["京东便民站", null], ["京东快递", null]], carrierInName: "京东快递", place: (p) => pick([`${p}京东便民站`, `京东便民站(${p}店)`]), codes: ["locker6"], keyword: ["提货码", "取件码"] },
  { key: "sflocker", tags: [["顺丰速运", null]], carrierInName: "顺丰速运", place: (p) => pick([`${p}顺丰智能柜`, `${p}顺丰丰巢柜`, `顺丰自助柜(${p})`]), codes: ["locker8"] },
  { key: "zhongyou", tags: [["中邮驿站", "中邮驿站"]], place: (p) => `${p}中邮驿站`, codes: ["shelf", "short"] },
  { key: "post", tags: [["中国邮政", null], ["邮政EMS", null]], carrierInName: "邮政EMS", place: (p) => pick([`${p}邮政所`, `${p}邮政营业厅`]), codes: ["short"] },
  { key: "school", tags: [[null, null]], place: () => pick([`${pick(CAMPUSES)}快递中心`, `${pick(CAMPUSES)}快递服务站`, `${pick(CAMPUSES)}收发室`, `${pick(PLACES)}快递服务中心`]), codes: ["shelf", "letterShelf"], keyword: ["货号", "取件码"], schoolTag: true },
  { key: "shop", tags: [[null, null]], place: (p) => `${p}${pick(SHOPS)}超市${pick(["代收点", "", "快递代收点"])}`, codes: ["letter", "short"], shopTag: true },
  { key: "ztstore", tags: [["中通快递", null]], carrierInName: "中通快递", place: (p) => `${p}中通快递超市`, codes: ["shelf"] },
  { key: "ydstore", tags: [["韵达快递", null]], carrierInName: "韵达快递", place: (p) => pick([`${p}韵达驿站`, `韵达超市(${p}店)`]), codes: ["shelf"] },
  { key: "plain", tags: [[null, null]], place: (p) => pick([`${p}快递柜`, `${p}${int(2, 20)}栋快递柜`, `${p}门卫室`, `${p}快递点`]), codes: ["locker8", "short"], untagged: true },
];

const TAG_CARRIER = { 京东快递: "京东快递", 京东: "京东快递", 京东便民站: "京东快递", 顺丰速运: "顺丰速运", 中国邮政: "邮政EMS", 邮政EMS: "邮政EMS", 中通快递: "中通快递", 韵达快递: "韵达快递" };

function chooseTag(station) {
  if (station.untagged) return { text: "", carrier: null, brand: null };
  if (station.schoolTag) {
    const name = pick([`${pick(SCHOOLS)}快递中心`, `${pick(SCHOOLS)}后勤服务中心`, `${pick(SCHOOLS)}${pick(CAMPUSES)}快递服务站`]);
    return chance(0.8) ? { text: `【${name}】`, carrier: null, brand: null } : { text: "", carrier: null, brand: null };
  }
  if (station.shopTag) return { text: `【${pick(SHOPS)}超市】`, carrier: null, brand: null };
  const [tag, brand] = pick(station.tags);
  return { text: `【${tag}】`, carrier: TAG_CARRIER[tag] ?? null, brand };
}

// ---------------------------------------------------------------------------------------------
// One SMS. Every builder returns { tag, body, station, parcels: [{code, tracking, carrierOwn}] };
// `label` computes the expected entries from them by the conventions.

const DEFAULT_KEYWORDS = ["取件码", "取件码", "取货码", "取件码为", "取件码：", "取件码是"];
const TIMES = ["20:00", "21:30", "18:00", "22:00", "19:30"];
const EXTRAS_AFTER = [
  "", "", "", "请及时取件。", "营业时间8:00-21:00。", `驿站电话0571-${digits(8)}。`, `咨询电话0${int(20, 99)}${digits(8)}。`, `站点电话0${int(100, 999)}${digits(8)}。`,
  `如有疑问请联系1${pick(["38", "39", "58", "77", "86"])}${digits(8)}。`, "回T退订", "超时将收取保管费。", "请在24小时内取件。",
  "逾期将退回。", `寄快递5元起 https://t.cn/A6${digits(5)} 回TD退订`, "请勿将取件码告诉他人。", "营业至21:00。", "工作日9:00-18:00营业。",
];

function parcelPhrase(mentionCarrier) {
  if (!mentionCarrier) return pick(["您的包裹", "您的快件", "您的快递", "你的包裹", "您有包裹", "您的订单包裹"]);
  const form = pick(carrier(mentionCarrier).forms);
  return pick([`您的${form}包裹`, `您的${form}快件`, `您的${form}`, `你的${form}包裹`, `您有一个${form}包裹`]);
}

function codeWord(station) {
  return pick(station.keyword ?? DEFAULT_KEYWORDS);
}

function wrapCode(code) {
  return pick([` ${code}`, code, ` ${code} `, `『${code}』`, `【${code}】`, code]);
}

/** A single SMS of one station. */
function single(station, opts = {}) {
  const place = station.place(pick(PLACES));
  const tag = chooseTag(station);
  const codeCount = opts.codes ?? 1;
  const shape = pick(station.codes);
  const codes = [];
  while (codes.length < codeCount) {
    const code = codeShapes[shape]();
    if (!codes.includes(code)) codes.push(code);
  }
  // A carrier named in the body (or not), before the place or after it.
  const named = opts.noCarrier ? null : chance(0.6) ? pick(CARRIERS).name : null;
  const withTracking = !opts.noTracking && chance(0.25) && codeCount === 1;
  const trackingCarrier = named ?? station.carrierInName ?? tag.carrier ?? pick(CARRIERS).name;
  const tracking = withTracking ? carrier(trackingCarrier).tracking() : null;
  const kw = codeWord(station);
  const codeList = codes.length === 1 ? wrapCode(codes[0]) : ` ${codes.join(pick(["、", "，", "、", " 、", ", "]))}`;
  const kwList = codes.length === 1 ? kw : pick(["取件码分别为", "取件码分别是", "取件码", "取件码为", "取货码"]);
  const extra = pick(EXTRAS_AFTER);
  const tr = tracking ? pick([`运单号${tracking}`, `运单号：${tracking}`, `快递单号 ${tracking}`]) : "";
  const many = codes.length > 1 ? `${pick(["您有", "您的"])}${codes.length}个包裹` : null;
  const parcel = many ?? parcelPhrase(named);
  const verb = pick(["已到达", "已到", "已存入", "已放入", "已放至", "已送达", "已送至", "已放在"]);
  const carrierSuffix = named && !opts.noCarrier ? pick(carrier(named).forms) : null;
  let text;
  const form = int(1, 9);
  if (form === 1) text = `${parcel}${verb}${place}，${kwList}${codeList}，${pick(["请及时取件。", "请凭码取件。", `请于今日${pick(TIMES)}前取件。`, "请尽快领取。", ""])}${tr ? tr + "。" : ""}${extra}`;
  else if (form === 2) text = `${kwList}${codeList}，${parcel}${verb}${place}，${tr ? tr + "，" : ""}${extra || "请及时领取。"}`;
  else if (form === 3 && codes.length === 1) {
    // 请凭<code>至<place>取<carrier>的包裹
    text = `请凭${pick(["", "取件码"])}${wrapCode(codes[0])}${pick(["至", "到"])}${place}取${carrierSuffix ? `${carrierSuffix}的` : ""}${pick(["包裹", "件", "快递"])}。${tr ? tr + "。" : ""}${extra}`;
  } else if (form === 4) {
    // the place after 地址: following an exclamation
    text = `${parcel}${pick(["到站啦！", "已到站！", "已到站，", "到啦！"])}${kwList}${codeList}，${pick(["地址：", "地址:", "取件地址："])}${place}。${tr ? tr + "。" : ""}${extra}`;
  } else if (form === 5) {
    text = `${many ? `您有${codes.length}个${carrierSuffix ? `${carrierSuffix}` : ""}包裹` : `您有${carrierSuffix ? `${carrierSuffix}` : ""}包裹`}在${place}${pick(["待取", "待领取", "未取"])}，${kwList}${codeList}。${extra}`;
  } else if (form === 6 && codes.length === 1) {
    text = `${parcel}${verb}${place}，请${pick([`在今天${pick(TIMES)}前`, `于${pick(TIMES)}前`, ""])}凭${wrapCode(codes[0])}取件。${tr ? tr + "。" : ""}${extra}`;
  } else if (form === 7 && tracking) {
    text = `${parcel.replace(/包裹$|快件$/, "")}${pick(["包裹", "快件"])}${tracking}${verb}${place}，${kwList}${codeList}。${extra}`;
  } else if (form === 8) {
    text = `${pick(["同学你好，", "亲，", "尊敬的客户，", ""])}${parcel}${verb}${place}，${pick(["凭", "请凭"])}${kwList === "取件码" ? "取件码" : kw}${codeList}${pick(["领取", "取件", "取货"])}。${tr ? tr + "。" : ""}${extra}`;
  } else {
    text = `${parcel}${verb}${place}，${kwList}${codeList}，${tr ? tr + "，" : ""}${pick(["请凭码取件。", "请尽快取件。", "请及时领取。"])}${extra}`;
  }
  const usesTracking = tracking && text.includes(tracking);
  // A carrier named in the extras would change the first mention: the extras name none.
  return {
    tag,
    tagAtEnd: !tag.text ? false : chance(0.12),
    squareTag: chance(0.08),
    body: text,
    station: place,
    parcels: codes.map((code) => ({ code, tracking: usesTracking ? tracking : null })),
  };
}

/** A tracking-only notice: a full number, a place and a word of picking up, no code. */
function trackingOnly(station) {
  const place = station.place(pick(PLACES));
  const tag = chooseTag(station);
  const named = chance(0.5) ? pick(CARRIERS).name : null;
  const trackingCarrier = named ?? station.carrierInName ?? tag.carrier ?? "中通快递";
  const tracking = carrier(trackingCarrier).tracking();
  const phrase = named ? `您的${pick(carrier(named).forms)}${pick(["快件", "包裹"])}` : pick(["您的快件", "您的包裹", "您的邮件"]);
  const how = pick(["请报手机尾号取件。", "请携带身份证领取。", "请凭身份证领取。", "请报取件人姓名和手机号后四位取件。", "请凭运单号领取。", "请到店自提。", "", "感谢使用。"]);
  const body = pick([
    `${phrase}${tracking}已到达${place}，${how}`,
    `${phrase}(运单号${tracking})已${pick(["到达", "存入", "送至"])}${place}，${how}`,
    `单号${tracking}的${named ? pick(carrier(named).forms) : ""}包裹已到达${place}，${how}`,
  ]);
  return { tag, tagAtEnd: false, body, station: place, parcels: [{ code: null, tracking }] };
}

/** A message listing several parcels, the carrier of each on its own line (or in brackets). */
function perCarrierList(station) {
  const place = station.place(pick(PLACES));
  const tag = chooseTag(station);
  const count = int(2, 4);
  const carriers = Array.from({ length: count }, () => pick(CARRIERS).name);
  const codes = carriers.map(() => codeShapes[pick(station.codes)]());
  const style = int(1, 3);
  let body;
  if (style === 1) {
    body = `您有${count}个包裹已到达${place}：\n${carriers.map((c, i) => `${pick(carrier(c).forms)} ${pick(["取件码", "取件码：", ""])}${codes[i]}`).join("\n")}`;
  } else if (style === 2) {
    body = `您有${count}件快递在${place}待取：${pick(["取件码", "取件码分别为"])} ${carriers.map((c, i) => `${codes[i]}(${pick(carrier(c).forms)})`).join("、")}，请尽快领取。`;
  } else {
    body = `您在${place}有${count}个包裹：\n${carriers.map((c, i) => `${i + 1}. ${pick(carrier(c).forms)}，取件码 ${codes[i]}`).join("\n")}\n请凭码取件。`;
  }
  return { tag, tagAtEnd: false, body, station: place, parcels: codes.map((code, i) => ({ code, tracking: null, carrierOwn: carriers[i] })) };
}

// ---------------------------------------------------------------------------------------------
// Messages that are not pickup notices.
function notPickup() {
  const tr = pick(CARRIERS).tracking();
  const phone = `1${pick(["38", "39", "58", "77", "86", "35"])}${digits(8)}`;
  return pick([
    () => `【${pick(["建设银行", "招商银行", "工商银行", "农业银行", "中国银行"])}】您的验证码为 ${digits(6)}，用于${pick(["网上银行登录", "快捷支付", "转账"])}，${int(2, 10)}分钟内有效，请勿泄露。`,
    () => `【${pick(["支付宝", "微信支付", "淘宝", "美团"])}】${pick(["验证码", "校验码", "动态码"])}${digits(6)}，您正在${pick(["登录", "修改密码", "绑定手机"])}，请勿告诉他人。`,
    () => `【${pick(["丰巢", "菜鸟"])}】您的验证码是${digits(6)}，用于登录${pick(["丰巢APP", "菜鸟APP", "小程序"])}，请勿泄露。`,
    () => `【${pick(CARRIERS).name}】您的快件${tr}正在派送中，派送员${pick(["刘", "王", "张", "李"])}师傅${pick([`(${phone})`, ` ${phone}`, `，电话${phone}`])}将尽快为您送达，请保持电话畅通。`,
    () => `【${pick(CARRIERS).name}】您的快件正在派送途中，快递员电话${phone}，预计${pick(["今天", "明天"])}${pick(["18:00", "下午"])}前送达。`,
    () => `【${pick(CARRIERS).name}】您的快件${tr}已签收，签收人：${pick(["本人", "前台", "门卫", "驿站代收"])}，感谢使用。`,
    () => `【${pick(["菜鸟驿站", "兔喜生活", "妈妈驿站"])}】您在${pick(PLACES)}驿站的包裹已于${int(1, 12)}月${int(1, 28)}日${int(8, 21)}:${digits(1)}${int(0, 9)}被取走，如非本人操作请联系 0571-${digits(8)}。`,
    () => `【菜鸟驿站】您的包裹 ${shelf()} 已取件成功，感谢使用，欢迎评价。`,
    () => `【${pick(["京东", "淘宝", "拼多多"])}】您的订单已发货，${pick(CARRIERS).name}运单号${tr}，预计${pick(["后天", "明天", "3天内"])}送达。`,
    () => `【${pick(CARRIERS).name}】您的快件${tr}已到达【${pick(["杭州", "武汉", "成都", "广州"])}转运中心】，正在发往【${pick(PLACES)}网点】。`,
    () => `【${pick(CARRIERS).name}】您的快件${tr}已到达${pick(["杭州市西湖区", "武汉市洪山区", "长沙市岳麓区"])}${pick(["文三路营业部", "派送站", "分部"])}，请耐心等待派送。`,
    () => `【${pick(["菜鸟", "丰巢", "兔喜生活"])}】${pick(["新人寄件首单立减3元", "会员5折开通", "寄快递领红包"])}，戳 https://t.cn/A6${digits(5)} 领取，回T退订`,
    () => `【丰巢】寄快递首单立减5元，领券码 ${letter()}${digits(4)}，回T退订`,
    () => `【美团外卖】您的外卖已送达${pick(PLACES)}，骑手电话${phone}，祝您用餐愉快。`,
    () => `【中国移动】您本月话费余额${int(1, 50)}.${digits(2)}元，请及时充值。客服热线10086。`,
    () => `【${pick(["教务处", "图书馆"])}】您借阅的图书将于${int(1, 12)}月${int(1, 28)}日到期，请在${pick(PLACES)}还书处归还。`,
    () => `【${pick(CARRIERS).name}】快递员已取件，运单号${tr}，可在小程序查看物流。`,
    () => `【${pick(CARRIERS).name}】您的快件${tr}因地址不详已退回，如有疑问请致电95${digits(3)}。`,
    () => `【${pick(["瑞幸咖啡", "喜茶", "麦当劳", "蜜雪冰城"])}】您的取餐码 ${letter()}${digits(3)}，请凭${letter()}${digits(3)}到${pick(PLACES)}店取餐。`,
    () => `【铁路12306】订单E${digits(9)}，您已购${int(1, 12)}月${int(1, 28)}日G${digits(4)}次${int(1, 16)}车${int(1, 20)}${pick("ABCDF".split(""))}号，请凭身份证乘车。`,
    () => `【菜鸟】您正在登录菜鸟裹裹查看包裹，验证码 ${digits(6)}，5分钟内有效。`,
    () => `【${pick(CARRIERS).name}】您的包裹即将到达${pick(PLACES)}驿站，到站后将短信通知取件码，请留意。`,
    () => `【${pick(["菜鸟驿站", "妈妈驿站", "多多驿站"])}】您的包裹(取件码${shelf()})已被取出，如非本人操作请致电0${int(100, 999)}${digits(8)}。`,
    () => `【${pick(CARRIERS).name}】快递员${pick(["王", "张"])}师傅正在为您派送，联系电话0${int(100, 999)}-${digits(8)}，请保持电话畅通。`,
  ])();
}

// ---------------------------------------------------------------------------------------------
// Full-width rendering of a text (labels stay normalised).
function fullWidth(text) {
  return text.replace(/[0-9A-Za-z:()\-]/g, (ch) => (ch === "-" ? pick(["－", "—", "–", "-"]) : String.fromCharCode(ch.charCodeAt(0) + 0xfee0)));
}

// ---------------------------------------------------------------------------------------------
// Labels by the conventions.
function render(sms) {
  if (!sms.tag?.text) return sms.body;
  // Some phones copy the signature in ASCII brackets.
  const tag = sms.squareTag ? sms.tag.text.replace(/【/g, "[").replace(/】/g, "]") : sms.tag.text;
  return sms.tagAtEnd ? `${sms.body}${tag}` : `${tag}${sms.body}`;
}

// Every spelling the conventions count as a carrier ("a short form such as 中通 counts").
const SPELLINGS = CARRIERS.flatMap((c) => [...c.forms, c.name, ...(c.name === "邮政EMS" ? ["邮政"] : [])].map((form) => [form, c.name]))
  .sort((a, b) => b[0].length - a[0].length);

/** The first carrier a text names (by position, the longest spelling at that position). */
function firstCarrier(text) {
  let best = null;
  for (const [form, name] of SPELLINGS) {
    const index = text.indexOf(form);
    if (index >= 0 && (best === null || index < best.index)) best = { index, name };
  }
  return best?.name ?? null;
}

function label(sms, neighbour) {
  const fallback = firstCarrier(sms.body) ?? sms.tag.carrier ?? neighbour ?? sms.tag.brand ?? null;
  return sms.parcels.map((parcel) => ({
    pickupCode: parcel.code,
    company: parcel.carrierOwn ?? fallback,
    stationName: sms.station,
    trackingNumber: parcel.tracking,
  }));
}

const normalize = (value) => (value === null ? null : value.normalize("NFKC").replace(/[\u2010-\u2015\uFF0D]/g, "-"));
const normalizeEntry = (entry) => Object.fromEntries(Object.entries(entry).map(([key, value]) => [key, normalize(value)]));

const cases = [];
const add = (id, text, expected) => cases.push({ id, text, expected: expected.map(normalizeEntry) });

// Singles per station and per format.
let n = 0;
for (const station of STATIONS) {
  for (let i = 0; i < 9; i += 1) {
    const sms = single(station);
    add(`single-${station.key}-${++n}`, render(sms), label(sms, null));
  }
}
// Several codes in one SMS.
for (let i = 0; i < 24; i += 1) {
  const sms = single(pick(STATIONS.filter((s) => !s.untagged)), { codes: int(2, 3) });
  add(`multicode-${i + 1}`, render(sms), label(sms, null));
}
// Per-carrier lists.
for (let i = 0; i < 14; i += 1) {
  const sms = perCarrierList(pick(STATIONS.filter((s) => ["cainiao", "tuxi", "mama", "duoduo", "school", "xiongmao"].includes(s.key))));
  add(`carrier-list-${i + 1}`, render(sms), label(sms, null));
}
// Tracking-only notices.
for (let i = 0; i < 20; i += 1) {
  const sms = trackingOnly(pick(STATIONS));
  add(`tracking-only-${i + 1}`, render(sms), label(sms, null));
}
// Full-width texts.
for (let i = 0; i < 20; i += 1) {
  const sms = single(pick(STATIONS));
  add(`fullwidth-${i + 1}`, fullWidth(render(sms)), label(sms, null));
}
// A second signature tag: a carrier tag after a station tag.
for (let i = 0; i < 10; i += 1) {
  const station = pick(STATIONS.filter((s) => ["cainiao", "tuxi", "mama", "duoduo", "fengchao"].includes(s.key)));
  const sms = single(station, { noCarrier: true });
  const second = pick(CARRIERS);
  sms.tag = { text: `${sms.tag.text}【${second.name}】`, carrier: second.name, brand: sms.tag.brand };
  sms.tagAtEnd = false;
  add(`second-tag-${i + 1}`, render(sms), label(sms, null));
}
// Shapes of the same notices: a time span before the place, the tag on its own line, the
// signature on its own line at the end, a list joined by 和, phone numbers next to the code.
for (let i = 0; i < 30; i += 1) {
  const station = pick(STATIONS.filter((s) => !s.untagged));
  const place = station.place(pick(PLACES));
  const tag = chooseTag(station);
  const code = codeShapes[pick(station.codes)]();
  const named = chance(0.5) ? pick(CARRIERS).name : null;
  const parcel = parcelPhrase(named);
  const phone = pick([`0${int(100, 999)}-${digits(8)}`, `0${int(100, 999)}${digits(8)}`, `1${pick(["38", "58", "86"])}${digits(8)}`]);
  const variant = i % 5;
  let body;
  let codes = [code];
  if (variant === 0) body = `${parcel}已到站，请${pick(["在一周内", "在3天内", "于今日20:00前", "在保管期内", "在营业时间内"])}到${place}凭${pick(station.keyword ?? ["取件码"])} ${code} 取件。`;
  else if (variant === 1) body = `${parcel}已到达${place}，取件码 ${code}，驿站电话${phone}。`;
  else if (variant === 2) {
    const second = codeShapes[pick(station.codes)]();
    codes = second === code ? [code] : [code, second];
    body = `您有${codes.length}个包裹已到${place}，取件码 ${codes.join(" 和 ")}，请尽快领取。`;
  } else if (variant === 3) body = `${parcel}已放入${place}，凭 ${code} 取件，有问题请联系${phone}`;
  else body = `${parcel}已送达${place}，取件码：${code}，咨询电话：${phone}，回T退订`;
  const sms = { tag, tagAtEnd: false, body, station: place, parcels: codes.map((c) => ({ code: c, tracking: null })) };
  let text = render(sms);
  if (tag.text && i % 3 === 0) text = `${tag.text}\n${body}`;
  else if (tag.text && i % 3 === 1) text = `${body}\n${tag.text}`;
  add(`shape-${i + 1}`, text, label(sms, null));
}
// Untagged notices one per line (a forwarded list), each naming its place.
for (let i = 0; i < 8; i += 1) {
  const lines = [];
  const expected = [];
  for (let j = 0; j < int(2, 3); j += 1) {
    const station = STATIONS.find((s) => s.key === "plain");
    const sms = single(station, { noTracking: true });
    lines.push({ sms, text: sms.body });
  }
  const neighbour = firstCarrier(lines.map((line) => line.text).join("\n"));
  for (const line of lines) expected.push(...label(line.sms, neighbour));
  add(`paste-untagged-lines-${i + 1}`, lines.map((line) => line.text).join("\n"), expected);
}
// Not pickup notices.
for (let i = 0; i < 60; i += 1) add(`not-pickup-${i + 1}`, notPickup(), []);
// Pastes: 2–4 SMS with blank lines, timestamps, or one per line (then a message naming no
// carrier takes the first carrier of the others), mixed with messages that are not notices.
for (let i = 0; i < 45; i += 1) {
  const count = int(2, 4);
  const separator = pick(["blank", "blank", "timestamp", "line", "inline-time"]);
  const parts = [];
  for (let j = 0; j < count; j += 1) {
    if (separator !== "line" && chance(0.25)) parts.push({ text: notPickup(), sms: null });
    else {
      const sms = chance(0.15) ? trackingOnly(pick(STATIONS.filter((s) => !s.untagged))) : single(pick(STATIONS.filter((s) => !s.untagged)), { codes: chance(0.15) ? 2 : 1 });
      sms.tagAtEnd = false;
      parts.push({ text: render(sms), sms });
    }
  }
  const expected = [];
  let neighbour = null;
  if (separator === "line") {
    // The first carrier named anywhere in the block, tags included, in text order.
    neighbour = firstCarrier(parts.map((part) => part.text).join("\n"));
  }
  for (const part of parts) if (part.sms) expected.push(...label(part.sms, neighbour));
  let text = "";
  parts.forEach((part, j) => {
    if (j > 0) text += separator === "blank" ? "\n\n" : separator === "line" ? "\n" : "\n";
    if (separator === "timestamp" || separator === "inline-time") {
      text += `${pick([`${int(1, 12)}月${int(1, 28)}日 `, "昨天 ", "今天 ", ""])}${String(int(7, 22)).padStart(2, "0")}:${digits(2).replace(/^[6-9]/, "3")}${separator === "timestamp" ? "\n" : " "}`;
    }
    text += part.text;
  });
  add(`paste-${separator}-${i + 1}`, text, expected);
}

fs.writeFileSync(out, `${JSON.stringify(cases, null, 1)}\n`);
console.log(`${cases.length} cases, ${cases.reduce((sum, c) => sum + c.expected.length, 0)} parcels → ${path.relative(process.cwd(), out)}`);
