// The invite campaign (docs/architecture.md "New user"): invite links, pending invites, the new-user
// grant and the assist. A new user is one without the new-user grant; the grant happens at the
// first student-id login or at invite registration, and an invited new user's assist happens in
// the same transaction as their grant, so no path makes them old before the assist.
//
// Every rule is enforced by the database: the grant marker (user, 'new_user') is unique, the
// assistant of an assist is unique, each reward is a marker of its own ('assist:<id>',
// 'milestone:<n>'); the inviter's row is locked (PostgreSQL) while their assists are counted, so
// two parallel assists cannot both miss a milestone. SQLite runs one transaction at a time.
import crypto from "node:crypto";
import { sql } from "kysely";
import { milestoneThresholds, type RuleView } from "~/lib/coupon-rules";
import { INVITE_PENDING_MS, inviteCode, invitePath, inviteStatus, normalizeInviteCode, type InviteStatus } from "~/lib/invites";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import type { User } from "../auth/session.server";
import type { StudentLoginRefusal } from "../auth/student-login.server";
import { db, dialect, type Executor } from "../db/db.server";
import { log } from "../log.server";
import { setNickname } from "../users/nickname.server";
import { nicknameProblem } from "~/lib/nickname";
import { claimMark, hasMark, identityHashesOf } from "./promotion-identity.server";
import { NEW_USER_KEY, grantOnce, isNewUser, loadRules, type GrantedCoupon } from "./wallet.server";

const m = couponMessages;

/**
 * Why a user cannot assist: no code typed, no such inviter, the inviter is themselves, they
 * assisted once already (once in a life), or they are not a new user any more.
 */
export type AssistRefusal = "code_required" | "inviter_missing" | "self" | "already" | "old_user";

// ---------------------------------------------------------------------------------------------
// Invite links

export type InviteLink = { code: string; token: string; path: string };

