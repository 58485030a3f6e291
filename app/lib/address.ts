// A saved delivery address as the pages show it. The composed text is defined here, once.

export type AddressView = {
  id: number;
  name: string;
  phone: string;
  campusCode: string;
  campusName: string;
  building: string;
  room: string;
  isDefault: boolean;
};

/** campus + space + building + room: "金盆岭校区 西苑1栋302". */
export function composeAddress(address: { campusName: string; building: string; room: string }) {
  return `${address.campusName} ${address.building}${address.room}`;
}

/**
 * The delivery address of an order as every view shows it (docs/architecture.md "Parcels"): the snapshot
 * taken when the order was made; only an order without one is composed from its columns.
 */
export function orderAddress(order: { delivery_address: string | null; campus_name: string; recipient_dorm: string | null; recipient_room: string | null }) {
  return order.delivery_address ?? [order.campus_name, `${order.recipient_dorm ?? ""}${order.recipient_room ?? ""}`].filter(Boolean).join(" ");
}

/** "138****8000" for lists. */
export function maskPhone(phone: string) {
  return /^\d{11}$/.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

/** The HTML `pattern` attribute of a phone field (the browser anchors it): the same rule as PHONE_PATTERN. */
export const PHONE_INPUT_PATTERN = "1[3-9][0-9]{9}";
export const PHONE_PATTERN = new RegExp(`^${PHONE_INPUT_PATTERN}$`);
