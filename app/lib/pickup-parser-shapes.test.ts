import { describe, expect, it } from "vitest";
import { parsePickupSms } from "./pickup-parser";

// Table tests per shape and kind that real messages showed (docs/recognition.md): the messages
// are made up in those shapes, none is copied from the real corpus.
type Row = [name: string, text: string, code: string | null, company: string | null, station: string | null];

const one = (text: string) => {
  const parsed = parsePickupSms(text);
  expect(parsed, text).toHaveLength(1);
  return parsed[0]!;
};

describe("code shapes", () => {
  it.each<Row>([
    ["two-digit shelf number after 货号", "【申通快递】货号57申通快递请到二食堂后门取件", "57", "申通快递", "二食堂后门"],
    ["three digits after 货号", "您的快件放置于图书馆东侧，货号 312，请带证件取件。【顺丰速运】", "312", "顺丰速运", "图书馆东侧"],
    ["digit-letter-digit", "【韵达快递】货号3B7请到北门韵达点取件", "3B7", "韵达快递", "北门韵达点"],
    ["letter-digit-letter-digit", "【京东快递】货号JD0815你的京东快递已到东区京东派，请领取", "JD0815", "京东快递", "东区京东派"],
    ["letter-prefixed shelf after 请用", "【递管家】您的快递:*12345已到南苑快递柜，请用K4-18到货架取件", "K4-18", "递管家", "南苑快递柜"],
    ["locker number before the code", "【丰巢】取件码：3号柜 581203，您的中通包裹已存入西门丰巢柜", "3号柜581203", "中通快递", "西门丰巢柜"],
    ["locker number glued to the code", "取件码 2号柜663018\n兔喜快递超市代收点 | 桃李园超市", "2号柜663018", null, "兔喜快递超市代收点 | 桃李园超市"],
    ["凭编码 … 号", "【微快递】圆通包裹:当日17:00前凭编码30417号速取！", "30417", "圆通速递", null],
    ["到店输入 … 取件", "【多多代收点】尾号31022包裹已到梅园3栋菜鸟驿站，到店输入58120即可取件", "58120", "多多代收点", "梅园3栋菜鸟驿站"],
    ["dashed code with a four-group station code", "【妈妈驿站】取货码3-1-2-07，您有圆通快递包裹，已到竹园圆通点", "3-1-2-07", "圆通速递", "竹园圆通点"],
  ])("%s", (_name, text, code, company, station) => {
    expect(one(text)).toMatchObject({ pickupCode: code, company, stationName: station });
  });
});

describe("keywords", () => {
  it("如已取件请忽略 is a courtesy line, not a picked-up notice", () => {
    expect(one("【菜鸟驿站】您的中通包裹已到松园菜鸟驿站，请凭4-2-3310取件，如已取件请忽略")).toMatchObject({ pickupCode: "4-2-3310", stationName: "松园菜鸟驿站" });
  });
  it("a notice that says the parcel was picked up still yields nothing", () => {
    expect(parsePickupSms("【菜鸟驿站】您的包裹已取件成功，取件码4-2-3310，感谢使用")).toEqual([]);
  });
  it("输入 before a one-time code of a login is not a pickup", () => {
    expect(parsePickupSms("【某银行】请输入验证码 482913 完成登录")).toEqual([]);
  });
});

describe("station boundaries", () => {
  it.each<Row>([
    ["放置于 is a locative", "您有一票快件放置于北区收发室请6点以前取，货号118。【顺丰速运】", "118", "顺丰速运", "北区收发室"],
    ["如拒签 ends the place", "【妈妈驿站】取货码TK2201,快递已到东区圆通如拒签请回电", "TK2201", "圆通速递", "东区圆通"],
    ["a date ends the place", "【申通快递】货号64申通快递请到西区仓库侧门11.30前取件", "64", "申通快递", "西区仓库侧门"],
    ["速取 ends the place", "【菜鸟】凭取件码8-1-2203到南门快递点速取", "8-1-2203", "菜鸟", "南门快递点"],
    ["到很久啦 is not a place", "【菜鸟驿站】您的中通包裹到很久啦，请尽快凭取货码(20817)到理学院东侧菜鸟驿站领取", "20817", "中通快递", "理学院东侧菜鸟驿站"],
    ["a space between Chinese words is inside the place", "【兔喜生活】您的中通快递包裹已到竹园镇 老街东口中通门店内，凭2-1-5508来取", "2-1-5508", "中通快递", "竹园镇 老街东口中通门店内"],
    ["a note after 了 is not the place", "【京东物流】货号5512您好，您的快递到南区京东派了(北门西50米)，营业到晚6点", "5512", "京东快递", "南区京东派"],
  ])("%s", (_name, text, code, company, station) => {
    expect(one(text)).toMatchObject({ pickupCode: code, company, stationName: station });
  });
});

