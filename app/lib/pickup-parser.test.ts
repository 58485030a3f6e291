import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { normalizeText, parseMessage, parsePickupSms, splitMessages } from "./pickup-parser";

// The product samples, labelled with company = the carrier (docs/product-rules.md "Pickup SMS labels").
const local = path.resolve(__dirname, "../../tests/fixtures/pickup-sms-samples.json");
type Expected = { pickupCode: string | null; company: string | null; stationName: string | null; trackingNumber: string | null };
const samples: { id: string; text: string; expected: Expected[] }[] = JSON.parse(
  fs.readFileSync(local, "utf8"),
);

const fields = (text: string) =>
  parsePickupSms(text).map(({ pickupCode, company, stationName, trackingNumber }) => ({ pickupCode, company, stationName, trackingNumber }));

describe("the product pickup-SMS samples: every field of every case", () => {
  it.each(samples.map((sample) => [sample.id, sample] as const))("%s", (_id, sample) => {
    expect(fields(sample.text)).toEqual(sample.expected);
  });
});

// Our own messages, per carrier and per trap, labelled by the same conventions:
// [text, [pickupCode, company, stationName, trackingNumber][]]
type Row = [string, (string | null)[][]];
const OWN: Row[] = [
  // 菜鸟驿站: 已到站 is skipped, the place after the next 到
  ["【菜鸟驿站】您的包裹已到站，凭3-2-5011到华中科技大学东区3栋店取件，详询18812345678", [["3-2-5011", "菜鸟驿站", "华中科技大学东区3栋店", null]]],
  ["【菜鸟驿站】请于20:30前到东门驿站取件，取件码 7-1-2030。", [["7-1-2030", "菜鸟驿站", "东门驿站", null]]],
  ["【菜鸟驿站】您的包裹在东区驿站已滞留2天，请尽快凭 4-1-2201 取件。", [["4-1-2201", "菜鸟驿站", "东区驿站", null]]],
  ["【菜鸟驿站】您有3个包裹已到达西区驿站，取件码 1-2-3001、1-2-3002 和 1-2-3003。", [
    ["1-2-3001", "菜鸟驿站", "西区驿站", null],
    ["1-2-3002", "菜鸟驿站", "西区驿站", null],
    ["1-2-3003", "菜鸟驿站", "西区驿站", null],
  ]],
  ["【菜鸟驿站】您的包裹已到达东区驿站，取件码为 6-2-1101，请于今天18:00前领取。有问题请拨打 0731-88888888", [["6-2-1101", "菜鸟驿站", "东区驿站", null]]],
  // the signature at the end
  ["您的包裹已到达二食堂菜鸟驿站，取件码 9-1-2233，请及时领取。【菜鸟驿站】", [["9-1-2233", "菜鸟驿站", "二食堂菜鸟驿站", null]]],
  // 丰巢: every spelling of the tag is 丰巢, but the carrier the body names comes first; 8-digit codes
  ["【丰巢智能柜】您的顺丰快递已存入南门丰巢柜，取件码28391047，请及时取件。", [["28391047", "顺丰速运", "南门丰巢柜", null]]],
  ["【丰巢快递柜】取件码:『71002938』，请至东苑7栋丰巢柜取件", [["71002938", "丰巢", "东苑7栋丰巢柜", null]]],
  // 兔喜, 妈妈驿站, 近邻宝
  ["【兔喜生活】凭取件码 6-3-2011 到学府路兔喜快递超市取中通包裹，营业时间9:00-21:00。", [["6-3-2011", "中通快递", "学府路兔喜快递超市", null]]],
  ["【妈妈驿站】您的包裹已在学五食堂旁妈妈驿站，请在18:00前凭 2-2-3021 取件", [["2-2-3021", "妈妈驿站", "学五食堂旁妈妈驿站", null]]],
  ["【近邻宝】您的快件已到达图书馆近邻宝，柜号12，取件密码 839201", [["839201", "近邻宝", "图书馆近邻宝", null]]],
  // carriers
  ["【中国邮政】您的邮件1234567890123已到达大学城邮政所，请凭取件码 5021 领取。", [["5021", "邮政EMS", "大学城邮政所", "1234567890123"]]],
  ["【EMS】您的邮件EA123456789CN已到达校园邮政所，请凭身份证领取。", [[null, "邮政EMS", "校园邮政所", "EA123456789CN"]]],
  ["【韵达快递】韵达*0316包裹已到达南苑韵达驿站，取件码 5-2-0316。", [["5-2-0316", "韵达快递", "南苑韵达驿站", null]]],
  ["【圆通速递】您的快件已到达东门快递点，请凭取件码 3012 取件，快递员电话 13912345678", [["3012", "圆通速递", "东门快递点", null]]],
  ["【京东快递】您的包裹已到达京东自提点(南苑店)，提货码 6182，运单号 JD0012345678901。", [["6182", "京东快递", "京东自提点(南苑店)", "JD0012345678901"]]],
  ["【申通快递】您的快件773012345678901已到达北门申通快递点，请凭取件码12-3-4567取件。", [["12-3-4567", "申通快递", "北门申通快递点", "773012345678901"]]],
  ["【德邦快递】您的快件已到达德邦营业部(大学城店)，请到店自提，取件码 5521。", [["5521", "德邦快递", "德邦营业部(大学城店)", null]]],
  ["【极兔速递】您的包裹已送达梅园6栋快递柜，取件码 60318822。", [["60318822", "极兔速递", "梅园6栋快递柜", null]]],
  // a tag that is not a brand: the first carrier of the body (a short form is the carrier); a code without a keyword
  ["【校园快递中心】您的申通快递已到校园快递中心，2-4-1108，请凭码取件", [["2-4-1108", "申通快递", "校园快递中心", null]]],
  ["您的中通包裹已放在3号门卫室，取件码 8801。", [["8801", "中通快递", "3号门卫室", null]]],
  // full-width digits, spaces around dashes, lower-case letters kept as written
  ["【菜鸟驿站】取件码 ２ － ３ － ４０５６，已到达南区菜鸟驿站。", [["2-3-4056", "菜鸟驿站", "南区菜鸟驿站", null]]],
  // letter-dash codes, a time in brackets after the place, 待取/自取, 送达至, 存于, bracketed places
  ["【菜鸟驿站】您的包裹已到达东门驿站(营业时间8:00-20:00)，取件码 A-3-2011。", [["A-3-2011", "菜鸟驿站", "东门驿站", null]]],
  ["【菜鸟驿站】您有包裹在西区驿站待取，取件码 B-12-0345", [["B-12-0345", "菜鸟驿站", "西区驿站", null]]],
  ["【中国邮政EMS】您的邮件已送达至校园邮政所，取件码 6021。", [["6021", "邮政EMS", "校园邮政所", null]]],
  ["【丰巢】您的快递已存于南门快递柜，取件码 28391047", [["28391047", "丰巢", "南门快递柜", null]]],
  ["【菜鸟驿站】包裹已到达【东区菜鸟驿站】，取件码 3-3-3003", [["3-3-3003", "菜鸟驿站", "东区菜鸟驿站", null]]],
  ["【京东快递】请凭取件码 8765 至北门京东自提柜自取", [["8765", "京东快递", "北门京东自提柜", null]]],
  ["您的快递已送到宿舍楼下快递柜，取件码 88776655，请及时取件。【丰巢智能柜】", [["88776655", "丰巢", "宿舍楼下快递柜", null]]],
  ["【京东快递】您的京东包裹已由快递员投递至文科楼京东自提点，提货码 9012。", [["9012", "京东快递", "文科楼京东自提点", null]]],
  ["【中通快递】您的快件已到达，请到北门中通快递点凭 6688 取件", [["6688", "中通快递", "北门中通快递点", null]]],
  ["【韵达快递】单号432112345678901的包裹已到达南门韵达驿站，请报取件码或手机号领取", [[null, "韵达快递", "南门韵达驿站", "432112345678901"]]],
  ["【丰巢】您的快件已超时，请尽快取件，超时费0.5元/12小时，取件码 55667788，位置：西门丰巢柜", [["55667788", "丰巢", "西门丰巢柜", null]]],
  ["【菜鸟驿站】温馨提示：您在南区驿站有2个包裹待取，取件码 1-2-1234 1-2-1235", [
    ["1-2-1234", "菜鸟驿站", "南区驿站", null],
    ["1-2-1235", "菜鸟驿站", "南区驿站", null],
  ]],
  ["【极兔速递】您的快件已到XX大学快递中心，取件码为 JT-2-0912", [["JT-2-0912", "极兔速递", "XX大学快递中心", null]]],
  ["【XX大学后勤服务中心】您的韵达包裹已到达校园快递服务站，货号 3-2-1101", [["3-2-1101", "韵达快递", "校园快递服务站", null]]],
  ["【申通快递】您的包裹773012345678901已签收，签收人：驿站代收", []],
  // a station that signed for the parcel is still a pickup notice when it gives a code
  ["【菜鸟驿站】您的包裹已签收至东区驿站，请凭 1-2-3011 取件", [["1-2-3011", "菜鸟驿站", "东区驿站", null]]],
  // messages that are not pickup notices
  ["【顺丰速运】您的快件已签收，感谢使用。", []],
  ["【顺丰速运】您的快件已签收，签收人：本人，如有疑问请电话联系95338。", []],
  ["【菜鸟驿站】您的包裹已被取出，如非本人操作请联系驿站。", []],
  ["【招商银行】您的账户验证码：482913，请勿泄露。", []],
  ["【丰巢】寄快递首单立减5元，领券码 A8899，回T退订", []],
  ["【中通快递】您的快件正在派送，派件员：王师傅 13712345678", []],
  ["【工商银行】您的动态密码为 662814，5分钟内有效。", []],
  ["【美团】您的外卖已送达，祝您用餐愉快。", []],
  ["", []],
  // Missed formats: 分别为 lists with 、 or ，, a second tag, 请凭<code>至<place>取件,
  // 地址: after 到站啦！, a supermarket 代收点, 6-digit codes of 自提柜/便民站, letter codes
  ["【妈妈驿站】您有2个包裹在阳光花园妈妈驿站，取件码分别为 3-1-4402、3-1-4415。", [
    ["3-1-4402", "妈妈驿站", "阳光花园妈妈驿站", null],
    ["3-1-4415", "妈妈驿站", "阳光花园妈妈驿站", null],
  ]],
  ["【菜鸟驿站】您的申通包裹已到东区驿站，取件码分别为3-3-1101，3-3-1102。", [
    ["3-3-1101", "申通快递", "东区驿站", null],
    ["3-3-1102", "申通快递", "东区驿站", null],
  ]],
  ["【菜鸟驿站】【中通快递】您的包裹已到达桃李园驿站，取件码 6-4-1130。", [["6-4-1130", "中通快递", "桃李园驿站", null]]],
  ["【丰巢】请凭取件码 11904382 至 体育中心北门丰巢柜 取中通快递包裹。", [["11904382", "中通快递", "体育中心北门丰巢柜", null]]],
  ["【菜鸟驿站】您的包裹到站啦！取件码 6-2-5517，地址：学苑路88号菜鸟驿站，回TD退订", [["6-2-5517", "菜鸟驿站", "学苑路88号菜鸟驿站", null]]],
  ["【好邻居超市】您的申通包裹已到好邻居超市代收点，请凭A12取件。", [["A12", "申通快递", "好邻居超市代收点", null]]],
  ["【京东便民站】您的包裹已到站，请凭提货码 284019 到幸福里京东便民站自提。", [["284019", "京东快递", "幸福里京东便民站", null]]],
  ["【京东】您的包裹已放入锦江花园京东自提柜，提货码：550198。", [["550198", "京东快递", "锦江花园京东自提柜", null]]],
  // messages one per line without a blank line: one naming no carrier takes the others' first
  ["【菜鸟驿站】您的包裹已到达海棠苑菜鸟驿站，取件码 9-9-1024。\n【圆通速递】您的快件已到达海棠苑圆通快递点，取件码 1357。", [
    ["9-9-1024", "圆通速递", "海棠苑菜鸟驿站", null],
    ["1357", "圆通速递", "海棠苑圆通快递点", null],
  ]],
  // each parcel's carrier on its own line or in its bracket
  ["【菜鸟驿站】您有2个包裹已到达南门菜鸟驿站：\n中通快递 取件码 4-1-1101\n韵达快递 4-1-1102", [
    ["4-1-1101", "中通快递", "南门菜鸟驿站", null],
    ["4-1-1102", "韵达快递", "南门菜鸟驿站", null],
  ]],
  ["【兔喜生活】您有2件快递待取：取件码 2-3-5501(中通)、A5-1102(圆通)，地址：翠苑兔喜快递超市。", [
    ["2-3-5501", "中通快递", "翠苑兔喜快递超市", null],
    ["A5-1102", "圆通速递", "翠苑兔喜快递超市", null],
  ]],
  // a phone number, landline or mobile, with or without its hyphen, is never a code or a tracking number
  ["【菜鸟驿站】您的包裹已到达南湖驿站，取件码 2-6-3081，驿站电话 057188886666，营业至21:00。", [["2-6-3081", "菜鸟驿站", "南湖驿站", null]]],
  ["【邮政EMS】您的邮件1106273849501已到达大学邮局，请携带身份证领取，电话：057188886666。", [[null, "邮政EMS", "大学邮局", "1106273849501"]]],
  ["【中通快递】您的快件已到达北门驿站，请凭 0571-88886666 咨询，取件码 7-7-0101。", [["7-7-0101", "中通快递", "北门驿站", null]]],
  ["【中通快递】您的快件已到达北门驿站，请报手机号 13800001234 取件。", []],
  ["【中通快递】您的快件75123456789012已到达【杭州转运中心】，下一站【西湖区网点】。", []],
  // after a comma only a code of the same shape continues a list: 101室 is a room
  ["您的快递已放在3号楼快递柜，取件码 5521，101室的同学请尽快取件。", [["5521", null, "3号楼快递柜", null]]],
  ["【美宜佳超市】您有3个韵达快递包裹在华联超市代收点待领取，取件码分别为 X90，E85，V778。", [
    ["X90", "韵达快递", "华联超市代收点", null],
    ["E85", "韵达快递", "华联超市代收点", null],
    ["V778", "韵达快递", "华联超市代收点", null],
  ]],
  // tracking only: a station is a pickup place even without 取; a depot on the way is not
  ["【韵达快递】您的快件4312345678901已到达南门韵达驿站。", [[null, "韵达快递", "南门韵达驿站", "4312345678901"]]],
  ["【中通快递】您的快件73123456789012已到达杭州西湖区文三路营业部。", []],
];

