// The outbox: every messenger message is a row here first (queued by notify() in the caller's
// transaction), and a worker sends it. A message is never lost: it stays pending — retried with
// exponential backoff — until the provider accepts it or it is definitely undeliverable (the
// user refused, the template is gone, …), which is recorded in `state` and `last_error`.
//
// Two instances never send one message twice: a worker claims a batch with one UPDATE that only
// takes rows still due (PostgreSQL: FOR UPDATE SKIP LOCKED), holding them for a lease; a crashed
// worker's claim runs out and the message is taken again. The message id goes to the provider as
// client_msg_id, its own de-duplication for the rare send that succeeded just before a crash.
import crypto from "node:crypto";
import type { Insertable, Selectable } from "kysely";
import {
  isSubscribeKey,
  isTemplateKey,
  retryDelayMs,
  subscribeMessage,
  subscribeScene,
  templateData,
  type MessageFields,
} from "~/lib/notify";
import { config } from "../config.server";
import { db, dialect, type Executor } from "../db/db.server";
import type { OutboxMessagesTable } from "../db/schema";
import { log } from "../log.server";
import { currentProvider, type Delivery, type NotifyProvider, type ProviderResult } from "./providers.server";

export type OutboxRow = Selectable<OutboxMessagesTable>;

/** A claim is held this long; well above the HTTP timeout of one send. */
export const CLAIM_LEASE_MS = 2 * 60_000;
export const CLAIM_BATCH = 20;
/** An errcode we do not know is retried this many times, then recorded as undeliverable. */
export const MAX_UNKNOWN_ATTEMPTS = 10;

/**
 * The provider's errcodes that end a message (no retry helps), with what we record.
 * 43004: the user does not follow the account, so template messages cannot reach them (the
 * one-time subscribe message is tried first when the user holds a consent).
 */
export const UNDELIVERABLE_ERRCODES: Record<number, string> = {
  40003: "INVALID_OPENID",
  40036: "TEMPLATE_GONE",
  40037: "TEMPLATE_GONE",
  43004: "NOT_FOLLOWING",
  43101: "USER_REFUSED",
  43116: "TEMPLATE_BLOCKED",
  47003: "INVALID_DATA",
};
/** Busy, rate-limited, or a token that stayed invalid after a refresh: try again later. */
export const RETRY_ERRCODES = new Set([-1, 40001, 40014, 42001, 45009, 45047]);

export const NOT_FOLLOWING = 43004;

export type NewOutboxMessage = Omit<
  Insertable<OutboxMessagesTable>,
  "state" | "attempts" | "claim_token" | "claimed_until" | "last_error" | "provider_msgid" | "sent_at" | "updated_at" | "created_at" | "next_attempt_at"
> & { next_attempt_at?: string };

