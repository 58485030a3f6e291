// A fake S3-compatible object store on loopback (node:http), speaking the parts of the S3 REST
// API the app uses, path-style (http://127.0.0.1:port/<bucket>/<key>):
//   PUT    /<bucket>/<key>   body → 200 with ETag; keeps Content-Type and Cache-Control
//   GET    /<bucket>/<key>   → 200 with the body and those headers, or 404 <Code>NoSuchKey</Code>
//   HEAD   /<bucket>/<key>   → 200 or 404
//   DELETE /<bucket>/<key>   → 204 (also for a missing key, as S3 answers)
// Every request must carry a valid AWS Signature Version 4 (Authorization: AWS4-HMAC-SHA256
// Credential=<key id>/<date>/<region>/s3/aws4_request, SignedHeaders=…, Signature=…) for the
// fake's key pair: the canonical request is rebuilt from what arrived and signed again; a wrong
// signature, key id, region or payload hash answers 403 with S3's error codes. An unknown bucket
// answers 404 NoSuchBucket. A GET may instead be presigned (X-Amz-Signature and the rest in the
// query string, checked the same way, refused once X-Amz-Date + X-Amz-Expires has passed). Failure modes: `down` (every request 503), `failPuts(match)` (puts of
// matching keys answer 500 InternalError, like a full disk behind the store).
// Tests point the app at it with UPLOADS_S3_* variables (s3Env below).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type StoredObject = { data: Buffer; contentType: string; cacheControl: string | null };

export interface FakeS3 {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket/key → object. */
  objects: Map<string, StoredObject>;
  /** Every request that arrived: method, key, status answered. */
  requests: { method: string; key: string; status: number }[];
  /** Requests refused for their signature. */
  rejectedSignatures: number;
  /** While true every request answers 503 (the store is unreachable in effect). */
  down: boolean;
  /** Puts of keys matching this answer 500 InternalError (null: none). */
  failPuts: RegExp | null;
  close(): Promise<void>;
}

export type FakeS3Options = { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string };

