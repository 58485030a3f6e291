// Orders straight in the e2e database (the orders and share specs), in the state a test needs.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { E2E_DB_FILE } from "./env";

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
