import crypto, { type KeyObject } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as z from "zod";
import { DEFAULT_REPORT_THRESHOLD } from "../lib/forum";
import { PAY_NOTIFY_PATH } from "../lib/pay-params";
import { DEFAULT_IPV6_PREFIX } from "../lib/client-network";
import { DEFAULT_RATE_LIMITS, RATE_LIMITED_ACTIONS, rateLimitVariable, type RateLimitedAction, type RateLimitSetting } from "../lib/rate-limits";
import { DEFAULT_REQUEST_LIMITS, type RequestLimits } from "../lib/request-limits";

// Every setting the server reads, parsed once at start. Development gets working defaults;
// production refuses to start without its secrets.
const boolean = z
  .enum(["true", "false", "1", "0", ""])
  .transform((value) => value === "true" || value === "1");

/** A trimmed string; blank counts as unset. */
const optionalSetting = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);

const templateSetting = z
  .string()
  .trim()
  .regex(/^([A-Za-z0-9_-]+(\|[A-Za-z0-9_]+(,[A-Za-z0-9_]+)*)?)?$/, "a template id, optionally followed by |key1,key2,…")
  .optional()
  .transform((value) => value || undefined);
const subscribeTemplateSetting = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]*$/, "a subscribe template id")
  .optional()
  .transform((value) => value || undefined);

