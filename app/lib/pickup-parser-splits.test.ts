import { describe, expect, it } from "vitest";
import { parsePickupSms, splitMessages } from "./pickup-parser";

// Pastes of several SMS glued without a sentence end between them, split at the next message's
// signature tag or greeting. The messages are real ones from the corpus (tests/fixtures/
// pickup-sms-real*.json, mobile numbers masked), glued the way a copy of several bubbles glues them.
type Row = [name: string, paste: string, parcels: [code: string, company: string | null, station: string | null][]];

describe("glued messages split at a tag or a greeting", () => {
  it.each<Row>([
    [
      "tag, then a tag that opens with 您",
      "【兔喜生活】您有包裹已到达长沙天心紫湖香醍12栋店，取件码为3-1-7679【菜鸟驿站】您有包裹已到长沙五矿紫湖香缇南门9栋门店，取件码06675",
      [["3-1-7679", "兔喜生活", "长沙天心紫湖香醍12栋店"], ["06675", "菜鸟驿站", "长沙五矿紫湖香缇南门9栋门店"]],
    ],
    [
      "a tag that opens with 亲",
      "【熊猫快收】亲圆通速递A22-1-5003已到传媒综合配送服务中心请于当日7点前领取，电话1810000xxxx取件带证件【熊猫快收】亲申通快递A12-4-7111已到传媒综合配送服务中心请于当日7点前领取，电话1810000xxxx取件带证件",
      [["A22-1-5003", "圆通速递", "传媒综合配送服务中心"], ["A12-4-7111", "申通快递", "传媒综合配送服务中心"]],
    ],
    [
      "亲 with no tag before it",
      "【熊猫快收】亲圆通速递A27-4-3044已到传媒综合配送服务中心请于当日7点前领取取件带证件亲申通快递A13-6-7003已到传媒综合配送服务中心请于当日7点前领取",
      [["A27-4-3044", "圆通速递", "传媒综合配送服务中心"], ["A13-6-7003", "申通快递", "传媒综合配送服务中心"]],
    ],
    [
      "您好 with no tag before it",
      "【菜鸟驿站】您的中通包裹已到苏州海悦花园七区物业店，请21:00前凭3-1-2009取件您好，您的韵达包裹到科师一食堂商业街菜鸟驿站，请20:30前凭2-3-2001及时取",
      [["3-1-2009", "中通快递", "苏州海悦花园七区物业店"], ["2-3-2001", "韵达快递", "科师一食堂商业街菜鸟驿站"]],
    ],
    [
      "a tag that opens with a carrier",
      "【快递超市】您的中通快递快递已到南大门菜鸟驿站，请凭编号C445六点前领取【菜鸟驿站】圆通包裹到金陵科技学院北区菜鸟驿站，请19:00前凭93502取",
      [["C445", "中通快递", "南大门菜鸟驿站"], ["93502", "圆通速递", "金陵科技学院北区菜鸟驿站"]],
    ],
    [
      "a tag that opens with 请",
      "【百世邻里】凭货号517013请19点前到传媒东门右拐300米百世快递点领取【极兔速递】请凭9-20-226到极兔领取运单尾号0100包裹",
      [["517013", "百世快递", "传媒东门右拐300米百世快递点"], ["9-20-226", "极兔速递", "极兔"]],
    ],
    [
      "three messages, one glued by a tag and one by a greeting",
      "【快递超市】您的圆通快递快件已到第一餐厅对面燕大家属楼，请凭提货码E379来取【快递超市】您的申通快递快件已到第一餐厅对面燕大家属楼二栋一号楼，请凭提货码T03来取您好，您的百世快递包裹到科师新宿舍旁3号家属楼菜鸟驿站，请18:00前凭2-3-4004及时取",
      [
        ["E379", "圆通速递", "第一餐厅对面燕大家属楼"],
        ["T03", "申通快递", "第一餐厅对面燕大家属楼二栋一号楼"],
        ["2-3-4004", "百世快递", "科师新宿舍旁3号家属楼菜鸟驿站"],
      ],
    ],
  ])("%s", (_name, paste, parcels) => {
    expect(parsePickupSms(paste).map((entry) => [entry.pickupCode, entry.company, entry.stationName])).toEqual(parcels);
  });
});

describe("what stays one message", () => {
  it.each<[string, string]>([
    ["a greeting after the first code when nothing after it is a code", "【京东物流】货号5916您好，您的快递到东北大学京东派（小北门西30米），营业时间早9:00-晚6点"],
    ["a greeting right after the tag", "【菜鸟】您好，请前往友邻驿站正商红河谷08号商铺友邻驿站，凭3-2-1102取件"],
    ["a tag after a locative is a placeholder, not a signature", "【递管家】您的快递:*94650已到【地址】，请用Q7-32到人工货架取包裹"],
    ["two tags at the start", "【菜鸟驿站】【中通快递】您的包裹已到梅园菜鸟驿站，请凭3-1-2201取件"],
    ["您好 with the same code on both sides", "【菜鸟驿站】取件码3-1-2201您好，您的取件码3-1-2201请到梅园驿站取件"],
  ])("%s", (_name, text) => {
    expect(splitMessages(text)).toHaveLength(1);
  });
});
