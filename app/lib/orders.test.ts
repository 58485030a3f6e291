import { describe, expect, it } from "vitest";
import { orderShareCard } from "./orders";

describe("orderShareCard: what the owner's friend sees of an order", () => {
  it.each([
    [{ service_name: "快递代拿", parcel_count: 1, statusLabel: "订单已创建" }, "快递代拿 · 1 件 · 订单已创建"],
    [{ service_name: "快递代拿", parcel_count: 3, statusLabel: "配送中" }, "快递代拿 · 3 件 · 配送中"],
    [{ service_name: "快递代拿", parcel_count: 2, statusLabel: "已完成" }, "快递代拿 · 2 件 · 已完成"],
  ])("%o → %s", (order, desc) => {
    expect(orderShareCard(order, "/express/orders/E20261126000001")).toEqual({ title: "我在校园帮下的快递代拿订单", desc, link: "/express/orders/E20261126000001" });
  });

  it("carries none of the order's private fields, even when the order object has them", () => {
    const order = { service_name: "快递代拿", parcel_count: 2, statusLabel: "配送中", pickup_codes: ["7-3-9051"], recipient_phone: "13900139000", delivery_address: "西苑2栋208", remark: "放门口" };
    const card = JSON.stringify(orderShareCard(order, "/express/orders/E20261126000001"));
    for (const secret of ["7-3-9051", "13900139000", "西苑2栋208", "放门口"]) expect(card).not.toContain(secret);
  });
});