/** RATE_LIMIT_<ACTION>: "per-user,per-address/window-seconds", e.g. "30,600/60". */
function rateLimitSettings() {
  const setting = (fallback: RateLimitSetting) =>
    z
      .string()
      .trim()
      .regex(/^\d{1,7},\d{1,7}\/\d{1,6}$/, "a rate limit must read per-user,per-address/window-seconds, e.g. 30,600/60")
      .optional()
      .transform((value): RateLimitSetting => {
        if (!value) return fallback;
        const [counts, seconds] = value.split("/");
        const [perUser, perAddress] = counts!.split(",").map(Number);
        return { perUser: perUser!, perAddress: perAddress!, windowSeconds: Math.max(1, Number(seconds)) };
      });
  return Object.fromEntries(RATE_LIMITED_ACTIONS.map((action) => [rateLimitVariable(action), setting(DEFAULT_RATE_LIMITS[action])])) as Record<
    `RATE_LIMIT_${string}`,
    ReturnType<typeof setting>
  >;
}

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().default("0.0.0.0"),
    DATABASE_URL: z
      .string()
      .regex(/^(file:|postgres(ql)?:\/\/)/, "DATABASE_URL must start with file: or postgres://")
      .default("file:./data/app.db"),
    SESSION_SECRET: z.string().min(16).optional(),
    APP_ENCRYPTION_KEY: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, "APP_ENCRYPTION_KEY must be 64 hex characters (32 bytes)")
      .optional(),
    ALLOW_ANY_BROWSER: boolean.optional(),
    // How many reverse proxies stand in front (true/1: one). Their X-Forwarded-For entries, read
    // from the right, give the client's address; anything further left is what the client wrote.
    TRUST_PROXY: z
      .string()
      .trim()
      .regex(/^(true|false|[0-9])?$/, "TRUST_PROXY must be true, false or the number of proxies in front (0-9)")
      .default("false")
      .transform((value) => (value === "true" ? 1 : value === "false" || value === "" ? 0 : Number(value))),
    // Limits count a client network: an IPv6 address by its first CLIENT_IPV6_PREFIX bits (one
    // subscriber's line), an IPv4 address by itself (app/lib/client-network.ts).
    CLIENT_IPV6_PREFIX: z.coerce.number().int().min(32).max(128).default(DEFAULT_IPV6_PREFIX),
    // Fair service (app/server/http/fairness.ts): requests one client network may have in flight
    // (the excess gets 429 at once), open connections in all, header and whole-request timeouts,
    // and, for a client with a request running, how many requests in all or how late an event
    // loop make the server too busy for its next one (503).
    CLIENT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(10_000).default(16),
    BUSY_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(4),
    MAX_CONNECTIONS: z.coerce.number().int().min(10).max(1_000_000).default(4000),
    HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
    REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(120_000),
    SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(20).max(60_000).default(150),
    // Demo content and the demo school/campuses: on by default outside production, off in production.
    SEED_DEMO_DATA: boolean.optional(),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    PUBLIC_URL: z.string().url().optional(),
    ACADEMIC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
    // Outbound calls (school systems) go to public addresses only. Tests run their fakes on
    // loopback and name them here, as exact host:port pairs; refused in production.
    OUTBOUND_ALLOW_HOSTS: z
      .string()
      .trim()
      .regex(/^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}(\s*,\s*([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):\d{1,5})*$|^$/, "OUTBOUND_ALLOW_HOSTS must list host:port pairs, separated by commas")
      .optional()
      .transform((value) => (value ? value.split(",").map((entry) => entry.trim()) : [])),
    // The messenger OAuth (snsapi_userinfo). Without an app id, outside production, a simulated
    // provider inside the app stands in (/api/wechat/simulate); in production there is none.
    WECHAT_APP_ID: z.string().trim().optional().transform((value) => value || undefined),
    WECHAT_APP_SECRET: z.string().trim().optional().transform((value) => value || undefined),
    WECHAT_OAUTH_AUTHORIZE_URL: z.string().url().optional(),
    WECHAT_API_BASE_URL: z.string().url().optional(),
    WECHAT_HTTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
    // Notifications: template ids per key ("id", or "id|key1,key2,…" naming the template's data
    // keys in field order; default keyword1…n), one-time subscribe template ids, the subscribe
    // confirm page, and how often the outbox worker and the course-reminder job run.
    WECHAT_TEMPLATE_EXPRESS_ORDER: templateSetting,
    WECHAT_TEMPLATE_NEW_ORDER: templateSetting,
    WECHAT_TEMPLATE_DELIVERY_COMPLETED: templateSetting,
    WECHAT_TEMPLATE_COURSE_REMINDER: templateSetting,
    WECHAT_TEMPLATE_GRADE_RELEASED: templateSetting,
    WECHAT_SUBSCRIBE_TEMPLATE_EXPRESS_DELIVERY: subscribeTemplateSetting,
    WECHAT_SUBSCRIBE_TEMPLATE_ORDER_STATUS: subscribeTemplateSetting,
    WECHAT_SUBSCRIBE_TEMPLATE_ORDER_ACCEPTED: subscribeTemplateSetting,
    WECHAT_SUBSCRIBE_TEMPLATE_SYSTEM_NOTICE: subscribeTemplateSetting,
    WECHAT_SUBSCRIBE_URL: z.string().url().optional(),
    NOTIFY_WORKER_INTERVAL_MS: z.coerce.number().int().min(200).max(3_600_000).default(5000),
    NOTIFY_REMINDER_INTERVAL_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    // The messenger's pay API v3 (JSAPI, direct merchant; see payConfig below). Keys are PEM text
    // in the variable or a file named by its _PATH twin; the platform's key is the "wechatpay
    // public key" (PUB_KEY_ID_…), so no platform certificate is downloaded.
    WECHAT_PAY_MCHID: optionalSetting.pipe(z.string().regex(/^\d{6,32}$/, "WECHAT_PAY_MCHID must be the merchant number (digits)").optional()),
    WECHAT_PAY_SERIAL_NO: optionalSetting.pipe(
      z.string().regex(/^[0-9A-Za-z]{8,64}$/, "WECHAT_PAY_SERIAL_NO must be the merchant certificate's serial number").optional(),
    ),
    WECHAT_PAY_PRIVATE_KEY: optionalSetting,
    WECHAT_PAY_PRIVATE_KEY_PATH: optionalSetting,
    WECHAT_PAY_API_V3_KEY: optionalSetting.pipe(
      z
        .string()
        .refine((value) => Buffer.byteLength(value, "utf8") === 32, "WECHAT_PAY_API_V3_KEY must be 32 bytes (the API v3 key set in the merchant platform)")
        .optional(),
    ),
    WECHAT_PAY_PLATFORM_PUBLIC_KEY: optionalSetting,
    WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH: optionalSetting,
    WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID: optionalSetting.pipe(
      z.string().regex(/^[A-Za-z0-9_]{1,64}$/, "WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID must be the key's id (PUB_KEY_ID_…)").optional(),
    ),
    WECHAT_PAY_BASE_URL: z.string().url().optional(),
    WECHAT_PAY_NOTIFY_URL: optionalSetting.pipe(z.string().url().optional()),
    WECHAT_PAY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    // The circle: reports that hide a post or comment until an operator reviews it, and where
    // uploaded images live (default: an uploads folder beside the SQLite file, else ./data/uploads).
    FORUM_REPORT_THRESHOLD: z.coerce.number().int().min(1).max(1000).default(DEFAULT_REPORT_THRESHOLD),
    // Screenshot recognition: the worker (and its model memory) stops after this long without work.
    OCR_IDLE_MS: z.coerce.number().int().min(100).max(86_400_000).default(5 * 60 * 1000),
    UPLOADS_DIR: z.string().trim().optional().transform((value) => value || undefined),
    // Bounded requests: body limits by route class, the URL, multipart parts, JSON
    // nesting. Image routes take their per-file limit times the file count (app/lib/request-limits.ts).
    REQUEST_FORM_MAX_KB: z.coerce.number().int().min(4).max(10_240).default(DEFAULT_REQUEST_LIMITS.formBytes / 1024),
    PAY_NOTIFY_MAX_KB: z.coerce.number().int().min(2).max(1024).default(DEFAULT_REQUEST_LIMITS.payNotifyBytes / 1024),
    REQUEST_URL_MAX_BYTES: z.coerce.number().int().min(1024).max(65_536).default(DEFAULT_REQUEST_LIMITS.urlBytes),
    REQUEST_MULTIPART_MAX_PARTS: z.coerce.number().int().min(2).max(1000).default(DEFAULT_REQUEST_LIMITS.multipartParts),
    REQUEST_JSON_MAX_DEPTH: z.coerce.number().int().min(2).max(256).default(DEFAULT_REQUEST_LIMITS.jsonDepth),
    // Rate limits: "per-user,per-address/seconds" for each limited action class.
    ...rateLimitSettings(),
    // Object storage (S3, Tencent COS, Aliyun OSS, MinIO) instead of UPLOADS_DIR: a bucket turns it on.
    UPLOADS_S3_BUCKET: optionalSetting.pipe(z.string().regex(/^[a-z0-9][a-z0-9.-]{1,62}$/, "UPLOADS_S3_BUCKET must be a bucket name").optional()),
    UPLOADS_S3_ENDPOINT: optionalSetting.pipe(z.string().url().optional()),
    UPLOADS_S3_REGION: optionalSetting,
    UPLOADS_S3_ACCESS_KEY_ID: optionalSetting,
    UPLOADS_S3_SECRET_ACCESS_KEY: optionalSetting,
    UPLOADS_S3_FORCE_PATH_STYLE: boolean.optional(),
    UPLOADS_S3_PREFIX: optionalSetting.pipe(z.string().regex(/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\/?$/, "UPLOADS_S3_PREFIX must be a folder like campus/uploads").optional()),
    UPLOADS_PUBLIC_BASE_URL: optionalSetting.pipe(z.string().url().optional()),
    UPLOADS_S3_SIGNED_URLS: boolean.optional(),
    // Metrics (/metrics): behind an operator token on the app's port, and/or on a port of its own.
    METRICS_TOKEN: optionalSetting.pipe(z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional()),
    METRICS_PORT: optionalSetting.pipe(z.string().regex(/^\d{1,5}$/, "METRICS_PORT must be a port number").transform(Number).pipe(z.number().int().min(1).max(65535)).optional()),
    METRICS_HOST: z.string().default("127.0.0.1"),
    // Fixes the login captcha's answer for local trials and tests; refused in production.
    CAPTCHA_FIXED_VALUE: z
      .string()
      .regex(/^[ABCDEFGHJKMNPQRSTUVWXY2-8]{4}$/, "CAPTCHA_FIXED_VALUE must be 4 captcha characters")
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (Boolean(env.UPLOADS_S3_ACCESS_KEY_ID) !== Boolean(env.UPLOADS_S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: "custom", path: ["UPLOADS_S3_SECRET_ACCESS_KEY"], message: "set UPLOADS_S3_ACCESS_KEY_ID and UPLOADS_S3_SECRET_ACCESS_KEY together" });
    }
    if (env.UPLOADS_S3_SIGNED_URLS && !(env.UPLOADS_S3_ACCESS_KEY_ID && env.UPLOADS_S3_SECRET_ACCESS_KEY)) {
      ctx.addIssue({ code: "custom", path: ["UPLOADS_S3_SIGNED_URLS"], message: "UPLOADS_S3_SIGNED_URLS needs UPLOADS_S3_ACCESS_KEY_ID and UPLOADS_S3_SECRET_ACCESS_KEY" });
    }
    if (env.UPLOADS_S3_SIGNED_URLS && env.UPLOADS_PUBLIC_BASE_URL) {
      ctx.addIssue({ code: "custom", path: ["UPLOADS_S3_SIGNED_URLS"], message: "set UPLOADS_PUBLIC_BASE_URL (a public bucket) or UPLOADS_S3_SIGNED_URLS (a private one), not both" });
    }
    if (env.NODE_ENV !== "production") return;
    if (env.CAPTCHA_FIXED_VALUE) {
      ctx.addIssue({ code: "custom", path: ["CAPTCHA_FIXED_VALUE"], message: "CAPTCHA_FIXED_VALUE is not allowed in production" });
    }
    if (env.OUTBOUND_ALLOW_HOSTS.length > 0) {
      ctx.addIssue({ code: "custom", path: ["OUTBOUND_ALLOW_HOSTS"], message: "OUTBOUND_ALLOW_HOSTS is not allowed in production (outbound calls go to public addresses only)" });
    }
    for (const key of ["SESSION_SECRET", "APP_ENCRYPTION_KEY"] as const) {
      if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: `${key} is required in production` });
    }
    if (env.WECHAT_APP_ID && !env.WECHAT_APP_SECRET) {
      ctx.addIssue({ code: "custom", path: ["WECHAT_APP_SECRET"], message: "WECHAT_APP_SECRET is required in production when WECHAT_APP_ID is set" });
    }
  });