describe("carriers", () => {
  it("汇通 is 百世", () => {
    expect(one("【汇通快递】货号K207快递已到一食堂旁汇通，请及时取走")).toMatchObject({ pickupCode: "K207", company: "百世快递", stationName: "一食堂旁汇通" });
  });
  it("a tag naming a pickup place is that place's brand when the body names no carrier", () => {
    expect(one("【欢喜驿站】您的包裹已到桂园门面房，请凭D5-1120取件")).toMatchObject({ company: "欢喜驿站", stationName: "桂园门面房" });
  });
});

describe("pastes and per-code places", () => {
  it("two SMS glued on one line without a sentence end are two messages", () => {
    const parsed = parsePickupSms("【菜鸟驿站】您的中通包裹已到梅园菜鸟驿站，请凭3-1-2201取件【圆通速递】您的快递已到竹园快递点，取货码13-2-0445");
    expect(parsed.map((entry) => [entry.pickupCode, entry.company, entry.stationName])).toEqual([
      ["3-1-2201", "中通快递", "梅园菜鸟驿站"],
      ["13-2-0445", "圆通速递", "竹园快递点"],
    ]);
  });
  it("a tag followed by a second tag at the start of a message stays one message", () => {
    expect(parsePickupSms("【菜鸟驿站】【中通快递】您的包裹已到梅园菜鸟驿站，请凭3-1-2201取件")).toHaveLength(1);
  });
  it("each code on its own line gets the place written with it", () => {
    const parsed = parsePickupSms("取件码 B3-01175\n韵达快递超市代收点 | 东门红波超市\n取件码 Z5-2-1350\n兔喜快递超市代收点 | 西区快递服务中心");
    expect(parsed.map((entry) => [entry.pickupCode, entry.stationName])).toEqual([
      ["B3-01175", "韵达快递超市代收点 | 东门红波超市"],
      ["Z5-2-1350", "兔喜快递超市代收点 | 西区快递服务中心"],
    ]);
  });
});

describe("words inside a place", () => {
  it("有 inside a shop's name does not end the place; 有 before a count or a question does", () => {
    expect(one("【熊猫柜】您的圆通包裹已到建宇新区零食有鸣10号柜，取件码65676997").stationName).toBe("建宇新区零食有鸣10号柜");
    expect(one("【菜鸟驿站】您的中通包裹已到东门菜鸟驿站有问题请联系，凭2-1-3301取件").stationName).toBe("东门菜鸟驿站");
  });
  it("a locker brand in the tag is the company when the body names no carrier", () => {
    expect(one("【鸟箱】请凭取件码055151到西苑5号柜鸟箱06副柜取件").company).toBe("鸟箱");
  });
});

describe("the station's deadline", () => {
  it.each<[string, string, string | null]>([
    ["a time today", "【菜鸟驿站】您的包裹已到东门菜鸟驿站，请于今天18:00前凭3-1-2201取件", "今天18:00前"],
    ["a time before 凭", "【菜鸟驿站】您的中通包裹已到北苑物业店，请21:00前凭3-1-2009取件", "21:00前"],
    ["a span of days", "【兔喜生活】您有包裹已到达南门兔喜店，取件码为3-3-6020，请3天内取件", "3天内"],
    ["a date", "【申通快递】货号64申通快递请到西区仓库侧门11.30前取件", "11.30前"],
    ["当日 and an hour", "【微快递】圆通包裹:当日16:00前凭编码30417号速取！", "当日16:00前"],
    ["a half hour", "您有一票快件放置于北区收发室请5点半以前取，货号118。【顺丰速运】", "5点半前"],
    ["a free period is not a deadline", "【丰巢】凭取件码85692800至东苑丰巢柜取件，24小时内免费", null],
    ["opening hours are not a deadline", "【妈妈驿站】取货码96-014，您有圆通快递包裹，已到八舍圆通妈妈驿站，营业时间08:00-19:00", null],
    ["none", "【中通快递】凭M-2-5341到福源折扣店取尾号9100包裹", null],
  ])("%s", (_name, text, deadline) => {
    expect(one(text).deadline).toBe(deadline);
  });
});

