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

/** "138****8000" for lists. */
export function maskPhone(phone: string) {
  return /^\d{11}$/.test(phone) ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