export const WECHAT_DEFAULT_AUTHORIZE_URL = "https://open.weixin.qq.com/connect/oauth2/authorize";
export const WECHAT_DEFAULT_API_BASE_URL = "https://api.weixin.qq.com";

export type WechatConfig = {
  /** "real": the configured app; "simulated": the in-app simulated provider; "off": no OAuth at all. */
  mode: "real" | "simulated" | "off";
  appId?: string;
  appSecret?: string;
  authorizeUrl: string;
  /** Set only when WECHAT_API_BASE_URL is given; otherwise the real API, or in simulated mode our own simulated API. */
  apiBaseUrl?: string;
  timeoutMs: number;
};

export const WECHAT_PAY_DEFAULT_BASE_URL = "https://api.mch.weixin.qq.com";
export { PAY_NOTIFY_PATH };

/** What the real provider needs: one direct merchant and the app (WECHAT_APP_ID) it pays for. */
export type WechatPaySettings = {
  /** The JSAPI appid: the messenger app of the OAuth (openids are per app). */
  appId: string;
  mchid: string;
  /** The merchant certificate's serial number (serial_no of the Authorization header). */
  serialNo: string;
  privateKey: KeyObject;
  /** The 32-byte API v3 key (AEAD_AES_256_GCM of notifications). */
  apiV3Key: Buffer;
  /** The platform's "wechatpay public key" and its id (what Wechatpay-Serial names). */
  platformPublicKey: KeyObject;
  platformPublicKeyId: string;
  baseUrl: string;
  /** https, no query: where the pay API posts payment and refund notifications. */
  notifyUrl: string;
  timeoutMs: number;
};

