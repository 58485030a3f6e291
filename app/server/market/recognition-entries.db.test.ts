// The recognised list as the student corrects it, on both dialects: a crafted variant of a code
// is the same parcel, any station can be typed, the station's deadline stays with the parcel and
// a screenshot read to check is cleared once the student saved it (docs/recognition.md).
import { describe, expect, it } from "vitest";
import { loader as marketLoader } from "~/routes/market._shell/route";
import { action as pageAction } from "~/routes/market._shell._index/route";
import { action as checkoutAction } from "~/routes/market._shell.checkout/route";
import { action as parcelAction } from "~/routes/market._shell.parcel.$id/route";
import { db } from "~/server/db/db.server";
import { call, createMessengerUser, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { addRecognized } from "./checkout-edits.server";
import { flagUnsure, recognizeText } from "./recognition.server";

const form = (fields: Record<string, string>, cookie: string, path = "/market?index") =>
  request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" } });

type Entry = { id: string; pickupCode: string | null; trackingNumber?: string | null; company: string; stationName: string; deadline?: string | null; check?: string | null; source: string };
async function signedIn() {
  const user = await createMessengerUser({ campus_code: "jinpenling" });
  return { user, cookie: await sessionCookieFor(user.id) };
}
const student = async () => (await signedIn()).cookie;
const entriesOf = async (cookie: string) => ((await (await call(marketLoader, request("/market", { cookie, headers: { Accept: "text/html" } }))).json()).checkout.entries as Entry[]);
const saveEntry = (cookie: string, fields: Record<string, string>) => call(parcelAction, form({ intent: "save-entry", ...fields }, cookie, "/market/parcel/new"));
const addEntries = (cookie: string, entries: unknown[]) => call(pageAction, form({ intent: "add-entries", entries: JSON.stringify(entries) }, cookie));

const SMS = "【菜鸟驿站】您的中通包裹已到梨园菜鸟驿站，请于今天18:00前凭6-2-1101取件。";

describe("correcting recognised parcels", () => {
  it("keeps the station's deadline on the entry", async () => {
    const cookie = await student();
    await call(pageAction, form({ intent: "recognize", text: SMS }, cookie));
    const [entry] = await entriesOf(cookie);
    expect(entry).toMatchObject({ pickupCode: "6-2-1101", stationName: "梨园菜鸟驿站", deadline: "今天18:00前" });
  });

  it("a crafted variant of a listed code is the same parcel, by hand or through the JSON list", async () => {
    const cookie = await student();
    await call(pageAction, form({ intent: "recognize", text: SMS }, cookie));
    for (const variant of ["6.2.1101", "6 2 1101", "６－２－１１０１", "6-2-\u200b1101"]) {
      const refused = await saveEntry(cookie, { company: "韵达快递", credential: variant, station: "梨园菜鸟驿站" });
      expect(refused.status, variant).toBe(400);
    }
    await addEntries(cookie, [{ pickupCode: "6.2.1101", company: "中通快递", stationName: "梨园菜鸟驿" }]);
    expect(await entriesOf(cookie)).toHaveLength(1);
  });

  it("the student types a station that is not one of the campus's places, and the entry keeps its deadline", async () => {
    const { user, cookie } = await signedIn();
    await call(pageAction, form({ intent: "recognize", text: SMS }, cookie));
    const [entry] = await entriesOf(cookie);
    const saved = await saveEntry(cookie, { entryId: entry!.id, company: "圆通速递", credential: "6-2-1101", station: "西区食堂旁快递点" });
    expect(saved.status).toBe(302);
    const [corrected] = await entriesOf(cookie);
    expect(corrected).toMatchObject({ company: "圆通速递", stationName: "西区食堂旁快递点", deadline: "今天18:00前", source: "manual" });
    const row = await db().selectFrom("checkouts").select("entries").where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.entries)[0]).toMatchObject({ stationName: "西区食堂旁快递点", check: null });
  });
});

describe("screenshot reads to check", () => {
  it("flags a code read on an unsure line, and a code shorter than its shape; a clean read is not flagged", () => {
    const entries = recognizeText("【菜鸟驿站】您的中通包裹已到西区驿站，凭1-2-30取件\n\n【圆通速递】您的快递已到东区快递点，取货码13-4-3448\n\n【韵达快递】凭6-28-9336到金正米业取件");
    const flagged = flagUnsure(entries, ["【韵达快递】凭6-28-9336到金正米业取件"]);
    expect(flagged.map((entry) => [entry.pickupCode, entry.check])).toEqual([
      ["1-2-30", "short-code"],
      ["13-4-3448", null],
      ["6-28-9336", "low-confidence"],
    ]);
  });

  it("a flagged entry saved by the student is no longer flagged", async () => {
    const { user, cookie } = await signedIn();
    // What the screenshot route adds: the flag travels with the recognised parcel.
    const [read] = flagUnsure(recognizeText("【菜鸟驿站】您的中通包裹已到西区驿站，凭1-2-30取件"), []);
    const types = (await (await call(marketLoader, request("/market", { cookie, headers: { Accept: "text/html" } }))).json()).config.packageTypes;
    await addRecognized(user.id, types, [read!]);
    const [entry] = await entriesOf(cookie);
    expect(entry).toMatchObject({ pickupCode: "1-2-30", check: "short-code", source: "image" });
    // Not billed silently: the confirm sheet does not open while a read is unchecked.
    const refused = await (await call(checkoutAction, form({ intent: "open-checkout" }, cookie, "/market/checkout"))).json();
    expect(refused.error).toBe("有快递的识别结果需要核对：请点开标着“请核对”的快递，确认无误后保存，再下单");
    await saveEntry(cookie, { entryId: entry!.id, company: "中通快递", credential: "1-2-3001", station: "西区驿站" });
    const [saved] = await entriesOf(cookie);
    expect(saved).toMatchObject({ pickupCode: "1-2-3001", check: null });
    const opened = await call(checkoutAction, form({ intent: "open-checkout" }, cookie, "/market/checkout"));
    expect(opened.status).toBe(302);
  });

  it("a pasted text with a waybill-long number where the code stands is listed to check, not billed", async () => {
    const cookie = await student();
    await call(pageAction, form({ intent: "recognize", text: "【中通快递】您的快递已到梨园菜鸟驿站，取件码773512306609841，请及时取件" }, cookie));
    const [entry] = await entriesOf(cookie);
    expect(entry).toMatchObject({ pickupCode: null, trackingNumber: "773512306609841", stationName: "梨园菜鸟驿站", check: "long-number", source: "text" });
    const refused = await (await call(checkoutAction, form({ intent: "open-checkout" }, cookie, "/market/checkout"))).json();
    expect(refused.error).toBe("有快递的识别结果需要核对：请点开标着“请核对”的快递，确认无误后保存，再下单");
    await saveEntry(cookie, { entryId: entry!.id, company: "中通快递", credential: "3-2-4410", station: "梨园菜鸟驿站" });
    expect((await entriesOf(cookie))[0]).toMatchObject({ pickupCode: "3-2-4410", check: null });
  });
});