// Shapes the third real batch showed (docs/decisions/044), made up in those shapes.
describe("more shapes from real campus messages", () => {
  it.each<Row>([
    ["编号 names the code", "【快递超市】您的中通快递快递已到北门菜鸟驿站，请凭编号C218六点前领取", "C218", "中通快递", "北门菜鸟驿站"],
    ["a letter and one digit after 编号", "【云喇叭】韵达速递编号D7，请20点前到东区18栋108室取件", "D7", "韵达快递", "东区18栋108室"],
    ["编号 with a filler and brackets", "【天天快递】请于南区12幢小卖部店内领取。编号在此(52)麻烦今天领取", "52", "天天快递", "南区12幢小卖部店内"],
    ["a short shelf code before a word of picking up", "【来取】您的圆通速递包裹已由西苑3号楼快递吧暂时保管，请凭4-7领取", "4-7", "圆通速递", "西苑3号楼快递吧"],
    ["由…代收 names the keeper", "【社区人】您的顺丰包裹已由北门生活超市代收，凭80231领取", "80231", "顺丰速运", "北门生活超市"],
    ["a generic keeper is no place", "【好邻居超市】您的申通包裹已由本店代收，请凭B07到东门好邻居超市取件", "B07", "申通快递", "东门好邻居超市"],
    ["请于 before a place", "【中通快递】请于北区快递中心领取，取件码6-2-3301", "6-2-3301", "中通快递", "北区快递中心"],
    ["an unknown carrier by its shape", "【菜鸟驿站】您的晟邦物流包裹到南区菜鸟驿站，请20:30前凭1-1-5190及时取", "1-1-5190", "晟邦物流", "南区菜鸟驿站"],
    ["an unknown carrier before 编号", "【云喇叭】龙邦速递编号31请到东门外凭编号取件", "31", "龙邦速递", "东门外"],
    ["a number between the parcel and its arrival", "【微快递】京东快递:您的京东包裹06211已到东区3号楼京东站，请19点前领回", "06211", "京东快递", "东区3号楼京东站"],
    ["进行 ends the place", "【菜鸟驿站】天天快递单号*1633，请21点前凭货号11072到北门菜鸟驿站进行取件", "11072", "天天快递", "北门菜鸟驿站"],
    ["brackets kept when both are inside the place", "【菜鸟智能柜】凭取件码563301到菜鸟『智能柜』取包裹", "563301", "菜鸟智能柜", "菜鸟『智能柜』"],
  ])("%s", (_name, text, code, company, station) => {
    expect(one(text)).toMatchObject({ pickupCode: code, company, stationName: station });
  });
  it("由于 and 关于 are not places", () => {
    expect(one("【中通快递】由于天气原因，您的包裹已到东门驿站，取件码3-1-2208").stationName).toBe("东门驿站");
  });
  it.each<[string, string, string | null]>([
    ["an hour in Chinese numerals", "【快递超市】您的中通快递已到北门驿站，请凭编号C218六点前领取", "六点前"],
    ["十九点前", "【顺丰快递】货号547您的包裹已到南区洗衣房，十九点前务必来取", "十九点前"],
    ["当日 and an hour in digits", "【熊猫快收】亲圆通速递A22-1-5003已到综合配送服务中心请于当日7点前领取", "当日7点前"],
  ])("deadline: %s", (_name, text, deadline) => {
    expect(one(text).deadline).toBe(deadline);
  });
});

// Shapes the fourth real batch showed (docs/decisions/048), made up in those shapes.
describe("places: owned parcels, placeholders, hours", () => {
  it.each<Row>([
    ["的 before the parcel it holds ends the place", "【菜鸟驿站】您在梅园5栋菜鸟驿站的韵达*41207包裹移动到新货架，请凭2-3-4105取。", "2-3-4105", "韵达快递", "梅园5栋菜鸟驿站"],
    ["的 before 包裹 ends the place", "【菜鸟驿站】您在松园超市的包裹已上架，请凭6-1-2207取件", "6-1-2207", "菜鸟驿站", "松园超市"],
    ["的 inside a place stays", "【丰巢】请凭取件码40517733到北门口的快递柜取件", "40517733", "丰巢", "北门口的快递柜"],
    ["的 before a locker's number stays inside the place", "【丰巢】请凭取件码40517734到东门的2号快递柜取件", "40517734", "丰巢", "东门的2号快递柜"],
    ["的 before a number and 包裹 ends the place", "【菜鸟驿站】您在竹园驿站的41207包裹已上架，请凭6-1-2208取件", "6-1-2208", "菜鸟驿站", "竹园驿站"],
    ["a masked place (xxx) stands for the place", "【菜鸟】您的包裹凭取件码5-2-1108到xxx速取", "5-2-1108", "菜鸟", "xxx"],
    ["a bracketed placeholder stands for the place", "【递管家】您的快递:*22015已到【地址】，请用B2-15到人工货架取包裹", "B2-15", "递管家", "【地址】"],
    ["an hour in Chinese numerals ends the place", "【妈妈驿站】取货码M27,快递已到东区18栋105八点前来取", "M27", "妈妈驿站", "东区18栋105"],
    ["an hour in digits ends the place", "【妈妈驿站】取货码M28,快递已到东区18栋快递点20:00前来取", "M28", "妈妈驿站", "东区18栋快递点"],
  ])("%s", (_name, text, code, company, station) => {
    expect(one(text)).toMatchObject({ pickupCode: code, company, stationName: station });
  });
});