export type PayConfig = {
  /** "real": a merchant is configured; "simulated": none, outside production (pays after 1.5 s); "off": production without a merchant. */
  mode: "real" | "simulated" | "off";
  /** Set exactly when mode is "real". */
  merchant?: WechatPaySettings;
  baseUrl: string;
  notifyUrl?: string;
  timeoutMs: number;
};

export const WECHAT_DEFAULT_SUBSCRIBE_URL = "https://mp.weixin.qq.com/mp/subscribemsg";
export const SIMULATED_SUBSCRIBE_URL = "/api/wechat/simulate-subscribe";

const TEMPLATE_KEYS = ["EXPRESS_ORDER", "NEW_ORDER", "DELIVERY_COMPLETED", "COURSE_REMINDER", "GRADE_RELEASED"] as const;
const SUBSCRIBE_KEYS = ["EXPRESS_DELIVERY", "ORDER_STATUS", "ORDER_ACCEPTED", "SYSTEM_NOTICE"] as const;

export type NotifyConfig = {
  /** "real": the messenger API (an app id is configured); "log": development's log provider; "off": production without an app id (messages wait in the outbox). */
  provider: "real" | "log" | "off";
  /** Template ids by key, with the provider's data keys when configured. Simulated ids in log mode. */
  templates: Partial<Record<(typeof TEMPLATE_KEYS)[number], { id: string; keys?: string[] }>>;
  subscribeTemplates: Partial<Record<(typeof SUBSCRIBE_KEYS)[number], string>>;
  /** The one-time subscribe confirm page: the messenger's, or our simulated one in development. */
  subscribeUrl: string;
  workerIntervalMs: number;
  reminderIntervalMs: number;
};

