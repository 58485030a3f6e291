import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { S3Client } from "@aws-sdk/client-s3";
import { config, type S3UploadsConfig, type UploadsConfig } from "../config.server";

/**
 * Where uploaded files live. The app only ever talks to this interface: a folder on this machine
 * (the default) or an S3-compatible bucket (S3, Tencent COS, Aliyun OSS, MinIO), chosen by
 * configuration (fileStorage()). Names are ours (a random key and a suffix), never a client's.
 */
export interface FileStorage {
  readonly kind: "local" | "s3";
  /** Stores the whole file under the name or fails leaving nothing behind. */
  put(name: string, data: Buffer, contentType: string): Promise<void>;
  get(name: string): Promise<{ data: Buffer; contentType: string } | null>;
  /** Removes the file; a missing one is fine. */
  remove(name: string): Promise<void>;
  /** Readiness: writes and deletes a small file; throws when either fails. */
  probe(): Promise<void>;
  /**
   * Where to send a browser instead of serving the file ourselves, if anywhere: the public bucket
   * (permanent) or a presigned GET of a private one (for a while).
   */
  publicUrl(name: string, at?: Date): { url: string; permanent: boolean } | null;
}

/**
 * Files never change under a name, so a browser may keep them; shared caches never do (circle
 * images are for signed-in students, decision 042). Sent by the bucket with presigned reads.
 */
export const IMMUTABLE_CACHE = "private, max-age=31536000, immutable";

const NAME = /^[A-Za-z0-9_-]+(\.[a-z0-9]+)*$/;
const TYPES: Record<string, string> = { ".jpg": "image/jpeg" };

export class BadFileName extends Error {}

function checkName(name: string) {
  if (!NAME.test(name) || name.length > 100) throw new BadFileName("bad file name");
}

function probeName() {
  return `readyz-${crypto.randomBytes(8).toString("hex")}.probe`;
}

/** Files in one folder on this machine (./data/uploads by default). */
export class LocalDiskStorage implements FileStorage {
  readonly kind = "local";
  constructor(readonly dir: string) {}

  async put(name: string, data: Buffer) {
    checkName(name);
    await fs.mkdir(this.dir, { recursive: true });
    // Write a temporary file, then rename it: a reader never sees half a file, and a failed
    // write (a full disk) removes its temporary file instead of leaving a 0-byte one behind.
    const temp = path.join(this.dir, `.${name}.${crypto.randomBytes(6).toString("hex")}.tmp`);
    try {
      await fs.writeFile(temp, data, { flag: "wx" });
      await fs.rename(temp, path.join(this.dir, name));
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      throw error;
    }
  }

  async get(name: string) {
    checkName(name);
    try {
      const data = await fs.readFile(path.join(this.dir, name));
      return { data, contentType: TYPES[path.extname(name)] ?? "application/octet-stream" };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return null;
      throw error;
    }
  }

  async remove(name: string) {
    checkName(name);
    await fs.rm(path.join(this.dir, name), { force: true });
  }

  async probe() {
    const name = probeName();
    await this.put(name, Buffer.from("ok"));
    await this.remove(name);
  }

  publicUrl() {
    return null;
  }
}

/** Objects in an S3-compatible bucket; an object appears whole or not at all (PutObject is atomic). */
export class S3Storage implements FileStorage {
  readonly kind = "s3";
  private client: Promise<{ client: S3Client; sdk: typeof import("@aws-sdk/client-s3") }> | undefined;

  constructor(readonly settings: S3UploadsConfig) {}

  private async sdk() {
    // Loaded on first use, so a server on local disk never loads the SDK.
    this.client ??= import("@aws-sdk/client-s3").then((sdk) => {
      const { endpoint, region, accessKeyId, secretAccessKey, forcePathStyle } = this.settings;
      const client = new sdk.S3Client({
        endpoint,
        region,
        forcePathStyle,
        credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
        maxAttempts: 3,
        // COS, OSS and older MinIO reject the SDK's newer default checksum headers; S3 does not need them.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
      });
      return { client, sdk };
    });
    return this.client;
  }

