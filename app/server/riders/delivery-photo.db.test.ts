// The delivery photo (decision 047): 拍照送达 is a multipart form post from the rider's run (no
// JavaScript needed); the photo is checked (an image by its bytes, bounded in size), re-encoded
// and stored privately; only the order's student, the operators and the rider who carried the
// order may read it — a stranger, another student and another rider are refused, and the
// circle's /uploads route never serves it. Account deletion removes it with the order's personal data.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { riders as m } from "~/lib/messages/riders";
import { loader as adminPhoto } from "~/routes/admin.orders_.$number.photo";
import { action as pickAction } from "~/routes/admin.pick-list";
import { action as runAction } from "~/routes/admin.run";
import { loader as studentPhoto } from "~/routes/express.orders.$orderId_.photo";
import { loader as uploadsLoader } from "~/routes/uploads.$file";
import { toCard } from "~/server/admin/orders.server";
import { db } from "~/server/db/db.server";
import { moneyInvariantViolations } from "~/server/orders/invariants.server";
import { orderDetail } from "~/server/orders/orders.server";
import { fileStorage } from "~/server/storage/storage.server";
import { requestAccountDeletion, runAccountDeletionJob } from "~/server/users/deletion.server";
import { call, cookieValue, createStudent, request, sessionCookieFor } from "../../../tests/setup/helpers";
import { TOMORROW_SLOT, insertPaidTestOrder, signedInOperator } from "../../../tests/setup/orders";

const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };
const SLOT = TOMORROW_SLOT;

function post(fields: Record<string, string>, cookie: string) {
  return request("/admin/run", { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN } });
}

/** The browser's multipart post of the run's photo form. */
function postPhoto(order: string, data: Uint8Array | null, cookie: string, filename = "photo.jpg") {
  const form = new FormData();
  form.set("intent", "photo");
  form.set("order", order);
  form.set("slot", SLOT);
  if (data) form.set("photo", new File([new Uint8Array(data)], filename, { type: "image/jpeg" }));
  return request("/admin/run", { method: "POST", cookie, body: form, headers: { Accept: "text/html", ...SAME_ORIGIN } });
}

/** A paid order assigned to the rider and picked up: on its way, ready for 拍照送达. */
async function deliveringOrder(userId: number | null, riderCookie: string, riderId: number) {
  const row = await insertPaidTestOrder(undefined, { user_id: userId });
  const assigned = await call(
    pickAction,
    request("/admin/pick-list", { method: "POST", cookie: admin.cookie, body: new URLSearchParams({ intent: "assign", rider: String(riderId), order: row.order_number, slot: SLOT }), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...SAME_ORIGIN } }),
  );
  expect(assigned.status).toBe(302);
  await call(runAction, post({ intent: "pick", order: row.order_number, position: "0", picked: "1" }, riderCookie));
  return db().selectFrom("orders").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
}

let admin: Awaited<ReturnType<typeof signedInOperator>>;
let staff: Awaited<ReturnType<typeof signedInOperator>>;
let riderA: Awaited<ReturnType<typeof signedInOperator>>;
let riderB: Awaited<ReturnType<typeof signedInOperator>>;
let photo: Buffer;

beforeAll(async () => {
  admin = await signedInOperator("admin", "管理员");
  staff = await signedInOperator("operator", "客服");
  riderA = await signedInOperator("rider", "骑手甲");
  riderB = await signedInOperator("rider", "骑手乙");
  // A phone photo with EXIF (a GPS-bearing camera's metadata must not survive).
  photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: "#c08040" } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Make: "TestPhone" } } })
    .toBuffer();
});