export type S3UploadsConfig = {
  kind: "s3";
  bucket: string;
  /** Unset: AWS itself. Set for COS/OSS/MinIO or a fake. */
  endpoint?: string;
  region: string;
  /** Unset: the SDK's default chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** A folder in the bucket ("" or "campus/uploads/"). */
  prefix: string;
  /** The bucket's public address: /uploads/<file> then redirects there; unset, the app serves the files. */
  publicBaseUrl?: string;
  /** /uploads/<file> redirects to a presigned GET of the private bucket (needs the key pair). */
  signedUrls: boolean;
};
export type UploadsConfig = { kind: "local"; dir: string } | S3UploadsConfig;

export type Config = {
  env: "development" | "production" | "test";
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string;
  sessionSecret: string;
  encryptionKey: Buffer;
  allowAnyBrowser: boolean;
  /** Reverse proxies in front whose X-Forwarded-* headers are believed (0: none). */
  trustProxy: number;
  /** How many leading bits of an IPv6 address name one client (app/lib/client-network.ts). */
  clientIpv6Prefix: number;
  /** Fair service: per-client requests in flight, connections, timeouts, load shedding. */
  http: { clientMaxInFlight: number; busyInFlight: number; maxConnections: number; headersTimeoutMs: number; requestTimeoutMs: number; shedDelayMs: number };
  seedDemoData: boolean;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  publicUrl?: string;
  captchaFixedValue?: string;
  academicTimeoutMs: number;
  /** host:port pairs outbound calls may reach although they are not public (tests' fakes); never in production. */
  outboundAllowHosts: string[];
  requestLimits: RequestLimits;
  rateLimits: Record<RateLimitedAction, RateLimitSetting>;
  forumReportThreshold: number;
  ocrIdleMs: number;
  uploadsDir: string;
  /** Where uploaded images live: this machine's folder (uploadsDir), or an S3-compatible bucket. */
  uploads: UploadsConfig;
  metrics: { token?: string; port?: number; host: string };
  wechat: WechatConfig;
  notify: NotifyConfig;
  pay: PayConfig;
};

const DEV_SESSION_SECRET = "development-session-secret-not-for-production";
const DEV_ENCRYPTION_KEY = "0".repeat(63) + "1";

