// Money: every amount is an integer number of fen in the database, in the server and in loader
// data. This module is the one place that turns fen into yuan, for display (formatYuan) and for
// the product rules' JSON answers (fenToYuan), and typed yuan back into fen (parseYuan).
//
// The product rules write two kinds of amount, so the formatter has one named option for them:
// - "price" (default): what something costs, written as the product rules write its prices
//   ("Limits": "pocket 1.2, small 2, medium 3, large 4 yuan"): 1.2, 2, 0.01.
// - "amount": what an order charged, discounted, refunded or earned: always two decimals, 2.00,
//   as a till receipt shows it (the order pages, the pay page, the admin list, the CSV, messages).

export type YuanStyle = "price" | "amount";

export type YuanOptions = {
  /** "price" (default): 1.2 / 2 / 0.01. "amount": 1.20 / 2.00 / 0.01. */
  style?: YuanStyle;
  /** Prefix the yuan sign: ¥2.00. */
  symbol?: boolean;
};

/** The one yuan formatter: fen → "1.2" (price) or "1.20" (amount), optionally "¥…". */
export function formatYuan(fen: number, { style = "price", symbol = false }: YuanOptions = {}): string {
  const total = Math.round(fen);
  const sign = total < 0 ? "-" : "";
  const abs = Math.abs(total);
  const whole = Math.floor(abs / 100);
  const cents = abs % 100;
  let text: string;
  if (style === "amount") text = `${whole}.${String(cents).padStart(2, "0")}`;
  else if (cents === 0) text = String(whole);
  else if (cents % 10 === 0) text = `${whole}.${cents / 10}`;
  else text = `${whole}.${String(cents).padStart(2, "0")}`;
  return `${sign}${symbol ? "¥" : ""}${text}`;
}

/** fen → yuan as a number, for the product rules' JSON fields (price: 1.2, actual_amount: 12.5). */
export function fenToYuan(fen: number): number {
  return Math.round(fen) / 100;
}

/** What an operator may type as a price in yuan: up to 999.99, at most two decimals. */
export const YUAN_PATTERN = /^\d{1,3}(\.\d{1,2})?$/;

/** Typed yuan ("1.2", "0.05") → fen, rounded to the fen (no floating-point drift: "1.15" → 115). */
export function parseYuan(yuan: string | number): number {
  return Math.round(Number(yuan) * 100);
}