// Kinds left open by the earlier rounds and the sixth real batch (docs/decisions/057), made up in
// those shapes.
describe("sender tags, carriers glued to places", () => {
  it.each<Row>([
    ["a short coined tag names the company of a text naming no carrier", "【邮差侠】凭取件码2207-4410到南苑菜鸟驿站3号柜取件", "2207-4410", "邮差侠", "南苑菜鸟驿站3号柜"],
    ["a carrier in the body beats a sender tag", "【邮差侠】您的中通包裹已到南苑驿站，取件码2207-4411", "2207-4411", "中通快递", "南苑驿站"],
    ["an institution's tag names no company", "【北苑后勤服务中心】您有一个包裹请到北苑收发室领取，编号A31", "A31", null, "北苑收发室"],
    ["a shop named by what it is names no company", "【家家福超市】您的包裹已到本店，凭取件码6-1-2203取件", "6-1-2203", null, "本店"],
    ["a carrier inside the station's name yields to the tag's carrier", "【圆通速递】您的快递已到韵达西区驿站，取件码3-2-1101", "3-2-1101", "圆通速递", "韵达西区驿站"],
    ["a carrier glued before the station yields to the tag's carrier", "【极兔速递】您的包裹已到中通快递菜鸟驿站，请凭5-1-3302取件", "5-1-3302", "极兔速递", "中通快递菜鸟驿站"],
    ["a carrier inside the station's name is taken when nothing else names one", "【菜鸟驿站】您的包裹已到韵达西区驿站，请凭5-1-3303取件", "5-1-3303", "韵达快递", "韵达西区驿站"],
    ["a carrier and 爆仓 glued after the place are not the place", "【妈妈驿站】取货码M45,快递已到南区7栋102韵达爆仓九点前来取", "M45", "韵达快递", "南区7栋102"],
    ["a short carrier name before 速取 is not the place", "【云喇叭】中通快递编号B17请21点前到北区食堂二楼打印店中通速取", "B17", "中通快递", "北区食堂二楼打印店"],
    ["a carrier's outlet keeps its name", "【申通快递】请凭6-2-0417到菜场斜对面申通快递取您的快递", "6-2-0417", "申通快递", "菜场斜对面申通快递"],
  ])("%s", (_name, text, code, company, station) => {
    expect(one(text)).toMatchObject({ pickupCode: code, company, stationName: station });
  });
  it("a sender tag never makes a text a pickup notice", () => {
    expect(parsePickupSms("【喜乐多】您的会员积分 3820 即将到期，请到店领取礼品")).toEqual([]);
  });
});

describe("a waybill-long number where the code stands", () => {
  it.each<[name: string, text: string, tracking: string]>([
    ["15 digits after 取件码", "【中通快递】您的快递已到北门菜鸟驿站，取件码773512306609841，请及时取件", "773512306609841"],
    ["12 digits after 凭", "【韵达快递】凭431206885017到西门驿站取件", "431206885017"],
    ["letters and digits after 取件码:", "【圆通速递】您的包裹已到东门驿站，取件码:YT7731406209517", "YT7731406209517"],
  ])("%s: no code, the tracking number, and a check", (_name, text, tracking) => {
    expect(one(text)).toMatchObject({ pickupCode: null, trackingNumber: tracking, pickupType: "tracking", check: "long-number" });
  });
  it("a code beside it is the code, and nothing is flagged", () => {
    const parsed = one("【中通快递】您的快递773512306609842已到北门菜鸟驿站，取件码3-2-4410");
    expect(parsed).toMatchObject({ pickupCode: "3-2-4410", trackingNumber: "773512306609842" });
    expect(parsed.check).toBeUndefined();
  });
  it("an order's or a member's number after 编号 is no parcel", () => {
    expect(parsePickupSms("【京东】您的订单编号 202609121234567 的商品可到京东派自提点领取")).toEqual([]);
  });
  it("a phone number after 取件码 is neither", () => {
    expect(parsePickupSms("【菜鸟驿站】您的包裹已到北门驿站，取件码请咨询13800001234")).toEqual([]);
  });
  it("a tracking number with a place and no code word is not flagged", () => {
    expect(one("【中通快递】您的快递773512306609843已到北门菜鸟驿站，请及时取件").check).toBeUndefined();
  });
});