export function parseConfig(source: Record<string, string | undefined>): Config {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  - ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const env = result.data;
  const isProduction = env.NODE_ENV === "production";
  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    databaseUrl: env.DATABASE_URL,
    sessionSecret: env.SESSION_SECRET ?? DEV_SESSION_SECRET,
    encryptionKey: Buffer.from(env.APP_ENCRYPTION_KEY ?? DEV_ENCRYPTION_KEY, "hex"),
    allowAnyBrowser: env.ALLOW_ANY_BROWSER ?? !isProduction,
    trustProxy: env.TRUST_PROXY,
    clientIpv6Prefix: env.CLIENT_IPV6_PREFIX,
    http: {
      clientMaxInFlight: env.CLIENT_MAX_IN_FLIGHT,
      busyInFlight: env.BUSY_IN_FLIGHT,
      maxConnections: env.MAX_CONNECTIONS,
      headersTimeoutMs: env.HEADERS_TIMEOUT_MS,
      requestTimeoutMs: env.REQUEST_TIMEOUT_MS,
      shedDelayMs: env.SHED_EVENT_LOOP_DELAY_MS,
    },
    seedDemoData: env.SEED_DEMO_DATA ?? !isProduction,
    logLevel: env.LOG_LEVEL,
    publicUrl: env.PUBLIC_URL,
    captchaFixedValue: env.CAPTCHA_FIXED_VALUE,
    academicTimeoutMs: env.ACADEMIC_TIMEOUT_MS,
    outboundAllowHosts: env.OUTBOUND_ALLOW_HOSTS,
    requestLimits: {
      formBytes: env.REQUEST_FORM_MAX_KB * 1024,
      payNotifyBytes: env.PAY_NOTIFY_MAX_KB * 1024,
      urlBytes: env.REQUEST_URL_MAX_BYTES,
      multipartParts: env.REQUEST_MULTIPART_MAX_PARTS,
      jsonDepth: env.REQUEST_JSON_MAX_DEPTH,
    },
    rateLimits: Object.fromEntries(
      RATE_LIMITED_ACTIONS.map((action) => [action, (env as unknown as Record<string, RateLimitSetting>)[rateLimitVariable(action)]!]),
    ) as Record<RateLimitedAction, RateLimitSetting>,
    forumReportThreshold: env.FORUM_REPORT_THRESHOLD,
    ocrIdleMs: env.OCR_IDLE_MS,
    uploadsDir: env.UPLOADS_DIR ?? defaultUploadsDir(env.DATABASE_URL),
    uploads: env.UPLOADS_S3_BUCKET
      ? {
          kind: "s3",
          bucket: env.UPLOADS_S3_BUCKET,
          endpoint: env.UPLOADS_S3_ENDPOINT,
          region: env.UPLOADS_S3_REGION ?? "us-east-1",
          accessKeyId: env.UPLOADS_S3_ACCESS_KEY_ID,
          secretAccessKey: env.UPLOADS_S3_SECRET_ACCESS_KEY,
          forcePathStyle: env.UPLOADS_S3_FORCE_PATH_STYLE ?? false,
          prefix: env.UPLOADS_S3_PREFIX ? env.UPLOADS_S3_PREFIX.replace(/\/?$/, "/") : "",
          publicBaseUrl: env.UPLOADS_PUBLIC_BASE_URL?.replace(/\/+$/, ""),
          signedUrls: env.UPLOADS_S3_SIGNED_URLS ?? false,
        }
      : { kind: "local", dir: env.UPLOADS_DIR ?? defaultUploadsDir(env.DATABASE_URL) },
    metrics: { token: env.METRICS_TOKEN, port: env.METRICS_PORT, host: env.METRICS_HOST },
    wechat: {
      mode: env.WECHAT_APP_ID ? "real" : isProduction ? "off" : "simulated",
      appId: env.WECHAT_APP_ID,
      appSecret: env.WECHAT_APP_SECRET,
      authorizeUrl: env.WECHAT_OAUTH_AUTHORIZE_URL ?? WECHAT_DEFAULT_AUTHORIZE_URL,
      apiBaseUrl: env.WECHAT_API_BASE_URL,
      timeoutMs: env.WECHAT_HTTP_TIMEOUT_MS,
    },
    pay: payConfig(env, isProduction),
    notify: notifyConfig(env, isProduction),
  };
}