describe("our own cases per carrier and per trap", () => {
  it.each(OWN)("%s", (text, rows) => {
    expect(fields(text)).toEqual(
      rows.map(([pickupCode, company, stationName, trackingNumber]) => ({ pickupCode, company, stationName, trackingNumber })),
    );
  });
});

describe("pickup types", () => {
  it("is code when the parcel has a code, tracking when only the number and a place", () => {
    expect(parsePickupSms("【菜鸟驿站】您的包裹已到达东区驿站，取件码 1-1-1001。")[0]?.pickupType).toBe("code");
    expect(parsePickupSms("【中通快递】您的快件75830192837465已到达丽景苑中通快递超市，请报手机尾号取件。")[0]?.pickupType).toBe("tracking");
  });
});

describe("normalisation and splitting", () => {
  it("folds full-width characters and every dash", () => {
    expect(normalizeText("１５－２—３３０７ ６‐１–２")).toBe("15-2-3307 6-1-2");
    expect(normalizeText("（理工大学南门店）")).toBe("(理工大学南门店)");
  });

  it("splits on blank lines, tag lines and timestamp lines, and keeps a trailing signature", () => {
    expect(splitMessages("a取件\n\nb取件")).toEqual(["a取件", "b取件"]);
    expect(splitMessages("【甲】一\n【乙】二")).toEqual(["【甲】一", "【乙】二"]);
    expect(splitMessages("11月03日 08:52\n【甲】一\n11月03日 10:15\n【乙】二")).toEqual(["【甲】一", "【乙】二"]);
    expect(splitMessages("包裹已到。\n【菜鸟驿站】\n【丰巢】请取件")).toEqual(["包裹已到。\n【菜鸟驿站】", "【丰巢】请取件"]);
    // a wrapped line continues its message; untagged notices one per line are separate
    expect(splitMessages("【菜鸟驿站】您的包裹已到达\n东区驿站，取件码 1-1-1001")).toEqual(["【菜鸟驿站】您的包裹已到达东区驿站,取件码 1-1-1001"]);
    // a list line keeps its line: "中通快递 1-1-1002" is not glued to the sentence before it
    expect(splitMessages("【菜鸟驿站】您有包裹到东区驿站\n中通快递 1-1-1002")).toEqual(["【菜鸟驿站】您有包裹到东区驿站\n中通快递 1-1-1002"]);
    expect(splitMessages("您的快递已存入12栋快递柜，取件码 30492716\n您的包裹已到达东区驿站，取件码 1-1-1001")).toEqual([
      "您的快递已存入12栋快递柜,取件码 30492716",
      "您的包裹已到达东区驿站,取件码 1-1-1001",
    ]);
    expect(splitMessages("【甲】一。【乙】二。")).toEqual(["【甲】一。", "【乙】二。"]);
  });

  it("parses one message the same alone or in a paste", () => {
    const one = "【菜鸟驿站】您的包裹已到达梨园菜鸟驿站，取件码 5-5-1201，请凭码取件。";
    expect(parsePickupSms(`${one}\n\n${one}`)).toEqual([...parseMessage(one), ...parseMessage(one)]);
  });
});

