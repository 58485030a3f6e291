// Orders straight in the e2e database (the orders, share, riders and delivery-proof specs), in the
// state a test needs.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";
import { insertSessionFor } from "./fixtures";

/** An order of this student straight in the e2e database, in the given state. */
export function insertOrder(userId: number, state: { status: string; payment: string }, codes = ["8-8-8001"]) {
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  try {
    const now = new Date();
    const iso = now.toISOString();
    const day = new Date(now.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
    const number = `E${day}${crypto.randomInt(1_000_000).toString().padStart(6, "0")}`;
    const items = codes.map((code) => ({ company: "中通快递", pickupCode: code, trackingNumber: "75312345678901", stationName: "梨园菜鸟驿站", pickupType: "code" }));
    database
      .prepare(
        `INSERT INTO orders (order_number, user_id, order_type, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, remark, original_fen, discount_fen, amount_fen, coupon_id, status, payment_status,
           estimated_delivery_at, expires_at, paid_at, completed_at, created_at, updated_at)
         VALUES (?, ?, 'express', 'jinpenling', '金盆岭校区', '李同学', '13900139000', '西苑2栋', '208', '金盆岭校区 西苑2栋208', ?, ?, ?, NULL, ?, 0, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        number,
        userId,
        JSON.stringify(items),
        JSON.stringify({ pocket: 0, small: codes.length, medium: 0, large: 0 }),
        codes.length,
        200 * codes.length,
        200 * codes.length,
        state.status,
        state.payment,
        new Date(now.getTime() + 3 * 3600_000).toISOString(),
        new Date(now.getTime() + 24 * 3600_000).toISOString(),
        state.payment === "paid" ? iso : null,
        state.status === "completed" ? iso : null,
        iso,
        iso,
      );
    return number;
  } finally {
    database.close();
  }
}

/**
 * A messenger student's order of one small parcel (6-2-1101), paid, in its own delivery slot so
 * that two journeys never share a pick list; with `riderUsername`, assigned to that rider with the
 * handover code 4821 (the assignment journey is riders.spec's). Returns the order's number, its
 * slot and the student's session cookie.
 */
export async function insertPaidOrder(options: { riderUsername?: string } = {}) {
  const tag = crypto.randomBytes(5).toString("hex");
  const at = new Date();
  const iso = at.toISOString();
  // Paid yesterday, and never through the simulated provider: today's reconciliation
  // (operators-day.spec, on the same server) compares the day's payments with that provider's
  // bill, which would miss this one.
  const paid = new Date(at.getTime() - 86_400_000).toISOString();
  const day = new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replaceAll("-", "");
  const number = `E${day}${String(crypto.randomInt(1_000_000)).padStart(6, "0")}`;
  const slot = new Date(Math.ceil(at.getTime() / 60_000) * 60_000 + crypto.randomInt(1, 600) * 60_000 + 3 * 3600_000).toISOString();
  const database = new Database(E2E_DB_FILE, { fileMustExist: true });
  database.pragma("busy_timeout = 5000");
  let userId: number;
  try {
    userId = (
      database
        .prepare(
          `INSERT INTO users (school_code, student_id, real_name, openid, wechat_nickname, wechat_authorized_at, student_bound_at, created_at, updated_at)
           VALUES ('demo', ?, '王小明', ?, '小明', ?, ?, ?, ?) RETURNING id`,
        )
        .get(`e2e${tag}`, `oE2E${tag}${"0".repeat(14)}`, iso, iso, iso, iso) as { id: number }
    ).id;
    const order = database
      .prepare(
        `INSERT INTO orders (order_number, user_id, campus_code, campus_name, recipient_name, recipient_phone, recipient_dorm, recipient_room,
           delivery_address, pickup_codes, package_counts, parcel_count, original_fen, amount_fen, status, payment_status,
           estimated_delivery_at, expires_at, paid_at, created_at, updated_at)
         VALUES (?, ?, 'jinpenling', '金盆岭校区', '王小明', '13800001234', '西苑2栋', '512', '金盆岭校区 西苑2栋512', ?, '{"pocket":0,"small":1}', 1, 200, 200,
           'paid', 'paid', ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        number,
        userId,
        JSON.stringify([{ company: "圆通速递", pickupCode: "6-2-1101", trackingNumber: null, stationName: "梨园菜鸟驿站", pickupType: "code", deadline: "今天18:00前", phoneTail: "0000" }]),
        slot,
        iso,
        paid,
        paid,
        iso,
      ) as { id: number };
    database
      .prepare(`INSERT INTO payments (order_id, provider, out_trade_no, amount_fen, state, success_time, created_at, updated_at) VALUES (?, 'simulated', ?, 200, 'paid', ?, ?, ?)`)
      .run(order.id, number, paid, paid, paid);
    if (options.riderUsername) {
      const rider = database.prepare(`SELECT id FROM operators WHERE username = ?`).get(options.riderUsername) as { id: number };
      database.prepare(`UPDATE orders SET rider_id = ?, status = 'assigned', handover_code = '4821' WHERE id = ?`).run(rider.id, order.id);
    }
  } finally {
    database.close();
  }
  return { number, slot, cookie: await insertSessionFor(userId) };
}