function notifyConfig(env: z.infer<typeof schema>, isProduction: boolean): NotifyConfig {
  const provider = env.WECHAT_APP_ID ? "real" : isProduction ? "off" : "log";
  const simulated = provider === "log";
  const templates: NotifyConfig["templates"] = {};
  for (const key of TEMPLATE_KEYS) {
    const value = env[`WECHAT_TEMPLATE_${key}`] ?? (simulated ? `sim_${key}` : undefined);
    if (!value) continue;
    const [id, keys] = value.split("|");
    templates[key] = keys ? { id, keys: keys.split(",") } : { id };
  }
  const subscribeTemplates: NotifyConfig["subscribeTemplates"] = {};
  for (const key of SUBSCRIBE_KEYS) {
    const id = env[`WECHAT_SUBSCRIBE_TEMPLATE_${key}`] ?? (simulated ? `sim_${key}` : undefined);
    if (id) subscribeTemplates[key] = id;
  }
  return {
    provider,
    templates,
    subscribeTemplates,
    subscribeUrl: env.WECHAT_SUBSCRIBE_URL ?? (simulated ? SIMULATED_SUBSCRIBE_URL : WECHAT_DEFAULT_SUBSCRIBE_URL),
    workerIntervalMs: env.NOTIFY_WORKER_INTERVAL_MS,
    reminderIntervalMs: env.NOTIFY_REMINDER_INTERVAL_MS,
  };
}

const MERCHANT_SETTINGS = [
  "WECHAT_PAY_MCHID",
  "WECHAT_PAY_SERIAL_NO",
  "WECHAT_PAY_PRIVATE_KEY",
  "WECHAT_PAY_API_V3_KEY",
  "WECHAT_PAY_PLATFORM_PUBLIC_KEY",
  "WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID",
] as const;

/**
 * The pay settings. Any merchant setting makes all of them required (a half-configured merchant
 * stops the server in every environment, production included); keys are read and checked here so
 * a bad key stops the server at start, not at the first payment. Messages never quote key text.
 */
function payConfig(env: z.infer<typeof schema>, isProduction: boolean): PayConfig {
  const baseUrl = (env.WECHAT_PAY_BASE_URL ?? WECHAT_PAY_DEFAULT_BASE_URL).replace(/\/+$/, "");
  const timeoutMs = env.WECHAT_PAY_TIMEOUT_MS;
  const issues: string[] = [];
  const issue = (key: string, message: string) => issues.push(`  - ${key}: ${message}`);

  const explicitNotifyUrl = env.WECHAT_PAY_NOTIFY_URL;
  if (explicitNotifyUrl) {
    const url = new URL(explicitNotifyUrl);
    if (url.protocol !== "https:") issue("WECHAT_PAY_NOTIFY_URL", "WECHAT_PAY_NOTIFY_URL must be an https URL");
    if (url.search || url.hash || explicitNotifyUrl.includes("?")) issue("WECHAT_PAY_NOTIFY_URL", "WECHAT_PAY_NOTIFY_URL must not have a query or fragment");
  }
  const notifyUrl = explicitNotifyUrl ?? (env.PUBLIC_URL ? `${new URL(env.PUBLIC_URL).origin}${PAY_NOTIFY_PATH}` : undefined);

  const present = (key: (typeof MERCHANT_SETTINGS)[number]) =>
    key === "WECHAT_PAY_PRIVATE_KEY"
      ? Boolean(env.WECHAT_PAY_PRIVATE_KEY || env.WECHAT_PAY_PRIVATE_KEY_PATH)
      : key === "WECHAT_PAY_PLATFORM_PUBLIC_KEY"
        ? Boolean(env.WECHAT_PAY_PLATFORM_PUBLIC_KEY || env.WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH)
        : Boolean(env[key]);
  const configured = MERCHANT_SETTINGS.filter(present);
  const fail = () => {
    throw new Error(`Invalid configuration:\n${issues.join("\n")}`);
  };

  if (configured.length === 0) {
    if (issues.length > 0) fail();
    return { mode: isProduction ? "off" : "simulated", baseUrl, notifyUrl, timeoutMs };
  }
  const missing = MERCHANT_SETTINGS.filter((key) => !present(key));
  if (missing.length > 0) {
    issue(
      "WECHAT_PAY",
      `the pay merchant is partly configured: missing ${missing.join(", ")} (set all of them for real payments, or none${isProduction ? "" : " for the simulated provider"})`,
    );
  }
  if (!env.WECHAT_APP_ID) issue("WECHAT_APP_ID", "WECHAT_APP_ID is required with a pay merchant (the JSAPI appid, the app of the messenger OAuth)");
  if (!notifyUrl) issue("WECHAT_PAY_NOTIFY_URL", "WECHAT_PAY_NOTIFY_URL (or PUBLIC_URL) is required with a pay merchant");
  else if (!notifyUrl.startsWith("https://")) issue("WECHAT_PAY_NOTIFY_URL", "the notify URL must be https (set WECHAT_PAY_NOTIFY_URL, or an https PUBLIC_URL)");
  if (isProduction && !baseUrl.startsWith("https://")) issue("WECHAT_PAY_BASE_URL", "WECHAT_PAY_BASE_URL must be https in production");

  const privateKey = readKey("WECHAT_PAY_PRIVATE_KEY", env.WECHAT_PAY_PRIVATE_KEY, env.WECHAT_PAY_PRIVATE_KEY_PATH, "private", issue);
  const platformPublicKey = readKey(
    "WECHAT_PAY_PLATFORM_PUBLIC_KEY",
    env.WECHAT_PAY_PLATFORM_PUBLIC_KEY,
    env.WECHAT_PAY_PLATFORM_PUBLIC_KEY_PATH,
    "public",
    issue,
  );
  if (issues.length > 0 || !privateKey || !platformPublicKey) fail();
  return {
    mode: "real",
    baseUrl,
    notifyUrl,
    timeoutMs,
    merchant: {
      appId: env.WECHAT_APP_ID!,
      mchid: env.WECHAT_PAY_MCHID!,
      serialNo: env.WECHAT_PAY_SERIAL_NO!,
      privateKey: privateKey!,
      apiV3Key: Buffer.from(env.WECHAT_PAY_API_V3_KEY!, "utf8"),
      platformPublicKey: platformPublicKey!,
      platformPublicKeyId: env.WECHAT_PAY_PLATFORM_PUBLIC_KEY_ID!,
      baseUrl,
      notifyUrl: notifyUrl!,
      timeoutMs,
    },
  };
}