describe("linear time", () => {
  // The bound: a 20 KB paste in at most 20 ms. Four times the paste must not take sixteen
  // times as long (a quadratic parser took 0.42 s on 20 KB); the bounds leave room for a busy CI.
  const paste = (size: number) => {
    let text = "";
    for (let i = 0; text.length < size; i += 1) text += `${samples[i % samples.length]!.text}\n\n`;
    return text.slice(0, size);
  };
  // CPU time of this process (not wall time): other engineers' jobs share the machine's cores.
  const timeOf = (text: string) => {
    for (let i = 0; i < 10; i += 1) parsePickupSms(text);
    const runs: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const before = process.cpuUsage();
      parsePickupSms(text);
      const used = process.cpuUsage(before);
      runs.push((used.user + used.system) / 1000);
    }
    return runs.sort((a, b) => a - b)[5]!;
  };

  it.each([
    ["a paste of many SMS", (size: number) => paste(size)],
    ["the same without blank lines", (size: number) => paste(size).replace(/\n+/g, "\n")],
    ["one line of SMS", (size: number) => paste(size).replace(/\n+/g, "")],
    ["a run of dashes and digits", (size: number) => "1-".repeat(size / 2)],
    ["a run of keywords and codes", (size: number) => "取件码1-2-3、".repeat(size / 9)],
    ["one list of distinct codes", (size: number) => Array.from({ length: size / 10 }, (_, i) => `取件码 1-${i}、`).join("")],
    ["a run of locative verbs", (size: number) => "在到至送达".repeat(size / 5)],
    ["a run of tags", (size: number) => "【菜鸟驿站】\n".repeat(size / 7)],
  ])("%s: 20 KB well under 20 ms, 80 KB not quadratic", (_name, make) => {
    const small = timeOf(make(20_000));
    const large = timeOf(make(80_000));
    expect(small).toBeLessThan(20); // measured 2–3 ms of CPU for a paste of SMS
    expect(large).toBeLessThan(8 * small + 10);
  });
});

describe("the label's phone tail", () => {
  it.each([
    ["【菜鸟驿站】您的中通包裹已到东苑驿站，取件码 2-1-0099，收件人手机尾号1234。", "1234"],
    ["【丰巢】您手机号尾号为5678的包裹已存入3号柜，取件码 889900。", "5678"],
    ["【圆通快递】请凭1-4-4230到尚璟瑞府妈妈驿站领取运单尾号6017包裹。", undefined],
    ["【中通快递】您的顺丰包裹SF1770915178564已到达和平里中通快递超市，请报手机尾号取件。", undefined],
  ])("%s → %s", (text, tail) => {
    const parcels = parsePickupSms(text);
    expect(parcels.length).toBeGreaterThan(0);
    expect(parcels.every((parcel) => parcel.phoneTail === tail)).toBe(true);
  });
});
