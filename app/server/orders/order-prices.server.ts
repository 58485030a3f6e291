// The unit prices an order was charged (0021_money_ledger): the order page's breakdown and the
// refund of a failed delivery read them.
import type { SizeCounts } from "~/lib/order-ledger";
import type { OrderRow } from "./events.server";

const SIZE_KEYS = ["pocket", "small", "medium", "large"] as const;

/** The unit prices the order was charged (0021_money_ledger), or null for older orders. */
export function unitPricesOf(order: Pick<OrderRow, "unit_prices">): Partial<SizeCounts> | null {
  if (!order.unit_prices) return null;
  try {
    const value = JSON.parse(order.unit_prices) as Record<string, unknown>;
    const prices: Partial<SizeCounts> = {};
    for (const size of SIZE_KEYS) if (Number.isInteger(value[size])) prices[size] = value[size] as number;
    return prices;
  } catch {
    return null;
  }
}

