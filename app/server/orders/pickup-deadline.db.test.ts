// The station's deadline from the SMS to the order: recognised with the parcel, kept on the
// order's parcels as written and as an instant, the earliest on the order's pickup_deadline column
// (a courier's pick list sorts by it), shown on the student's order page and the operator's card.
import { describe, expect, it } from "vitest";
import { deadlineAt } from "~/lib/pickup-deadline";
import { now } from "~/server/db/db.server";
import { toCard } from "~/server/admin/orders.server";
import { saveAddress } from "~/server/market/addresses.server";
import { loadCheckout, updateCheckout } from "~/server/market/checkout.server";
import { recognizeSms } from "~/server/market/checkout-edits.server";
import { loadExpressConfig } from "~/server/market/market-config.server";
import { createStudent } from "../../../tests/setup/helpers";
import { createOrderFromCheckout, findOrder, orderDetail } from "./orders.server";

const TYPES = async () => {
  const result = await loadExpressConfig("jinpenling");
  if (!result.ok) throw new Error("no config");
  return result.config.packageTypes;
};

async function orderFromPaste(paste: string) {
  const user = await createStudent({ openid: `oDeadline${Math.random().toString(36).slice(2, 12)}`, campus_code: "jinpenling", wechat_authorized_at: now() });
  await saveAddress(user.id, { name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑3栋", room: "302", isDefault: true });
  const types = await TYPES();
  await recognizeSms(user.id, types, paste);
  await updateCheckout(user.id, types, (checkout) => ({ set: { counts: { ...checkout.counts, small: checkout.entries.length } }, result: null }));
  const checkout = await loadCheckout(user.id, types);
  const result = await createOrderFromCheckout(user, "jinpenling", { checkoutId: checkout.id, version: checkout.version });
  if (!result.ok) throw new Error(result.reason);
  return { user, order: (await findOrder(result.orderNumber))! };
}

describe("the station's deadline on the order", () => {
  it("keeps each parcel's deadline and the earliest on pickup_deadline", async () => {
    const { order } = await orderFromPaste(
      "【菜鸟驿站】您的韵达包裹到科技师范校医院东侧20米菜鸟驿站，请20:30前凭3-3-6254及时取\n\n【熊猫快收】亲圆通速递A22-1-5003已到传媒综合配送服务中心请于当日7点前领取\n\n【中通快递】凭M-2-5341到福源折扣店取尾号9100包裹",
    );
    const at = new Date(order.created_at);
    const parcels = JSON.parse(order.pickup_codes!) as { pickupCode: string; deadline: string | null; deadlineAt: string | null }[];
    expect(parcels.map((parcel) => [parcel.pickupCode, parcel.deadline])).toEqual([
      ["3-3-6254", "20:30前"],
      ["A22-1-5003", "当日7点前"],
      ["M-2-5341", null],
    ]);
    expect(parcels[0]!.deadlineAt).toBe(deadlineAt("20:30前", at));
    expect(parcels[2]!.deadlineAt).toBeNull();
    // 当日7点前 is 19:00, earlier than 20:30.
    expect(order.pickup_deadline).toBe(deadlineAt("当日7点前", at));

    const detail = await orderDetail(order);
    expect(detail.pickup_codes[1]).toMatchObject({ code: "A22-1-5003", deadline: "当日7点前", deadlineAt: order.pickup_deadline });
    // The order page shows its day and time in Shanghai (19:00).
    expect(detail.pickup_codes[1]!.deadlineWhen).toMatch(/^\d{2}-\d{2} 19:00$/);
    const card = toCard(order);
    expect(card.pickupDeadline).toBe(order.pickup_deadline);
    expect(card.pickup.map((item) => item.deadline)).toEqual(["20:30前", "当日7点前", null]);
  });

  it("an order whose SMS gave no deadline has none", async () => {
    const { order } = await orderFromPaste("【中通快递】凭M-2-5341到福源折扣店取尾号9100包裹");
    expect(order.pickup_deadline).toBeNull();
  });

  it("keeps the label's phone tail from the SMS on the order's parcel, for the rider's recipient check", async () => {
    // The address's phone ends in 8000; the SMS's label says 9100.
    const { order } = await orderFromPaste("【菜鸟驿站】您的中通包裹已到西区菜鸟驿站，请凭5-2-1101取件，收件人手机尾号9100");
    expect(JSON.parse(order.pickup_codes!)).toMatchObject([{ pickupCode: "5-2-1101", phoneTail: "9100" }]);
  });
});