/** The user's invite code and link (made on first use). Null without a messenger identity. */
export async function inviteLinkOf(user: Pick<User, "id" | "openid">): Promise<InviteLink | null> {
  if (!user.openid) return null;
  let row = await db().selectFrom("invite_links").select("token").where("user_id", "=", user.id).executeTakeFirst();
  if (!row) {
    await db()
      .insertInto("invite_links")
      .values({ user_id: user.id, token: crypto.randomBytes(9).toString("base64url"), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("user_id").doNothing())
      .execute();
    row = await db().selectFrom("invite_links").select("token").where("user_id", "=", user.id).executeTakeFirstOrThrow();
  }
  const code = inviteCode(user.openid);
  return { code, token: row.token, path: invitePath(code, row.token) };
}

export type Inviter = { id: number; code: string; nickname: string; avatar: string | null };

const inviterColumns = ["users.id", "users.openid", "users.nickname", "users.wechat_nickname", "users.avatar_url", "users.wechat_avatar", "users.deletion_requested_at"] as const;

/**
 * The inviter of a link or a typed code. With the link's opaque id the code must belong to it;
 * a typed code alone must name exactly one person (codes are 8 characters of an openid).
 */
export async function resolveInviter(codeInput: string | null | undefined, token?: string | null, executor: Executor = db()): Promise<Inviter | null> {
  const code = normalizeInviteCode(codeInput);
  if (!code) return null;
  let rows;
  if (token) {
    rows = await executor
      .selectFrom("invite_links")
      .innerJoin("users", "users.id", "invite_links.user_id")
      .select([...inviterColumns])
      .where("invite_links.token", "=", token)
      .execute();
  } else {
    const tail = sql<string>`upper(case when length(users.openid) <= 8 then users.openid else substr(users.openid, length(users.openid) - 7) end)`;
    rows = await executor.selectFrom("users").select([...inviterColumns]).where("users.openid", "is not", null).where(tail, "=", code).limit(2).execute();
    if (rows.length !== 1) return null;
  }
  const row = rows[0];
  if (!row?.openid || row.deletion_requested_at || inviteCode(row.openid) !== code) return null;
  return { id: row.id, code, nickname: row.nickname ?? row.wechat_nickname ?? m.promo.defaultNickname, avatar: row.avatar_url ?? row.wechat_avatar };
}

// ---------------------------------------------------------------------------------------------
// Pending invites

/** The invitee (a new user) opened the inviter's link: a pending invite (renewed when opened again). */
export async function recordPendingInvite(inviterId: number, inviteeId: number, at = new Date()) {
  if (inviterId === inviteeId) return;
  const stamp = at.toISOString();
  await db()
    .insertInto("invites")
    .values({ inviter_user_id: inviterId, invitee_user_id: inviteeId, status: "pending", assist_id: null, created_at: stamp, completed_at: null, updated_at: stamp })
    .onConflict((oc) =>
      oc
        .columns(["inviter_user_id", "invitee_user_id"])
        .doUpdateSet({ created_at: stamp, updated_at: stamp })
        .where("invites.status", "=", "pending"),
    )
    .execute();
}

/** The newest invite this user opened within the last 7 days and has not completed. */
export async function latestPendingInvite(executor: Executor, inviteeId: number, at = new Date()) {
  return executor
    .selectFrom("invites")
    .select(["id", "inviter_user_id"])
    .where("invitee_user_id", "=", inviteeId)
    .where("status", "=", "pending")
    .where("inviter_user_id", "!=", inviteeId)
    .where("created_at", ">", new Date(at.getTime() - INVITE_PENDING_MS).toISOString())
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
}

// ---------------------------------------------------------------------------------------------
// Granting and assisting

/** Has this person assisted anyone: this account row, or any of their identities before (a deleted account). */
export async function hasAssisted(userId: number, executor: Executor = db()) {
  if (await executor.selectFrom("assists").select("id").where("assistant_user_id", "=", userId).executeTakeFirst()) return true;
  return hasMark(executor, await identityHashesOf(userId, executor), "has_assisted");
}

/**
 * PostgreSQL: the inviter's row is held until the transaction ends, so their assists are counted
 * one transaction at a time (FOR NO KEY UPDATE: rows that merely reference the inviter still insert).
 */
async function lockInviter(trx: Executor, inviterId: number) {
  if (dialect() !== "postgres") return;
  await trx.selectFrom("users").select("id").where("id", "=", inviterId).forNoKeyUpdate().execute();
}

export type AssistOutcome = { assistId: number; inviterReward: GrantedCoupon[]; milestones: number[] };

/**
 * The assist of `assistantId` for `inviterId`, in the caller's transaction (which already gave
 * the assistant their new-user grant). Null when the assistant has assisted before.
 */
export async function performAssist(trx: Executor, input: { inviterId: number; assistantId: number; rules: RuleView[]; at: Date }): Promise<AssistOutcome | null> {
  if (input.inviterId === input.assistantId) return null;
  await lockInviter(trx, input.inviterId);
  // Once per person: every identity of the assistant is marked; one marked before refuses.
  if (!(await claimMark(trx, await identityHashesOf(input.assistantId, trx), "has_assisted", input.at))) return null;
  const stamp = input.at.toISOString();
  const assist = await trx
    .insertInto("assists")
    .values({ inviter_user_id: input.inviterId, assistant_user_id: input.assistantId, created_at: stamp })
    .onConflict((oc) => oc.column("assistant_user_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!assist) return null;

  // The inviter's record becomes completed; the assistant's other pending invites can never complete.
  await trx
    .insertInto("invites")
    .values({ inviter_user_id: input.inviterId, invitee_user_id: input.assistantId, status: "completed", assist_id: assist.id, created_at: stamp, completed_at: stamp, updated_at: stamp })
    .onConflict((oc) => oc.columns(["inviter_user_id", "invitee_user_id"]).doUpdateSet({ status: "completed", assist_id: assist.id, completed_at: stamp, updated_at: stamp }))
    .execute();
  await trx.deleteFrom("invites").where("invitee_user_id", "=", input.assistantId).where("status", "=", "pending").execute();

  const inviterReward = (await grantOnce(trx, { userId: input.inviterId, key: `assist:${assist.id}`, via: "assist", event: "assist", rules: input.rules, at: input.at })) ?? [];
  const { count } = await trx
    .selectFrom("assists")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("inviter_user_id", "=", input.inviterId)
    .executeTakeFirstOrThrow();
  const milestones: number[] = [];
  for (const threshold of milestoneThresholds(input.rules)) {
    if (Number(count) < threshold) continue;
    const granted = await grantOnce(trx, { userId: input.inviterId, key: `milestone:${threshold}`, via: "milestone", event: "milestone", threshold, rules: input.rules, at: input.at });
    if (granted) milestones.push(threshold);
  }
  return { assistId: assist.id, inviterReward, milestones };
}

/**
 * The first student-id login (auth/student-login.server calls this after binding): the new-user
 * grant, and in the same transaction the assist of the invite the user opened, if any. Does
 * nothing for an old user. A failure is logged and never stops the login (the next login retries).
 */
export async function grantAtStudentLogin(userId: number, at = new Date()): Promise<{ granted: number; assisted: boolean }> {
  try {
    const rules = await loadRules();
    return await db()
      .transaction()
      .execute(async (trx) => {
        // Once per person: the grant marks every identity; one marked before (a deleted account) refuses.
        if (!(await claimMark(trx, await identityHashesOf(userId, trx), "new_user", at))) return { granted: 0, assisted: false };
        const granted = await grantOnce(trx, { userId, key: NEW_USER_KEY, via: "student_login", event: "new_user", rules, at });
        if (!granted) return { granted: 0, assisted: false };
        const pending = await latestPendingInvite(trx, userId, at);
        const assisted = pending ? await performAssist(trx, { inviterId: pending.inviter_user_id, assistantId: userId, rules, at }) : null;
        return { granted: granted.length, assisted: Boolean(assisted) };
      });
  } catch (error) {
    log("error", "coupon-login-grant", { userId, error: String(error) });
    return { granted: 0, assisted: false };
  }
}

/** Why this user cannot assist this inviter now, or null. */
async function refusalFor(user: Pick<User, "id">, inviter: Inviter | null): Promise<AssistRefusal | null> {
  if (!inviter) return "inviter_missing";
  if (inviter.id === user.id) return "self";
  if (await hasAssisted(user.id)) return "already";
  if (!(await isNewUser(user.id))) return "old_user";
  return null;
}

export type AssistCheck = { ok: true; inviter: Inviter } | { ok: false; reason: AssistRefusal; inviter: Inviter | null };

/**
 * The express tab's assist dialog: the code and the user are checked and the invite kept as
 * pending; the assist itself happens at registration (the invite-register dialog) or login.
 */
export async function startAssist(user: User, code: string, token: string | null): Promise<AssistCheck> {
  if (!normalizeInviteCode(code)) return { ok: false, reason: "code_required", inviter: null };
  const inviter = await resolveInviter(code, token);
  const refusal = await refusalFor(user, inviter);
  if (refusal || !inviter) return { ok: false, reason: refusal ?? "inviter_missing", inviter };
  await recordPendingInvite(inviter.id, user.id);
  return { ok: true, inviter };
}

export type RegisterInput = {
  nickname: string;
  phone: string;
  school: string;
  studentId: string;
  password: string;
  captcha: string;
  captchaId?: string;
  invite: string;
  inviter: string | null;
};

/** How the registration proves the student id: the school-account login of /crLogin (auth/student-login.server). */
export type SchoolLogin = (input: { school: string; studentId: string; password: string; captcha: string; captchaId?: string }) => Promise<
  { ok: true; userId: number; setCookie: string } | StudentLoginRefusal
>;

export type RegisterOutcome =
  | { ok: true; userId: number; setCookie: string; assistId: number }
  | { ok: false; reason: AssistRefusal | "failed"; setCookie?: string }
  // The school login's own refusal, handed on as it came (the route words it as the login form does).
  | { ok: false; reason: "login"; login: StudentLoginRefusal; setCookie?: undefined };

/**
 * The invite-register dialog (docs/architecture.md "New user"). The student id is proved by a
 * school-account login, the same one /crLogin does (`login`): it binds the student account to
 * this messenger identity, and its new-user grant performs the assist of the invite recorded
 * here in the same transaction — so an invented student id never assists, and nobody becomes
 * old before their assist. The nickname and phone go on the account after the login.
 */
export async function registerAndAssist(user: User, input: RegisterInput, login: SchoolLogin, at = new Date()): Promise<RegisterOutcome> {
  const refuse = (reason: AssistRefusal | "failed", setCookie?: string): RegisterOutcome => ({ ok: false, reason, setCookie });
  if (!normalizeInviteCode(input.invite)) return refuse("code_required");
  try {
    const inviter = await resolveInviter(input.invite, input.inviter);
    const early = await refusalFor(user, inviter);
    if (early || !inviter) return refuse(early ?? "inviter_missing");
    await recordPendingInvite(inviter.id, user.id, at);
    const outcome = await login({ school: input.school, studentId: input.studentId, password: input.password, captcha: input.captcha, captchaId: input.captchaId });
    if (!outcome.ok) return { ok: false, reason: "login", login: outcome };
    await db()
      .updateTable("users")
      .set({ phone: input.phone, updated_at: at.toISOString() })
      .where("id", "=", outcome.userId)
      .execute();
    // The name typed here is kept when it passes the rules for names and is free (else asked later).
    if (!nicknameProblem(input.nickname)) await setNickname(outcome.userId, input.nickname);
    const assist = await db()
      .selectFrom("assists")
      .select("id")
      .where("assistant_user_id", "=", outcome.userId)
      .where("inviter_user_id", "=", inviter.id)
      .executeTakeFirst();
    if (assist) return { ok: true, userId: outcome.userId, setCookie: outcome.setCookie, assistId: assist.id };
    // The login went through (the student is signed in) but this person was not new any more.
    if (inviter.id === outcome.userId) return refuse("self", outcome.setCookie);
    return refuse((await hasAssisted(outcome.userId)) ? "already" : "old_user", outcome.setCookie);
  } catch (error) {
    log("error", "invite-register", { userId: user.id, error: String(error) });
    return refuse("failed");
  }
}

// ---------------------------------------------------------------------------------------------
// Invite records (only ever for their inviter)

export type InviteRecord = {
  id: number;
  status: InviteStatus;
  nickname: string;
  realNickname: string | null;
  avatar: string | null;
  realAvatar: string | null;
  at: string;
  rewards: { name: string; count: number }[];
};

export async function completedInvites(inviterId: number) {
  const { count } = await db()
    .selectFrom("assists")
    .select((eb) => eb.fn.countAll<string | number>().as("count"))
    .where("inviter_user_id", "=", inviterId)
    .executeTakeFirstOrThrow();
  return Number(count);
}

/** The inviter's invites, newest first: pending, completed (with what each earned them) and expired. */
export async function inviteRecords(inviterId: number, options: { limit?: number; now?: Date } = {}) {
  const now = options.now ?? new Date();
  let query = db()
    .selectFrom("invites")
    .leftJoin("users", "users.id", "invites.invitee_user_id")
    .select([
      "invites.id",
      "invites.status",
      "invites.assist_id",
      "invites.created_at",
      "invites.completed_at",
      "users.nickname",
      "users.wechat_nickname",
      "users.avatar_url",
      "users.wechat_avatar",
    ])
    .where("invites.inviter_user_id", "=", inviterId)
    .orderBy(sql`coalesce(invites.completed_at, invites.created_at)`, "desc")
    .orderBy("invites.id", "desc");
  if (options.limit) query = query.limit(options.limit);
  const [rows, total, completed] = await Promise.all([
    query.execute(),
    db()
      .selectFrom("invites")
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .where("inviter_user_id", "=", inviterId)
      .executeTakeFirstOrThrow(),
    completedInvites(inviterId),
  ]);

  const keys = rows.filter((row) => row.assist_id !== null).map((row) => `assist:${row.assist_id}`);
  const rewards = new Map<string, { name: string; count: number }[]>();
  if (keys.length > 0) {
    const coupons = await db()
      .selectFrom("coupon_grants")
      .innerJoin("user_coupons", "user_coupons.grant_id", "coupon_grants.id")
      .select(["coupon_grants.grant_key", "user_coupons.name"])
      .where("coupon_grants.user_id", "=", inviterId)
      .where("coupon_grants.grant_key", "in", keys)
      .orderBy("user_coupons.id")
      .execute();
    for (const coupon of coupons) {
      const list = rewards.get(coupon.grant_key) ?? [];
      const item = list.find((entry) => entry.name === coupon.name);
      if (item) item.count += 1;
      else list.push({ name: coupon.name, count: 1 });
      rewards.set(coupon.grant_key, list);
    }
  }

  const records: InviteRecord[] = rows.map((row) => ({
    id: row.id,
    status: inviteStatus({ status: row.status, createdAt: row.created_at }, now),
    nickname: row.nickname ?? row.wechat_nickname ?? m.promo.defaultNickname,
    realNickname: row.wechat_nickname ?? null,
    avatar: row.avatar_url ?? row.wechat_avatar ?? null,
    realAvatar: row.wechat_avatar ?? null,
    at: row.completed_at ?? row.created_at,
    rewards: row.assist_id !== null ? (rewards.get(`assist:${row.assist_id}`) ?? []) : [],
  }));
  return { records, total: Number(total.count), completed };
}

/** The product rules' invite record (GET /api/coupon/assist/records/openid/{openid}). */
export function recordForApi(record: InviteRecord) {
  return {
    id: record.id,
    status: record.status,
    assistant_real_avatar: record.realAvatar,
    assistant_avatar: record.avatar,
    assistant_real_nickname: record.realNickname,
    assistant_nickname: record.nickname,
    created_at: record.at,
    reward_coupon_name: record.rewards.map((reward) => reward.name).join("、") || null,
  };
}