const sha256 = (data: string | Buffer) => crypto.createHash("sha256").update(data).digest("hex");
const hmac = (key: Buffer | string, data: string) => crypto.createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (unreserved characters kept). */
function uriEncode(value: string, keepSlash: boolean) {
  let out = "";
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === "/")) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function xmlError(res: http.ServerResponse, status: number, code: string, message: string) {
  res.writeHead(status, { "Content-Type": "application/xml" });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

type Verdict = { ok: true } | { ok: false; code: string; message: string };

function canonicalQueryOf(query: URLSearchParams, without?: string) {
  return [...query.entries()]
    .filter(([name]) => name !== without)
    .map(([name, value]) => [uriEncode(name, false), uriEncode(value, false)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

function canonicalHeadersOf(req: http.IncomingMessage, names: string[]) {
  return names
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(",") : (value ?? "");
      return `${name}:${text.trim().replace(/\s+/g, " ")}\n`;
    })
    .join("");
}

function amzTime(amzDate: string) {
  return Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`);
}

function signatureOf(secret: string, date: string, region: string, amzDate: string, canonicalRequest: string) {
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), "s3"), "aws4_request");
  return hmac(signingKey, stringToSign).toString("hex");
}

/** A presigned GET/HEAD: the signature, credential, date and expiry in the query (X-Amz-*), UNSIGNED-PAYLOAD. */
function verifyPresigned(req: http.IncomingMessage, rawPath: string, query: URLSearchParams, options: Required<FakeS3Options>): Verdict {
  if (query.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256") return { ok: false, code: "AuthorizationQueryParametersError", message: "unsupported algorithm" };
  const credential = /^([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request$/.exec(query.get("X-Amz-Credential") ?? "");
  if (!credential) return { ok: false, code: "AuthorizationQueryParametersError", message: "malformed credential" };
  const [, keyId, date, region] = credential as unknown as [string, string, string, string];
  if (keyId !== options.accessKeyId) return { ok: false, code: "InvalidAccessKeyId", message: "unknown access key" };
  if (region !== options.region) return { ok: false, code: "AuthorizationQueryParametersError", message: "wrong region" };
  const amzDate = query.get("X-Amz-Date") ?? "";
  const expires = Number(query.get("X-Amz-Expires"));
  if (!amzDate.startsWith(date) || !(expires > 0 && expires <= 604_800)) return { ok: false, code: "AuthorizationQueryParametersError", message: "bad date or expiry" };
  if (Date.now() > amzTime(amzDate) + expires * 1000) return { ok: false, code: "AccessDenied", message: "Request has expired" };
  const signedHeaders = query.get("X-Amz-SignedHeaders") ?? "";
  const names = signedHeaders.split(";");
  if (!names.includes("host")) return { ok: false, code: "AccessDenied", message: "host must be signed" };
  const canonicalRequest = [req.method, rawPath, canonicalQueryOf(query, "X-Amz-Signature"), canonicalHeadersOf(req, names), signedHeaders, "UNSIGNED-PAYLOAD"].join("\n");
  const expected = signatureOf(options.secretAccessKey, date, region, amzDate, canonicalRequest);
  const given = query.get("X-Amz-Signature") ?? "";
  if (given.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(given))) {
    return { ok: false, code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." };
  }
  return { ok: true };
}

/** Checks the request's SigV4 signature against the fake's secret; S3 uses the path as sent (no double encoding). */
function verifySignature(req: http.IncomingMessage, rawPath: string, query: URLSearchParams, body: Buffer, options: Required<FakeS3Options>): Verdict {
  const authorization = req.headers.authorization ?? "";
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return { ok: false, code: "AccessDenied", message: "missing or malformed Authorization" };
  const [, keyId, date, region, signedHeaders, signature] = match as unknown as [string, string, string, string, string, string];
  if (keyId !== options.accessKeyId) return { ok: false, code: "InvalidAccessKeyId", message: "unknown access key" };
  if (region !== options.region) return { ok: false, code: "AuthorizationHeaderMalformed", message: "wrong region" };
  const amzDate = String(req.headers["x-amz-date"] ?? "");
  if (!amzDate.startsWith(date)) return { ok: false, code: "AccessDenied", message: "x-amz-date does not match the credential date" };
  const skew = Math.abs(Date.parse(`${amzDate.slice(0, 4)}-${amzDate.slice(4, 6)}-${amzDate.slice(6, 8)}T${amzDate.slice(9, 11)}:${amzDate.slice(11, 13)}:${amzDate.slice(13, 15)}Z`) - Date.now());
  if (!(skew < 15 * 60_000)) return { ok: false, code: "RequestTimeTooSkewed", message: "request time too skewed" };
  const payloadHash = String(req.headers["x-amz-content-sha256"] ?? "");
  if (payloadHash !== "UNSIGNED-PAYLOAD" && payloadHash !== sha256(body)) {
    return { ok: false, code: "XAmzContentSHA256Mismatch", message: "payload hash mismatch" };
  }
  const names = signedHeaders.split(";");
  if (!names.includes("host")) return { ok: false, code: "AccessDenied", message: "host must be signed" };
  const canonicalHeaders = names
    .map((name) => {
      const value = req.headers[name];
      const text = Array.isArray(value) ? value.join(",") : (value ?? "");
      return `${name}:${text.trim().replace(/\s+/g, " ")}\n`;
    })
    .join("");
  const canonicalQuery = [...query.entries()]
    .map(([name, value]) => [uriEncode(name, false), uriEncode(value, false)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const canonicalRequest = [req.method, rawPath, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, date), region), "s3"), "aws4_request");
  const expected = hmac(signingKey, stringToSign).toString("hex");
  if (!crypto.timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return { ok: false, code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." };
  }
  return { ok: true };
}

export async function startFakeS3(options: FakeS3Options = {}): Promise<FakeS3> {
  const settings: Required<FakeS3Options> = {
    bucket: options.bucket ?? "campus-uploads",
    region: options.region ?? "ap-shanghai",
    accessKeyId: options.accessKeyId ?? `AKIDFAKE${crypto.randomBytes(6).toString("hex").toUpperCase()}`,
    secretAccessKey: options.secretAccessKey ?? crypto.randomBytes(24).toString("base64url"),
  };
  const fake = {
    url: "",
    ...settings,
    objects: new Map<string, StoredObject>(),
    requests: [] as FakeS3["requests"],
    rejectedSignatures: 0,
    down: false,
    failPuts: null as RegExp | null,
    close: async (): Promise<void> => undefined,
  } satisfies FakeS3;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const [rawPath = "/", rawQuery = ""] = (req.url ?? "/").split("?");
      const query = new URLSearchParams(rawQuery);
      const segments = rawPath.split("/");
      const bucket = decodeURIComponent(segments[1] ?? "");
      const key = decodeURIComponent(segments.slice(2).join("/"));
      const answer = (status: number) => fake.requests.push({ method: req.method ?? "", key, status });
      if (fake.down) {
        answer(503);
        return xmlError(res, 503, "ServiceUnavailable", "down");
      }
      const presigned = query.has("X-Amz-Signature");
      const verdict =
        presigned && (req.method === "GET" || req.method === "HEAD") ? verifyPresigned(req, rawPath, query, settings) : verifySignature(req, rawPath, query, body, settings);
      if (!verdict.ok) {
        fake.rejectedSignatures += 1;
        answer(403);
        return xmlError(res, 403, verdict.code, verdict.message);
      }
      if (bucket !== settings.bucket) {
        answer(404);
        return xmlError(res, 404, "NoSuchBucket", "The specified bucket does not exist");
      }
      if (!key) {
        answer(400);
        return xmlError(res, 400, "InvalidRequest", "only object requests are supported");
      }
      const id = `${bucket}/${key}`;
      if (req.method === "PUT") {
        if (fake.failPuts?.test(key)) {
          answer(500);
          return xmlError(res, 500, "InternalError", "We encountered an internal error. Please try again.");
        }
        const contentType = String(req.headers["content-type"] ?? "binary/octet-stream");
        const cacheControl = req.headers["cache-control"] ? String(req.headers["cache-control"]) : null;
        fake.objects.set(id, { data: body, contentType, cacheControl });
        answer(200);
        res.writeHead(200, { ETag: `"${crypto.createHash("md5").update(body).digest("hex")}"` });
        return res.end();
      }
      if (req.method === "GET" || req.method === "HEAD") {
        const object = fake.objects.get(id);
        if (!object) {
          answer(404);
          if (req.method === "HEAD") return res.writeHead(404).end();
          return xmlError(res, 404, "NoSuchKey", "The specified key does not exist.");
        }
        answer(200);
        res.writeHead(200, {
          "Content-Type": object.contentType,
          "Content-Length": String(object.data.length),
          ...(object.cacheControl ? { "Cache-Control": object.cacheControl } : {}),
          ETag: `"${crypto.createHash("md5").update(object.data).digest("hex")}"`,
        });
        return res.end(req.method === "HEAD" ? undefined : object.data);
      }
      if (req.method === "DELETE") {
        fake.objects.delete(id);
        answer(204);
        return res.writeHead(204).end();
      }
      answer(405);
      return xmlError(res, 405, "MethodNotAllowed", "The specified method is not allowed against this resource.");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The app's environment for storing uploads in the fake (path-style, its key pair). */
export function s3Env(fake: FakeS3, extra: { prefix?: string; publicBaseUrl?: string } = {}): Record<string, string> {
  return {
    UPLOADS_S3_BUCKET: fake.bucket,
    UPLOADS_S3_ENDPOINT: fake.url,
    UPLOADS_S3_REGION: fake.region,
    UPLOADS_S3_ACCESS_KEY_ID: fake.accessKeyId,
    UPLOADS_S3_SECRET_ACCESS_KEY: fake.secretAccessKey,
    UPLOADS_S3_FORCE_PATH_STYLE: "true",
    ...(extra.prefix ? { UPLOADS_S3_PREFIX: extra.prefix } : {}),
    ...(extra.publicBaseUrl ? { UPLOADS_PUBLIC_BASE_URL: extra.publicBaseUrl } : {}),
  };
}

/** The keys the fake holds (without the bucket). */
export function storedKeys(fake: FakeS3) {
  return [...fake.objects.keys()].map((id) => id.slice(fake.bucket.length + 1)).sort();
}