  private key(name: string) {
    checkName(name);
    return `${this.settings.prefix}${name}`;
  }

  async put(name: string, data: Buffer, contentType: string) {
    const { client, sdk } = await this.sdk();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.key(name),
        Body: data,
        ContentType: contentType,
        ContentLength: data.length,
        CacheControl: IMMUTABLE_CACHE,
      }),
    );
  }

  async get(name: string) {
    const { client, sdk } = await this.sdk();
    try {
      const answer = await client.send(new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(name) }));
      const data = Buffer.from(await answer.Body!.transformToByteArray());
      return { data, contentType: answer.ContentType ?? TYPES[path.extname(name)] ?? "application/octet-stream" };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async remove(name: string) {
    const { client, sdk } = await this.sdk();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(name) }));
  }

  async probe() {
    const name = probeName();
    await this.put(name, Buffer.from("ok"), "text/plain");
    await this.remove(name);
  }

  publicUrl(name: string, at = new Date()) {
    const base = this.settings.publicBaseUrl;
    if (base) return { url: `${base}/${this.key(name)}`, permanent: true };
    return this.settings.signedUrls ? { url: presignGet(this.settings, this.key(name), at), permanent: false } : null;
  }
}

/** How long a presigned GET lives; signed at the start of the hour, so one URL serves a whole hour (and is cached). */
export const SIGNED_URL_SECONDS = 2 * 60 * 60;

const sha256Hex = (data: string) => crypto.createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => crypto.createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as Signature V4 wants it. */
function uriEncode(value: string, keepSlash: boolean) {
  return Array.from(Buffer.from(value, "utf8"))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === "/") ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    })
    .join("");
}

/**
 * A presigned GET (AWS Signature V4 in the query string, UNSIGNED-PAYLOAD, host the only signed
 * header) of one object in the configured bucket, signed at the start of the hour of `at`.
 */
export function presignGet(settings: S3UploadsConfig, key: string, at = new Date()) {
  const { bucket, region, accessKeyId, secretAccessKey, endpoint, forcePathStyle } = settings;
  if (!accessKeyId || !secretAccessKey) throw new Error("signed URLs need the bucket's key pair");
  const base = new URL(endpoint ?? `https://s3.${region}.amazonaws.com`);
  const host = forcePathStyle ? base.host : `${bucket}.${base.host}`;
  const path = `${base.pathname.replace(/\/+$/, "")}${forcePathStyle ? `/${bucket}` : ""}/${key}`;
  const canonicalUri = uriEncode(path, true);
  const hour = new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000);
  const amzDate = hour.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${region}/s3/aws4_request`;
  const query: [string, string][] = [
    ["X-Amz-Algorithm", "AWS4-HMAC-SHA256"],
    ["X-Amz-Credential", `${accessKeyId}/${scope}`],
    ["X-Amz-Date", amzDate],
    ["X-Amz-Expires", String(SIGNED_URL_SECONDS)],
    ["X-Amz-SignedHeaders", "host"],
  ];
  const canonicalQuery = query
    .map(([name, value]) => `${uriEncode(name, false)}=${uriEncode(value, false)}`)
    .sort()
    .join("&");
  const canonicalRequest = ["GET", canonicalUri, canonicalQuery, `host:${host}\n`, "host", "UNSIGNED-PAYLOAD"].join("\n");
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), "s3"), "aws4_request");
  const signature = hmac(signingKey, stringToSign).toString("hex");
  return `${base.protocol}//${host}${canonicalUri}?${canonicalQuery}&X-Amz-Signature=${signature}`;
}

/** The storage a configuration names (tests build one from a parsed configuration). */
export function createFileStorage(settings: UploadsConfig): FileStorage {
  return settings.kind === "s3" ? new S3Storage(settings) : new LocalDiskStorage(settings.dir);
}

let instance: { settings: UploadsConfig; storage: FileStorage } | undefined;

export function fileStorage(): FileStorage {
  const settings = config().uploads;
  if (instance?.settings !== settings) instance = { settings, storage: createFileStorage(settings) };
  return instance.storage;
}
