// The cryptography of the messenger's pay API v3 (docs/protocols/messenger.md, "Pay API v3"):
//   - request signature: SHA256withRSA (merchant key), Base64, over METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n,
//     sent as Authorization: WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,timestamp=..,serial_no=..,signature=..
//   - paySign of the in-browser pay call: the same, over appId\ntimeStamp\nnonceStr\npackage\n
//   - verification of answers and notifications: Wechatpay-Timestamp/-Nonce/-Signature/-Serial over
//     TIMESTAMP\nNONCE\nBODY\n with the platform public key; 5 minutes of clock skew at most; the
//     provider's deliberate WECHATPAY/SIGNTEST/ probes refused
//   - AEAD_AES_256_GCM of a notification's resource with the 32-byte API v3 key
// Pure functions of their inputs (the clock can be passed in). Nothing here logs.
import crypto, { type KeyObject } from "node:crypto";
import type { PayParams } from "~/lib/pay-params";
import { NotificationError } from "./errors.server";

export const AUTH_SCHEMA = "WECHATPAY2-SHA256-RSA2048";
export const SIGNTEST_PREFIX = "WECHATPAY/SIGNTEST/";
/** Answers and notifications further than this from our clock are refused. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

export type PrivateKeyInput = KeyObject | string | Buffer;
export type PublicKeyInput = KeyObject | string | Buffer;

function privateKeyOf(key: PrivateKeyInput): KeyObject {
  return typeof key === "string" || Buffer.isBuffer(key) ? crypto.createPrivateKey(key) : key;
}

function publicKeyOf(key: PublicKeyInput): KeyObject {
  return typeof key === "string" || Buffer.isBuffer(key) ? crypto.createPublicKey(key) : key;
}

/** 32 random characters of [0-9A-Z], as the provider's own examples. */
export function randomNonce(length = 32): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  let nonce = "";
  for (const byte of crypto.randomBytes(length)) nonce += alphabet[byte % alphabet.length];
  return nonce;
}

export function unixSeconds(at: number = Date.now()): string {
  return String(Math.floor(at / 1000));
}

/** SHA256withRSA, Base64. */
export function signMessage(message: string, privateKey: PrivateKeyInput): string {
  return crypto.sign("sha256", Buffer.from(message, "utf8"), privateKeyOf(privateKey)).toString("base64");
}