const orderRow = (id: number) => db().selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("拍照送达", () => {
  it("completes the order with a photo posted without JavaScript, stored re-encoded without its metadata", async () => {
    const student = await createStudent();
    const order = await deliveringOrder(student.id, riderA.cookie, riderA.id);
    expect(order.status).toBe("delivering");
    const answer = await call(runAction, postPhoto(order.order_number, photo, riderA.cookie));
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toContain(`notice=delivered&order=${order.order_number}`);
    const done = await orderRow(order.id);
    expect(done).toMatchObject({ status: "completed", delivered_by: "photo" });
    expect(done.delivery_photo).toMatch(/^dp-[A-Za-z0-9_-]{22}\.jpg$/);
    const stored = await fileStorage().get(done.delivery_photo!);
    const meta = await sharp(stored!.data).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
    expect(await moneyInvariantViolations([order.id])).toEqual([]);
    // The student's page and the operator's card point at the private addresses.
    expect((await orderDetail(done)).delivery_photo_url).toBe(`/express/orders/${order.order_number}/photo`);
    expect(toCard(done).deliveryPhotoUrl).toBe(`/admin/orders/${order.order_number}/photo`);
  });

  it("refuses what is not an image, no photo at all, and another rider's order; nothing is stored and the order waits", async () => {
    const order = await deliveringOrder(null, riderA.cookie, riderA.id);
    const text = await call(runAction, postPhoto(order.order_number, new TextEncoder().encode("<svg onload=alert(1)>"), riderA.cookie, "x.jpg"));
    expect(text.status).toBe(400);
    expect(await text.json()).toEqual({ order: order.order_number, photo: true, message: m.photoNotImage });
    const none = await call(runAction, postPhoto(order.order_number, null, riderA.cookie));
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ order: order.order_number, photo: true, message: m.photoRequired });
    const other = await call(runAction, postPhoto(order.order_number, photo, riderB.cookie));
    expect(other.status).toBe(403);
    const tooBig = await call(runAction, postPhoto(order.order_number, new Uint8Array(10 * 1024 * 1024 + 1), riderA.cookie));
    expect(tooBig.status).toBe(413);
    expect(await orderRow(order.id)).toMatchObject({ status: "delivering", delivered_by: null, delivery_photo: null });
  });
});

describe("who may see the photo", () => {
  it("serves it to the order's student, the operators and the rider who took it; refuses everyone else", async () => {
    const owner = await createStudent();
    const other = await createStudent();
    const order = await deliveringOrder(owner.id, riderA.cookie, riderA.id);
    await call(runAction, postPhoto(order.order_number, photo, riderA.cookie));
    const name = (await orderRow(order.id)).delivery_photo!;
    const params = { orderId: order.order_number, number: order.order_number };
    const student = (cookie?: string) => call(studentPhoto, request(`/express/orders/${order.order_number}/photo`, { cookie }), params);
    // Like every /admin URL, the operators' address sends anyone without an operator session to the
    // operator login (a thrown redirect).
    const operator = (cookie?: string) => call(adminPhoto, request(`/admin/orders/${order.order_number}/photo`, { cookie }), params).catch((thrown: Response) => thrown);

    const mine = await student(await sessionCookieFor(owner.id));
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Content-Type")).toBe("image/jpeg");
    expect(mine.headers.get("Cache-Control")).toMatch(/^private/);
    expect(Buffer.from(await mine.arrayBuffer()).equals((await fileStorage().get(name))!.data)).toBe(true);
    expect((await student(await sessionCookieFor(other.id))).status).toBe(404);
    expect((await student()).status).toBe(401);
    for (const allowed of [admin, staff, riderA]) expect((await operator(allowed.cookie)).status, allowed.role).toBe(200);
    expect((await operator(riderB.cookie)).status).toBe(403);
    const anonymous = await operator();
    expect([anonymous.status, anonymous.headers.get("Location")]).toEqual([302, expect.stringMatching(/^\/admin\/login/)]);
    // A student's session opens no operator address, an operator's none of the student's.
    expect((await operator(await sessionCookieFor(owner.id))).status).toBe(302);
    expect((await student(admin.cookie)).status).toBe(401);
    // The circle's image route, open to every signed-in student, never serves a delivery photo.
    const circle = await call(uploadsLoader, request(`/uploads/${name}`, { cookie: await sessionCookieFor(other.id) }), { file: name }).catch((thrown: Response) => thrown);
    expect(circle.status).toBe(404);
  });

  it("goes with the order's personal data when the student's account is deleted", async () => {
    const owner = await createStudent();
    const order = await deliveringOrder(owner.id, riderA.cookie, riderA.id);
    await call(runAction, postPhoto(order.order_number, photo, riderA.cookie));
    const name = (await orderRow(order.id)).delivery_photo!;
    expect(await fileStorage().get(name)).not.toBeNull();
    await requestAccountDeletion(owner.id);
    await runAccountDeletionJob();
    expect((await orderRow(order.id)).delivery_photo).toBeNull();
    expect(await fileStorage().get(name)).toBeNull();
  });
});