/** Queues one message; with a dedupe key a second queueing of the same message is a no-op (null). */
export async function enqueue(executor: Executor, message: NewOutboxMessage, now = new Date()): Promise<number | null> {
  const timestamp = now.toISOString();
  const row = await executor
    .insertInto("outbox_messages")
    .values({
      ...message,
      state: "pending",
      attempts: 0,
      next_attempt_at: message.next_attempt_at ?? timestamp,
      created_at: timestamp,
      updated_at: timestamp,
    })
    .onConflict((oc) => oc.column("dedupe_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Finished messages (sent, undeliverable, cancelled, expired) are kept this long, then removed. */
export const OUTBOX_RETENTION_MS = 30 * 24 * 60 * 60_000;

export async function purgeFinished(now = new Date()) {
  const result = await db()
    .deleteFrom("outbox_messages")
    .where("state", "in", ["sent", "undeliverable", "cancelled", "expired"])
    .where("updated_at", "<", new Date(now.getTime() - OUTBOX_RETENTION_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Withdraws a message not yet sent (a class that no longer exists). */
export async function cancelMessage(executor: Executor, id: number, now = new Date()) {
  const result = await executor
    .updateTable("outbox_messages")
    .set({ state: "cancelled", updated_at: now.toISOString() })
    .where("id", "=", id)
    .where("state", "=", "pending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The ids of the due messages, oldest due first (outbox_due_idx; the query-plan test reads it). */
export function dueQuery(nowIso: string, limit: number) {
  return db()
    .selectFrom("outbox_messages")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "pending"), eb("next_attempt_at", "<=", nowIso)]),
        eb.and([eb("state", "=", "sending"), eb("claimed_until", "<", nowIso)]),
      ]),
    )
    .orderBy("next_attempt_at")
    .orderBy("id")
    .limit(limit);
}

/** Claims up to `limit` due messages for this worker (pending and due, or abandoned by a crashed one). */
export async function claimDue(options: { now?: Date; limit?: number } = {}): Promise<OutboxRow[]> {
  const now = options.now ?? new Date();
  const nowIso = now.toISOString();
  const token = crypto.randomBytes(12).toString("base64url");
  const database = db();
  let due = dueQuery(nowIso, options.limit ?? CLAIM_BATCH);
  if (dialect() === "postgres") due = due.forUpdate().skipLocked();
  // The due ids are a MATERIALIZED CTE, run once: as a plain `id IN (… LIMIT … FOR UPDATE SKIP
  // LOCKED)` subquery PostgreSQL may rescan it per row (a nested-loop semi join), and each rescan
  // hands out more rows — one worker then claimed every due message, not a batch.
  return database
    .with((cte) => cte("due").materialized(), () => due)
    .updateTable("outbox_messages")
    .set((eb) => ({
      state: "sending",
      claim_token: token,
      claimed_until: new Date(now.getTime() + CLAIM_LEASE_MS).toISOString(),
      attempts: eb("attempts", "+", 1),
      updated_at: nowIso,
    }))
    .where("id", "in", (eb) => eb.selectFrom("due").select("due.id"))
    // Checked again on the row itself: a row another worker claimed meanwhile no longer matches.
    .where((eb) =>
      eb.or([
        eb.and([eb("state", "=", "pending"), eb("next_attempt_at", "<=", nowIso)]),
        eb.and([eb("state", "=", "sending"), eb("claimed_until", "<", nowIso)]),
      ]),
    )
    .returningAll()
    .execute();
}

export type OutboxRun = { claimed: number; sent: number; retried: number; undeliverable: number; expired: number };

let warnedOff = false;

/**
 * One pass of the worker: claims due messages and sends them, batch after batch, until none is
 * due (at most `maxBatches`). Without a provider (production without an app id) nothing is sent.
 */
export async function processOutbox(options: { now?: Date; provider?: NotifyProvider | null; maxBatches?: number } = {}): Promise<OutboxRun> {
  const run: OutboxRun = { claimed: 0, sent: 0, retried: 0, undeliverable: 0, expired: 0 };
  const provider = options.provider === undefined ? currentProvider() : options.provider;
  if (!provider) {
    if (!warnedOff) log("warn", "notify-no-provider", { hint: "set WECHAT_APP_ID: messages wait in the outbox" });
    warnedOff = true;
    return run;
  }
  for (let batch = 0; batch < (options.maxBatches ?? 5); batch += 1) {
    const now = options.now ?? new Date();
    const rows = await claimDue({ now });
    if (rows.length === 0) break;
    run.claimed += rows.length;
    for (const row of rows) {
      // The earlier sends of the batch may have outlasted the lease and another worker taken the row.
      if (!(await holdClaim(row, options.now ?? new Date()))) continue;
      const outcome = await deliver(row, provider, options.now ?? new Date());
      run[outcome] += 1;
    }
    if (rows.length < CLAIM_BATCH) break;
  }
  return run;
}

type Outcome = "sent" | "retried" | "undeliverable" | "expired";

/**
 * Right before a send: is the row still this worker's claim? If so its lease is extended for this
 * send (a batch of slow sends may take longer than one lease); if not, another worker has it.
 */
async function holdClaim(row: OutboxRow, now: Date): Promise<boolean> {
  const result = await db()
    .updateTable("outbox_messages")
    .set({ claimed_until: new Date(now.getTime() + CLAIM_LEASE_MS).toISOString() })
    .where("id", "=", row.id)
    .where("state", "=", "sending")
    .where("claim_token", "=", row.claim_token)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function parseFields(text: string): MessageFields {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" ? (value as MessageFields) : {};
  } catch {
    return {};
  }
}

/** Our path as an absolute URL for the message's link (PUBLIC_URL), or none. */
function linkUrl(path: string | null) {
  const base = config().publicUrl;
  if (!path) return undefined;
  if (/^https?:\/\//.test(path)) return path;
  return base ? new URL(path, base).toString() : undefined;
}

async function deliver(row: OutboxRow, provider: NotifyProvider, now: Date): Promise<Outcome> {
  if (row.expires_at && now.toISOString() >= row.expires_at) return finish(row, "expired", now, { error: "EXPIRED" });
  const fields = parseFields(row.data);
  const settings = config().notify;

  if (row.channel === "template") {
    if (!isTemplateKey(row.template_key)) return finish(row, "undeliverable", now, { error: "UNKNOWN_TEMPLATE" });
    const template = settings.templates[row.template_key];
    if (!template) return finish(row, "undeliverable", now, { error: "TEMPLATE_NOT_CONFIGURED" });
    const result = await provider.send({
      channel: "template",
      messageId: row.id,
      openid: row.openid,
      templateId: template.id,
      data: templateData(row.template_key, fields, template.keys),
      url: linkUrl(row.link),
    });
    if (result.ok || result.errcode !== NOT_FOLLOWING || !row.subscribe_key) return settle(row, result, now);
    // The template API cannot reach this customer: the one-time subscribe message, when they hold a consent.
    if (!(await reserveConsent(row, now))) return finish(row, "undeliverable", now, { error: "NOT_FOLLOWING" });
    await db().updateTable("outbox_messages").set({ channel: "subscribe", updated_at: now.toISOString() }).where("id", "=", row.id).execute();
    return sendSubscribe({ ...row, channel: "subscribe" }, provider, fields, now);
  }

  if (!(await reserveConsent(row, now))) return finish(row, "undeliverable", now, { error: "NO_CONSENT" });
  return sendSubscribe(row, provider, fields, now);
}

async function sendSubscribe(row: OutboxRow, provider: NotifyProvider, fields: MessageFields, now: Date): Promise<Outcome> {
  if (!isSubscribeKey(row.subscribe_key)) return finish(row, "undeliverable", now, { error: "UNKNOWN_TEMPLATE" });
  const templateId = config().notify.subscribeTemplates[row.subscribe_key];
  if (!templateId) return finish(row, "undeliverable", now, { error: "TEMPLATE_NOT_CONFIGURED" });
  const message = subscribeMessage(row.subscribe_key, fields);
  const delivery: Delivery = {
    channel: "subscribe",
    messageId: row.id,
    openid: row.openid,
    templateId,
    scene: subscribeScene(row.subscribe_key),
    title: message.title,
    content: message.content,
    url: linkUrl(row.link),
  };
  return settle(row, await provider.send(delivery), now);
}

/**
 * The user's unused, unexpired consent for the message's subscribe template, used up by this
 * message (kept for it across retries). False when there is none.
 */
async function reserveConsent(row: OutboxRow, now: Date): Promise<boolean> {
  if (!row.user_id || !isSubscribeKey(row.subscribe_key)) return false;
  const held = await db()
    .selectFrom("subscribe_consents")
    .select("user_id")
    .where("user_id", "=", row.user_id)
    .where("template_key", "=", row.subscribe_key)
    .where("outbox_id", "=", row.id)
    .executeTakeFirst();
  if (held) return true;
  const nowIso = now.toISOString();
  const taken = await db()
    .updateTable("subscribe_consents")
    .set({ used_at: nowIso, outbox_id: row.id, updated_at: nowIso })
    .where("user_id", "=", row.user_id)
    .where("template_key", "=", row.subscribe_key)
    .where("used_at", "is", null)
    .where("expires_at", ">", nowIso)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

function settle(row: OutboxRow, result: ProviderResult, now: Date): Promise<Outcome> {
  if (result.ok) return finish(row, "sent", now, { msgid: result.msgid });
  const error = result.errcode !== null ? `${result.errcode}` : result.kind;
  const known = result.errcode !== null ? UNDELIVERABLE_ERRCODES[result.errcode] : undefined;
  if (known) return finish(row, "undeliverable", now, { error: `${known} (${result.errcode})` });
  const unknownCode = result.kind === "api" && result.errcode !== null && !RETRY_ERRCODES.has(result.errcode);
  if (unknownCode && row.attempts >= MAX_UNKNOWN_ATTEMPTS) return finish(row, "undeliverable", now, { error: `UNKNOWN_ERRCODE (${error})` });
  return finish(row, "retried", now, { error });
}

async function finish(row: OutboxRow, outcome: Outcome, now: Date, details: { msgid?: string | null; error?: string }): Promise<Outcome> {
  const nowIso = now.toISOString();
  const base = { claim_token: null, claimed_until: null, updated_at: nowIso };
  const update =
    outcome === "sent"
      ? { ...base, state: "sent" as const, sent_at: nowIso, provider_msgid: details.msgid ?? null, last_error: null }
      : outcome === "retried"
        ? { ...base, state: "pending" as const, next_attempt_at: new Date(now.getTime() + retryDelayMs(row.attempts)).toISOString(), last_error: details.error ?? null }
        : { ...base, state: outcome, last_error: details.error ?? null };
  await db().updateTable("outbox_messages").set(update).where("id", "=", row.id).where("claim_token", "=", row.claim_token).execute();
  const level = outcome === "sent" ? "info" : "warn";
  log(level, `notify-${outcome}`, { messageId: row.id, kind: row.kind, channel: row.channel, attempts: row.attempts, error: details.error });
  return outcome;
}