/** SHA256withRSA verification of a Base64 signature; false (not a throw) for any malformed input. */
export function verifyMessage(message: string, signature: string, publicKey: PublicKeyInput): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) return false;
  try {
    return crypto.verify("sha256", Buffer.from(message, "utf8"), publicKeyOf(publicKey), Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

/** METHOD\nPATH?QUERY\nTIMESTAMP\nNONCE\nBODY\n — the body is "" for a GET. */
export function requestSignatureMessage(input: { method: string; pathWithQuery: string; timestamp: string; nonce: string; body: string }): string {
  return `${input.method.toUpperCase()}\n${input.pathWithQuery}\n${input.timestamp}\n${input.nonce}\n${input.body}\n`;
}

export type AuthorizationParts = { mchid: string; nonce_str: string; timestamp: string; serial_no: string; signature: string };

/** The Authorization header of one request to the pay API. */
export function buildAuthorization(input: {
  mchid: string;
  serialNo: string;
  privateKey: PrivateKeyInput;
  method: string;
  /** The URL's path and query exactly as sent ("/v3/…?mchid=…"). */
  pathWithQuery: string;
  body: string;
  timestamp?: string;
  nonce?: string;
}): string {
  const timestamp = input.timestamp ?? unixSeconds();
  const nonce = input.nonce ?? randomNonce();
  const signature = signMessage(
    requestSignatureMessage({ method: input.method, pathWithQuery: input.pathWithQuery, timestamp, nonce, body: input.body }),
    input.privateKey,
  );
  return `${AUTH_SCHEMA} mchid="${input.mchid}",nonce_str="${nonce}",timestamp="${timestamp}",serial_no="${input.serialNo}",signature="${signature}"`;
}

/** The parts of an Authorization header (what the pay API — and our fake of it — reads); null if it is not one. */
export function parseAuthorization(header: string | null | undefined): AuthorizationParts | null {
  if (!header || !header.startsWith(`${AUTH_SCHEMA} `)) return null;
  const parts: Record<string, string> = {};
  for (const match of header.slice(AUTH_SCHEMA.length + 1).matchAll(/(\w+)="([^"]*)"/g)) parts[match[1]] = match[2];
  const { mchid, nonce_str, timestamp, serial_no, signature } = parts;
  if (!mchid || !nonce_str || !timestamp || !serial_no || !signature) return null;
  return { mchid, nonce_str, timestamp, serial_no, signature };
}

// ---------------------------------------------------------------------------------------------
// The in-browser pay call

/** appId\ntimeStamp\nnonceStr\npackage\n */
export function paySignMessage(input: { appId: string; timeStamp: string; nonceStr: string; package: string }): string {
  return `${input.appId}\n${input.timeStamp}\n${input.nonceStr}\n${input.package}\n`;
}

/** The six strings for WeixinJSBridge.invoke('getBrandWCPayRequest', …). */
export function buildPayParams(input: {
  appId: string;
  prepayId: string;
  privateKey: PrivateKeyInput;
  timeStamp?: string;
  nonceStr?: string;
}): PayParams {
  const timeStamp = input.timeStamp ?? unixSeconds();
  const nonceStr = input.nonceStr ?? randomNonce();
  const pkg = `prepay_id=${input.prepayId}`;
  return {
    appId: input.appId,
    timeStamp,
    nonceStr,
    package: pkg,
    signType: "RSA",
    paySign: signMessage(paySignMessage({ appId: input.appId, timeStamp, nonceStr, package: pkg }), input.privateKey),
  };
}

// ---------------------------------------------------------------------------------------------
// Answers and notifications signed by the platform

export type HeadersLike = Headers | Record<string, string | string[] | undefined>;

export type WechatpayHeaders = { timestamp: string; nonce: string; signature: string; serial: string };

function header(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === wanted) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/** The four Wechatpay-* headers, or null when one is missing. */
export function readWechatpayHeaders(headers: HeadersLike): WechatpayHeaders | null {
  const timestamp = header(headers, "Wechatpay-Timestamp");
  const nonce = header(headers, "Wechatpay-Nonce");
  const signature = header(headers, "Wechatpay-Signature");
  const serial = header(headers, "Wechatpay-Serial");
  if (!timestamp || !nonce || !signature || !serial) return null;
  return { timestamp, nonce, signature, serial };
}

/** TIMESTAMP\nNONCE\nBODY\n */
export function responseSignatureMessage(input: { timestamp: string; nonce: string; body: string }): string {
  return `${input.timestamp}\n${input.nonce}\n${input.body}\n`;
}

/**
 * Verifies a platform-signed answer or notification; throws a NotificationError saying why not.
 * Order of checks: headers present, SIGNTEST probe, serial is our platform key, timestamp within
 * 5 minutes, signature.
 */
export function verifyWechatpaySignature(input: {
  headers: HeadersLike;
  body: string;
  publicKey: PublicKeyInput;
  /** The platform public key's id (PUB_KEY_ID_…) that Wechatpay-Serial must name. */
  publicKeyId: string;
  now?: number;
}): WechatpayHeaders {
  const signed = readWechatpayHeaders(input.headers);
  if (!signed) throw new NotificationError("MISSING_HEADERS");
  if (signed.signature.startsWith(SIGNTEST_PREFIX)) throw new NotificationError("SIGNTEST_PROBE");
  if (signed.serial !== input.publicKeyId) throw new NotificationError("UNKNOWN_SERIAL");
  if (!/^\d{1,12}$/.test(signed.timestamp)) throw new NotificationError("STALE_TIMESTAMP", "not a unix timestamp");
  const skew = Math.abs(Math.floor((input.now ?? Date.now()) / 1000) - Number(signed.timestamp));
  if (skew > MAX_CLOCK_SKEW_SECONDS) throw new NotificationError("STALE_TIMESTAMP");
  const message = responseSignatureMessage({ timestamp: signed.timestamp, nonce: signed.nonce, body: input.body });
  if (!verifyMessage(message, signed.signature, input.publicKey)) throw new NotificationError("BAD_SIGNATURE");
  return signed;
}

/** The Wechatpay-* headers the platform puts on a body (for the fake pay server and tests). */
export function signAsPlatform(input: {
  body: string;
  privateKey: PrivateKeyInput;
  publicKeyId: string;
  timestamp?: string;
  nonce?: string;
}): Record<"Wechatpay-Timestamp" | "Wechatpay-Nonce" | "Wechatpay-Signature" | "Wechatpay-Serial", string> {
  const timestamp = input.timestamp ?? unixSeconds();
  const nonce = input.nonce ?? randomNonce();
  return {
    "Wechatpay-Timestamp": timestamp,
    "Wechatpay-Nonce": nonce,
    "Wechatpay-Signature": signMessage(responseSignatureMessage({ timestamp, nonce, body: input.body }), input.privateKey),
    "Wechatpay-Serial": input.publicKeyId,
  };
}

// ---------------------------------------------------------------------------------------------
// AEAD_AES_256_GCM

export const RESOURCE_ALGORITHM = "AEAD_AES_256_GCM";
const TAG_LENGTH = 16;

export type EncryptedResource = {
  algorithm: string;
  /** Base64 of ciphertext‖16-byte tag. */
  ciphertext: string;
  nonce: string;
  associated_data?: string;
  original_type?: string;
};

function apiV3KeyOf(key: Buffer | string): Buffer {
  const bytes = typeof key === "string" ? Buffer.from(key, "utf8") : key;
  if (bytes.length !== 32) throw new NotificationError("UNDECRYPTABLE", "the API v3 key must be 32 bytes");
  return bytes;
}

/** The plaintext of a notification's resource; NotificationError UNDECRYPTABLE for any failure. */
export function decryptResource(resource: EncryptedResource, apiV3Key: Buffer | string): string {
  if (resource.algorithm !== RESOURCE_ALGORITHM) throw new NotificationError("UNDECRYPTABLE", "unsupported algorithm");
  const key = apiV3KeyOf(apiV3Key);
  const data = Buffer.from(resource.ciphertext ?? "", "base64");
  if (data.length < TAG_LENGTH || !resource.nonce) throw new NotificationError("UNDECRYPTABLE", "ciphertext too short");
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(resource.nonce, "utf8"), { authTagLength: TAG_LENGTH });
    decipher.setAuthTag(data.subarray(data.length - TAG_LENGTH));
    decipher.setAAD(Buffer.from(resource.associated_data ?? "", "utf8"));
    return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_LENGTH)), decipher.final()]).toString("utf8");
  } catch {
    throw new NotificationError("UNDECRYPTABLE");
  }
}

/** The platform's side (for the fake pay server and tests): a resource as a notification carries it. */
export function encryptResource(
  plaintext: string,
  apiV3Key: Buffer | string,
  options: { nonce?: string; associatedData?: string; originalType?: string } = {},
): EncryptedResource {
  const key = apiV3KeyOf(apiV3Key);
  const nonce = options.nonce ?? randomNonce(12);
  const associatedData = options.associatedData ?? "";
  const cipher = crypto.createCipheriv("aes-256-gcm", key, Buffer.from(nonce, "utf8"), { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(associatedData, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final(), cipher.getAuthTag()]).toString("base64");
  return {
    algorithm: RESOURCE_ALGORITHM,
    ciphertext,
    nonce,
    associated_data: associatedData,
    ...(options.originalType ? { original_type: options.originalType } : {}),
  };
}
