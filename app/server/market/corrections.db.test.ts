// The recognition correction loop on both dialects (decision 034): consent asked once, the masked
// original kept when a student corrects a recognised parcel or types one after recognition found
// nothing, /admin/recognition grouped by sender tag, 90-day expiry, deleted with the account.
import { describe, expect, it } from "vitest";
import { loader as adminLoader } from "~/routes/admin.recognition";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as pageAction } from "~/routes/market._shell._index/route";
import { action as parcelAction, loader as parcelLoader } from "~/routes/market._shell.parcel.$id/route";
import { createOperator, createOperatorSession } from "~/server/auth/operator.server";
import { db } from "~/server/db/db.server";
import { deleteUserData } from "~/server/users/deletion.server";
import { cookieValue, createMessengerUser, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { expireCorrections } from "./corrections.server";

type Args = { request: Request; params: Record<string, string>; context: object };
async function call(fn: (a: Args) => Promise<unknown>, req: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    const result = await fn({ request: req, params, context: {} });
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
const form = (fields: Record<string, string>, cookie: string, path = "/market?index") =>
  request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" } });

async function signedIn() {
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  return { user, cookie: await sessionCookieFor(user.id) };
}
const entriesOf = async (cookie: string) => (await (await call(marketLoader as never, request("/market", { cookie, headers: { Accept: "text/html" } }))).json()).checkout.entries as { id: string; pickupCode: string }[];
const dialog = async (cookie: string, id: string) => (await call(parcelLoader as never, request(`/market/parcel/${id}`, { cookie, headers: { Accept: "text/html" } }), { id })).json();
const save = (cookie: string, fields: Record<string, string>) => call(parcelAction as never, form({ intent: "save-entry", ...fields }, cookie, "/market/parcel/new"));
async function adminGroups() {
  const operator = await createOperator({ username: `rec${Date.now()}${Math.floor(Math.random() * 1000)}`, password: "operator-password-1", displayName: "运营" });
  const { setCookie } = await createOperatorSession(operator.id);
  return (await (await call(adminLoader as never, request("/admin/recognition", { cookie: cookieValue(setCookie) }))).json()).groups as { senderTag: string; rows: { original: string; recognized: { pickupCode: string; stationName: string } | null; entered: { stationName: string } }[] }[];
}

const SMS = "【妈妈驿站】取货码TK2201,快递已到东区圆通如拒签请回电,投诉电话13726410547,快递员陈会洋";

describe("the correction loop", () => {
  it("asks once, keeps the masked original of a corrected parcel, and shows it grouped by sender tag", async () => {
    const { user, cookie } = await signedIn();
    await call(pageAction as never, form({ intent: "recognize", text: SMS }, cookie));
    const [entry] = await entriesOf(cookie);
    expect((await dialog(cookie, entry!.id)).askConsent).toBe(true);
    const saved = await save(cookie, { entryId: entry!.id, credential: "TK2201", company: "圆通速递", station: "东区圆通快递点", consentAsked: "1", shareOriginal: "on" });
    expect(saved.status).toBe(302);
    expect((await dialog(cookie, entry!.id)).askConsent).toBe(false);
    const rows = await db().selectFrom("recognition_corrections").selectAll().where("user_id", "=", user.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sender_tag).toBe("妈妈驿站");
    expect(rows[0]!.original).toContain("1370000xxxx");
    expect(rows[0]!.original).toContain("快递员陈**");
    expect(rows[0]!.original).not.toContain("13726410547");
    const group = (await adminGroups()).find((item) => item.senderTag === "妈妈驿站");
    expect(group?.rows.some((row) => row.recognized?.stationName === "东区圆通" && row.entered.stationName === "东区圆通快递点")).toBe(true);
  });

  it("keeps nothing without consent, and does not ask again", async () => {
    const { user, cookie } = await signedIn();
    await call(pageAction as never, form({ intent: "recognize", text: SMS }, cookie));
    const [entry] = await entriesOf(cookie);
    await save(cookie, { entryId: entry!.id, credential: "TK2201", company: "圆通速递", station: "东区圆通快递点", consentAsked: "1" });
    expect((await dialog(cookie, entry!.id)).askConsent).toBe(false);
    expect(await db().selectFrom("recognition_corrections").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("keeps the message when recognition found nothing and the parcel was typed by hand", async () => {
    const { user, cookie } = await signedIn();
    const missed = "【校园快递】同学你好，你的快递到了，号码是 7781，在二食堂门口拿";
    await call(pageAction as never, form({ intent: "recognize", text: missed }, cookie));
    expect(await entriesOf(cookie)).toHaveLength(0);
    await save(cookie, { credential: "7781", company: "中通快递", station: "二食堂门口", consentAsked: "1", shareOriginal: "on" });
    const [row] = await db().selectFrom("recognition_corrections").selectAll().where("user_id", "=", user.id).execute();
    expect(row).toMatchObject({ sender_tag: "校园快递", recognized: "null" });
  });

  it("rows older than 90 days expire, and a deleted account takes its rows and its answer", async () => {
    const { user, cookie } = await signedIn();
    await call(pageAction as never, form({ intent: "recognize", text: SMS }, cookie));
    const [entry] = await entriesOf(cookie);
    await save(cookie, { entryId: entry!.id, credential: "TK2201", company: "圆通速递", station: "东区圆通快递点", consentAsked: "1", shareOriginal: "on" });
    await db().updateTable("recognition_corrections").set({ created_at: new Date(Date.now() - 91 * 86_400_000).toISOString() }).where("user_id", "=", user.id).execute();
    await expireCorrections();
    expect(await db().selectFrom("recognition_corrections").select("id").where("user_id", "=", user.id).execute()).toEqual([]);

    await save(cookie, { entryId: entry!.id, credential: "TK2201", company: "圆通速递", station: "东区圆通服务点" });
    await deleteUserData(db(), user.id);
    expect(await db().selectFrom("recognition_corrections").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    expect(await db().selectFrom("recognition_consents").select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("/admin/recognition is for operators: anonymous visitors and students get the operator login, never a message", async () => {
    const { cookie } = await signedIn();
    for (const who of [undefined, cookie]) {
      const response = await call(adminLoader as never, request("/admin/recognition", { cookie: who }));
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toMatch(/^\/admin\/login/);
    }
  });
});
