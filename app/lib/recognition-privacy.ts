// What the correction loop keeps of a student's message (decision 034): the one SMS the parcel
// came from, with personal data masked before it is stored, and the sender tag it is grouped by.
import { normalizeCredential } from "./pickup-entries";
import { normalizeText, splitMessages } from "./pickup-parser";

const MOBILE = /(?<![\dA-Za-z])(?:\+?86[ -]?)?(1[3-9]\d)[ -]?\d{4}[ -]?\d{4}(?![\dA-Za-z])/g;
// A person named after a role or a label ("快递员陈会洋", "收件人：张三", "【刘草环:…】"): surname kept.
const NAMED = /(快递员|派件员|收派员|配送员|投递员|驿站员|联系人|收件人|收货人|姓名|先生|女士)(\s?[:：]?\s?)([\u4e00-\u9fff])([\u4e00-\u9fff]{1,2})(?=[^\u4e00-\u9fff]|$|手机|电话|联系)/g;
// A name and a number in a tag ("【刘草环:15610177236】").
const NAME_BEFORE_PHONE = /(?<=【)([\u4e00-\u9fff])([\u4e00-\u9fff]{1,2})(\s?[:：]\s?)(?=1[3-9]\d)/g;

/** The message with every mobile number masked (1380000xxxx) and names after a role or before a phone reduced to the surname. */
export function maskPersonalData(text: string): string {
  return text
    .replace(NAME_BEFORE_PHONE, (_all, surname: string, _rest: string, colon: string) => `${surname}**${colon}`)
    .replace(MOBILE, (_all, head: string) => `${head}0000xxxx`)
    .replace(NAMED, (_all, role: string, gap: string, surname: string) => `${role}${gap}${surname}**`);
}

/** The sender tag of a message (【菜鸟驿站】 → 菜鸟驿站), its first or trailing one; "" when it has none. */
export function senderTag(message: string): string {
  const tags = [...normalizeText(message).matchAll(/【([^】\n]{1,24})】/g)].map((match) => match[1]!.trim());
  return tags[0] ?? "";
}

/**
 * The one SMS of a paste that a parcel came from: the message that holds its code (or tracking
 * number), else the paste's only message; null when it cannot be told. NFKC-normalised, as the
 * parser reads it.
 */
export function messageOf(paste: string, credential: string | null): string | null {
  const messages = splitMessages(paste);
  if (credential) {
    const wanted = normalizeCredential(credential, "tracking");
    const found = messages.find((message) => normalizeCredential(message, "tracking").includes(wanted));
    if (found) return found;
  }
  return messages.length === 1 ? messages[0]! : null;
}
