// Helpers for integration tests (the db-* projects): rows, sessions and requests.
import type { Insertable, Selectable } from "kysely";
import nodeCrypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "~/server/config.server";
import { createProofChallenge } from "~/server/auth/proof-of-work.server";
import { createUserSession } from "~/server/auth/session.server";
import { db, now } from "~/server/db/db.server";
import type { UsersTable } from "~/server/db/schema";

export type TestUser = Selectable<UsersTable>;

let counter = 0;

/** Inserts a user with a bound student account of the demo school; `overrides` change any column. */
export async function createStudent(overrides: Partial<Insertable<UsersTable>> = {}): Promise<TestUser> {
  counter += 1;
  const timestamp = now();
  const row: Insertable<UsersTable> = {
    school_code: "demo",
    student_id: `2023${String(process.pid % 1000).padStart(3, "0")}${String(counter).padStart(4, "0")}`,
    real_name: "测试学生",
    class_name: "计算机2301",
    college: "信息工程学院",
    nickname: null,
    student_bound_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    ...overrides,
  };
  return db().insertInto("users").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Inserts a user with only a messenger identity (no student account). */
export async function createMessengerUser(overrides: Partial<Insertable<UsersTable>> = {}): Promise<TestUser> {
  counter += 1;
  return createStudent({
    school_code: null,
    student_id: null,
    real_name: null,
    class_name: null,
    college: null,
    student_bound_at: null,
    openid: `test-openid-${process.pid}-${counter}`,
    wechat_nickname: "微信用户",
    wechat_authorized_at: now(),
    ...overrides,
  });
}

/** Starts a session for the user (as a real login does) and returns the `Cookie` header value. */
export async function sessionCookieFor(
  userId: number,
  options: { deviceId?: string; platform?: string } = {},
): Promise<string> {
  const { setCookie } = await createUserSession(userId, {
    deviceId: options.deviceId ?? `test-device-${userId}-${Date.now()}`,
    platform: options.platform ?? "web",
  });
  return cookieValue(setCookie);
}

/** "name=value; Path=/; HttpOnly" → "name=value" (what a browser sends back). */
export function cookieValue(setCookie: string) {
  return setCookie.split(";")[0]!;
}

/** A Request for http://localhost<path>; `cookie` sets the Cookie header. */
export function request(path: string, init: RequestInit & { cookie?: string } = {}) {
  const { cookie, headers, ...rest } = init;
  const allHeaders = new Headers(headers);
  if (cookie) allHeaders.set("Cookie", cookie);
  return new Request(new URL(path, "http://localhost"), { ...rest, headers: allHeaders });
}

type RouteArgs = { request: Request; params: Record<string, string>; context: Record<string, never> };

/** What Remix passes a loader or action. */
export const routeArgs = (req: Request, params: Record<string, string> = {}): RouteArgs => ({ request: req, params, context: {} });

/** A loader's or action's answer as a Response, whether returned or thrown (redirects are thrown). */
export async function call(fn: (args: RouteArgs) => unknown, req: Request, params: Record<string, string> = {}): Promise<Response> {
  try {
    const result = await fn(routeArgs(req, params));
    return result instanceof Response ? result : Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A JSON POST as the app's fetch calls send it. */
export function postJson(path: string, body: unknown, cookie?: string) {
  return request(path, { method: "POST", cookie, body: JSON.stringify(body), headers: { "Content-Type": "application/json", Accept: "application/json" } });
}

/** A plain form POST, as a browser without JavaScript sends it; `headers` adds to its own. */
export function postForm(path: string, fields: Record<string, string>, cookie?: string, headers: Record<string, string> = {}) {
  return request(path, { method: "POST", cookie, body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html", ...headers } });
}

/** What a browser sends with a form posted from one of this site's own pages. */
export const SAME_ORIGIN = { Origin: "http://localhost", "Sec-Fetch-Site": "same-origin" };

/** A form POST from one of this site's own pages (the operators' forms), unless `headers` say otherwise. */
export function postSameOrigin(path: string, fields: Record<string, string>, cookie?: string, headers: Record<string, string> = SAME_ORIGIN) {
  return postForm(path, fields, cookie, headers);
}

/** A solved proof-of-work challenge of this server (what the page's script sends in `altcha`). */
export async function solvedProof(): Promise<string> {
  const challenge = await createProofChallenge();
  // Native hashing, synchronously: milliseconds, where altcha-lib's Web Crypto loop takes seconds on a busy machine.
  let number = 0;
  while (nodeCrypto.createHash("sha256").update(challenge.salt + number).digest("hex") !== challenge.challenge) {
    number += 1;
    if (number > challenge.maxnumber) throw new Error("no solution");
  }
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature })).toString("base64");
}

/**
 * For the file's tests: uploads go to a fresh temporary folder (removed after the file), and `env`
 * is set for as long. Returns the folder's path (known once the file's tests start).
 */
export function useTemporaryUploads(prefix: string, env: Record<string, string> = {}): () => string {
  let dir = "";
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    process.env.UPLOADS_DIR = dir;
    Object.assign(process.env, env);
    resetConfig();
  });
  afterAll(() => {
    fs.rmSync(dir, { recursive: true, force: true });
    delete process.env.UPLOADS_DIR;
    for (const name of Object.keys(env)) delete process.env[name];
    resetConfig();
  });
  return () => dir;
}

/** What a guard threw: a Response is expected, anything else (or nothing thrown) fails the test. */
export async function thrownResponse(promise: Promise<unknown>): Promise<Response> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a thrown Response");
}