/** An RSA key from PEM text (literal "\\n" allowed, as env files write it) or from a file. */
function readKey(
  key: string,
  text: string | undefined,
  file: string | undefined,
  kind: "private" | "public",
  issue: (key: string, message: string) => void,
): KeyObject | undefined {
  if (!text && !file) return undefined;
  if (text && file) {
    issue(key, `set ${key} or ${key}_PATH, not both`);
    return undefined;
  }
  let pem = text?.replace(/\\n/g, "\n");
  if (file) {
    try {
      pem = fs.readFileSync(file, "utf8");
    } catch {
      issue(`${key}_PATH`, `${key}_PATH: cannot read the file`);
      return undefined;
    }
  }
  const label = kind === "private" ? "PRIVATE KEY" : "PUBLIC KEY";
  const source = file ? `${key}_PATH` : key;
  if (!pem || !pem.includes(`-----BEGIN `) || !pem.includes(label) || (kind === "public" && pem.includes("PRIVATE KEY"))) {
    issue(source, `${source} must be a PEM ${kind} key (-----BEGIN ${kind === "private" ? "PRIVATE KEY" : "PUBLIC KEY"}-----)${text && !file ? `; for a file use ${key}_PATH` : ""}`);
    return undefined;
  }
  try {
    const object = kind === "private" ? crypto.createPrivateKey(pem) : crypto.createPublicKey(pem);
    if (object.asymmetricKeyType !== "rsa") {
      issue(source, `${source} must be an RSA key`);
      return undefined;
    }
    return object;
  } catch {
    issue(source, `${source} is not a readable PEM ${kind} key`);
    return undefined;
  }
}

function defaultUploadsDir(databaseUrl: string) {
  if (databaseUrl.startsWith("file:")) return path.join(path.dirname(path.resolve(databaseUrl.slice("file:".length))), "uploads");
  return path.resolve("data/uploads");
}

let cached: Config | undefined;

/** The configuration of this process. Tests change process.env and call resetConfig(). */
export function config(): Config {
  cached ??= parseConfig(process.env);
  return cached;
}

export function resetConfig() {
  cached = undefined;
}
