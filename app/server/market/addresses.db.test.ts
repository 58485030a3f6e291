// Addresses on both dialects: the store's default rules and the page's address form (its
// validation messages, the building that must belong to the campus, owner scoping).
import { describe, expect, it } from "vitest";
import { action as saveAddressAction } from "~/routes/market._shell.address.$id/route";
import { db } from "~/server/db/db.server";
import { createMessengerUser, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { deleteAddress, listAddresses, saveAddress, setDefaultAddress } from "./addresses.server";

const input = (over: Partial<Parameters<typeof saveAddress>[1]> = {}) => ({
  name: "张三",
  phone: "13800138000",
  campus: "jinpenling",
  building: "西苑1栋",
  room: "302",
  isDefault: false,
  ...over,
});

async function post(cookie: string, fields: Record<string, string>) {
  const body = new URLSearchParams(fields);
  const req = request("/market/address/new", {
    method: "POST",
    cookie,
    body,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
  });
  try {
    return await saveAddressAction({ request: req, params: {}, context: {} });
  } catch (thrown) {
    return thrown;
  }
}

describe("the address store", () => {
  it("makes the first address the default, keeps one default, and scopes by owner", async () => {
    const user = await createMessengerUser();
    const other = await createMessengerUser();
    const first = await saveAddress(user.id, input());
    const second = await saveAddress(user.id, input({ room: "303" }));
    expect(first.ok && second.ok).toBe(true);
    let list = await listAddresses(user.id);
    expect(list.map((a) => [a.room, a.isDefault])).toEqual([
      ["302", true],
      ["303", false],
    ]);
    expect(list[0]!.campusName).toBe("金盆岭校区");

    // Setting a default clears the others.
    const third = await saveAddress(user.id, input({ room: "304", isDefault: true }));
    list = await listAddresses(user.id);
    expect(list.filter((a) => a.isDefault).map((a) => a.room)).toEqual(["304"]);
    if (!second.ok || !third.ok || !first.ok) throw new Error("unreachable");
    expect(await setDefaultAddress(user.id, second.id)).toBe(true);
    list = await listAddresses(user.id);
    expect(list.filter((a) => a.isDefault).map((a) => a.id)).toEqual([second.id]);

    // Another user's id is not found, and changes nothing.
    expect(await setDefaultAddress(other.id, first.id)).toBe(false);
    expect(await deleteAddress(other.id, first.id)).toBe(false);
    expect((await saveAddress(other.id, input({ name: "李四" }), first.id)).ok).toBe(false);
    expect((await listAddresses(user.id)).length).toBe(3);

    // Editing keeps the default; deleting the default passes it on to the newest one left.
    await saveAddress(user.id, input({ room: "305", isDefault: false }), second.id);
    expect((await listAddresses(user.id)).find((a) => a.id === second.id)).toMatchObject({ room: "305", isDefault: true });
    expect(await deleteAddress(user.id, second.id)).toBe(true);
    list = await listAddresses(user.id);
    expect(list.map((a) => a.id)).not.toContain(second.id);
    expect(list.filter((a) => a.isDefault).map((a) => a.id)).toEqual([third.id]);
  });

  it("stops at 20 addresses", async () => {
    const user = await createMessengerUser();
    for (let i = 0; i < 20; i += 1) expect((await saveAddress(user.id, input({ room: String(100 + i) }))).ok).toBe(true);
    expect(await saveAddress(user.id, input({ room: "999" }))).toEqual({ ok: false, reason: "limit" });
  });
});

describe("the address form on /market", () => {
  it.each([
    [{ name: "" }, "name", "请输入收件人姓名"],
    [{ phone: "" }, "phone", "请输入手机号"],
    [{ phone: "12345678901" }, "phone", "请输入正确的手机号"],
    [{ campus: "" }, "campus", "请选择校区"],
    [{ building: "" }, "building", "请选择宿舍楼栋"],
    [{ building: "1栋" }, "building", "请选择宿舍楼栋"], // a yuntang building on jinpenling
    [{ campus: "tianxin" }, "campus", "请选择校区"], // not open
    [{ room: "" }, "room", "请输入宿舍号"],
  ])("%o → %s: %s", async (change, field, message) => {
    const user = await createMessengerUser({ campus_code: "jinpenling" });
    const cookie = await sessionCookieFor(user.id);
    const fields = { intent: "save-address", name: "张三", phone: "13800138000", campus: "jinpenling", building: "西苑1栋", room: "302", ...change };
    const response = (await post(cookie, fields)) as Response;
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error[field]).toEqual([message]);
    expect(await listAddresses(user.id)).toEqual([]);
  });

  it("saves, selects the new address for the checkout, and goes back to the picker", async () => {
    const user = await createMessengerUser({ campus_code: "jinpenling" });
    const cookie = await sessionCookieFor(user.id);
    const response = (await post(cookie, {
      intent: "save-address",
      name: " 王五 ",
      phone: "13912345678",
      campus: "jinpenling",
      building: "西苑2栋",
      room: "101",
    })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/market/address");
    const [address] = await listAddresses(user.id);
    expect(address).toMatchObject({ name: "王五", building: "西苑2栋", room: "101", isDefault: true });
    const checkout = await db().selectFrom("checkouts").select("address_id").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(checkout.address_id).toBe(address!.id);
  });

  it("sends a visitor without the messenger identity to the authorization", async () => {
    const response = (await post("", { intent: "save-address", name: "x" })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/api/wechat/auth?redirect_url=%2Fmarket%2Faddress%2Fnew");
  });
});
