// The promo page (/market/promo-activity) and its invite list (/market/promo-activity/invites).
// 'Logged in' here means the messenger identity is known (the product rules' user_data/auth_info). Every
// coupon text is rendered from the grant rules. The dialogs are URL states (?dialog=share |
// register | login | assist | none), so they work without JavaScript and survive a reload.
import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { campaignCopy, rulesFor } from "~/lib/coupon-rules";
import { lastValidDay } from "~/lib/coupons";
import { RECORDS_SHOWN, milestoneProgress } from "~/lib/invites";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { isMessengerBrowser } from "~/lib/browser";
import { loginPath } from "~/lib/redirect";
import { commentTime } from "~/lib/relative-time";
import { InviteRegisterSchema } from "~/lib/schemas/coupons";
import { fillTemplate } from "~/lib/template";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { messengerAuthRedirect } from "../auth/messenger.server";
import { createCaptcha } from "../auth/captcha.server";
import { createProofChallenge, proofVerdict } from "../auth/proof-of-work.server";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { errors as errorMessages } from "~/lib/messages/errors";
import { deviceIdOf, getUser, requireMessengerUser, type User } from "../auth/session.server";
import { loginStudent } from "../auth/student-login.server";
import { listSchools } from "../school/school.server";
import { pricedTypesFor } from "./api.server";
import {
  REFUSAL_MESSAGES,
  hasAssisted,
  inviteRecords,
  recordPendingInvite,
  registerAndAssist,
  resolveInviter,
  type InviteRecord,
} from "./campaign.server";
import { inviteShareOf } from "./share.server";
import { couponSummary, isNewUser, loadRules } from "./wallet.server";
import { consumeRateLimit } from "../rate-limits.server";
import { deleteDataParams } from "~/lib/request-kind";

const m = couponMessages;

/** The catalogue texts the promo pages' components show, sent with the data (the page's JavaScript carries no catalogue). */
export function promoTexts() {
  const { rules: _rules, ...promo } = m.promo;
  return { promo, share: m.share, register: m.register, loginPrompt: m.loginPrompt, assistPrompt: m.assistPrompt, expiresOn: m.expiresOn };
}

export type PromoTexts = ReturnType<typeof promoTexts>;

export const PROMO_DIALOGS = ["share", "register", "login", "assist", "none"] as const;
export type PromoDialog = (typeof PROMO_DIALOGS)[number];

function pathWith(url: URL, changes: Record<string, string | null>) {
  const params = new URLSearchParams(url.search);
  deleteDataParams(params);
  params.delete("registered");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}

function recordView(record: InviteRecord, now: Date) {
  return {
    id: record.id,
    status: record.status,
    statusLabel: m.promo.status[record.status],
    nickname: record.nickname,
    avatar: record.avatar,
    time: commentTime(record.at, now),
    rewards: record.rewards,
  };
}

export type RecordView = ReturnType<typeof recordView>;

export async function promoLoader(request: Request) {
  const url = new URL(request.url);
  const user = await getUser(request);
  // Inside the messenger, an unknown (or stale) identity is authorized first, as on the market.
  const authRedirect = await messengerAuthRedirect(request, user);
  if (authRedirect) throw redirect(authRedirect);

  const now = new Date();
  const loggedIn = Boolean(user?.openid);
  const types = user ? await pricedTypesFor(user) : await pricedTypesFor({ campus_code: null });
  const rules = await loadRules();
  const copy = campaignCopy(rules, types);
  const requested = url.searchParams.get("dialog");
  let dialog: PromoDialog | null = (PROMO_DIALOGS as readonly string[]).includes(requested ?? "") ? (requested as PromoDialog) : null;

  // The invite the URL carries (?invite=<code>&inviter=<opaque id>).
  const code = url.searchParams.get("invite");
  const token = url.searchParams.get("inviter");
  let invite: { code: string; token: string | null; inviter: { nickname: string; avatar: string | null } | null; refusal: string | null } | null = null;
  if (code !== null) {
    const inviter = await resolveInviter(code, token);
    let refusal: string | null = inviter ? null : REFUSAL_MESSAGES.inviter_missing;
    if (inviter && user?.openid) {
      if (inviter.id === user.id) refusal = REFUSAL_MESSAGES.self;
      else if (await hasAssisted(user.id)) refusal = REFUSAL_MESSAGES.already;
      else if (!(await isNewUser(user.id))) refusal = REFUSAL_MESSAGES.old_user;
      // A new user opened the link: the invite is pending (7 days) until they register or log in.
      else await recordPendingInvite(inviter.id, user.id, now);
    }
    invite = { code, token, inviter: inviter ? { nickname: inviter.nickname, avatar: inviter.avatar } : null, refusal };
    // The assist prompt opens by itself on an invite link (not once dismissed with 'later').
    if (dialog === null) dialog = "assist";
  }
  if (dialog === "register" && (!invite || invite.refusal || !loggedIn)) dialog = invite ? "assist" : null;
  if (dialog === "share" && !loggedIn) dialog = null;

  // 'Claimed, go order' for anyone signed in who received the grant (a student logged in outside
  // the messenger too); records and the summary need the messenger identity ('logged in' here).
  const granted = user ? !(await isNewUser(user.id)) : false;
  let share: Awaited<ReturnType<typeof inviteShareOf>> = null;
  let records: { completed: number; total: number; items: RecordView[]; progress: ReturnType<typeof milestoneProgress>; nextReward: string | null } | null = null;
  let summary: { available: number; groups: { key: string; name: string; label: string; count: number; lastDay: string; soon: boolean }[] } | null = null;
  if (user?.openid) {
    const [list, wallet] = await Promise.all([inviteRecords(user.id, { limit: RECORDS_SHOWN, now }), couponSummary(user.id, now)]);
    share = await inviteShareOf(request, user, types);
    const thresholds = [...new Set(rules.filter((rule) => rule.event === "milestone").map((rule) => rule.threshold))];
    const progress = milestoneProgress(list.completed, thresholds);
    records = {
      completed: list.completed,
      total: list.total,
      items: list.records.map((record) => recordView(record, now)),
      progress,
      nextReward: progress.next === null ? null : (copy.milestones.find((item) => item.threshold === progress.next)?.reward ?? null),
    };
    summary = {
      available: wallet.stats.available,
      groups: wallet.groups.map((group) => ({
        key: `${group.templateId ?? group.name}`,
        name: group.name,
        label: group.label,
        count: group.availableCount,
        lastDay: lastValidDay(group.nearestExpiry).slice(5),
        soon: group.expiringSoon,
      })),
    };
  }

  // The invite-register dialog is a school-account login: the schools and a captcha.
  // Its proof of work (decision 042) is solved by the page; without JavaScript the form goes on.
  const registerForm =
    dialog === "register" ? { schools: (await listSchools()).schools, captcha: await createCaptcha(), proof: await createProofChallenge() } : null;

  return {
    t: promoTexts(),
    loggedIn,
    granted,
    registerForm,
    copy: {
      bannerSubtitle: fillTemplate(m.promo.bannerSubtitle, { priceFrom: copy.priceFrom }),
      newUserBody: copy.newUserBody,
      newUserTickets: copy.newUserTickets,
      newUserReward: copy.newUserReward,
      inviteBody: copy.inviteBody,
      assistTickets: rulesFor(rules, "assist").map((rule) => ({ label: rule.template.name, count: rule.quantity })),
      milestoneLines: copy.milestoneLines,
      rules: copy.rules,
    },
    invite,
    dialog,
    share,
    records,
    summary,
    registered: url.searchParams.get("registered") === "1",
    links: promoLinks(url, dialog),
  };
}

/** The links the page needs, as plain strings (loader data is JSON). */
export function promoLinks(url: URL, dialog: PromoDialog | null) {
  return {
    here: pathWith(url, { dialog: null }),
    close: pathWith(url, { dialog: "none" }),
    share: pathWith(url, { dialog: "share" }),
    register: pathWith(url, { dialog: "register" }),
    login: pathWith(url, { dialog: "login" }),
    auth: messengerAuthPath(pathWith(url, { dialog: dialog === "assist" || dialog === "register" ? "register" : null })),
    authShare: messengerAuthPath(pathWith(url, { dialog: "share" })),
    studentLogin: loginPath(pathWith(url, { dialog: null })),
  };
}

/**
 * The invite-register dialog's form: a school-account login (as /crLogin) proves the student id;
 * its new-user grant and the assist happen in one transaction (campaign.server registerAndAssist).
 */
export async function promoAction(request: Request, context: { clientIp?: string }) {
  const user = await requireMessengerUser(request);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: InviteRegisterSchema });
  const hidden = { hideFields: ["password", "captcha"] };
  // Every answer but success carries a new captcha and a new proof-of-work challenge.
  const fresh = async () => ({ captcha: await createCaptcha(), proof: await createProofChallenge() });
  if (submission.status !== "success") return Response.json({ ...submission.reply(hidden), ...(await fresh()) }, { status: 400 });
  const value = submission.value;
  // A forged or reused proof is refused; none (no JavaScript) costs double on the limits below.
  const proof = await proofVerdict(formData.get(PROOF_OF_WORK.field));
  if (proof === "invalid") return Response.json({ ...submission.reply({ ...hidden, formErrors: [errorMessages.proofInvalid] }), ...(await fresh()) }, { status: 403 });
  const points = proof === "valid" ? 1 : PROOF_OF_WORK.failuresWithoutProof;
  // Invite registration is rate-limited: the dialog's own error line, with Retry-After.
  const verdict = await consumeRateLimit("invite-register", { userId: user.id, ip: context.clientIp }, points);
  if (!verdict.ok) return Response.json({ ...submission.reply({ ...hidden, formErrors: [verdict.message] }), ...(await fresh()) }, { status: 429, headers: verdict.headers });
  const { deviceId, setCookie: deviceCookie } = await deviceIdOf(request);
  const outcome = await registerAndAssist(
    user as User,
    {
      nickname: value.nickname,
      phone: value.phone,
      school: value.school,
      studentId: value.studentId,
      password: value.password,
      captcha: value.captcha,
      captchaId: value.captchaId,
      invite: value.invite ?? "",
      inviter: value.inviter || null,
    },
    (login) =>
      loginStudent(login, {
        ip: context.clientIp ?? "unknown",
        request,
        deviceId,
        inMessenger: isMessengerBrowser(request.headers.get("User-Agent")),
        current: user as User,
        proved: proof === "valid",
      }),
  );
  const headers = new Headers();
  const sessionCookie = outcome.ok ? outcome.setCookie : outcome.setCookie;
  if (sessionCookie) headers.append("Set-Cookie", sessionCookie);
  if (deviceCookie) headers.append("Set-Cookie", deviceCookie);
  if (!outcome.ok) {
    const reply = submission.reply({
      ...hidden,
      ...(outcome.field ? { fieldErrors: { [outcome.field]: [outcome.message] } } : { formErrors: [outcome.message] }),
    });
    const status = outcome.reason === "failed" ? 500 : outcome.reason === "login" ? 400 : 409;
    return Response.json({ ...reply, ...(await fresh()) }, { status, headers });
  }
  return redirect("/market/promo-activity?registered=1", { headers });
}

/** /market/promo-activity/invites: every invite of the signed-in user. */
export async function invitesLoader(request: Request) {
  const user = await requireMessengerUser(request);
  const now = new Date();
  const list = await inviteRecords(user.id, { now });
  const rules = await loadRules();
  const thresholds = [...new Set(rules.filter((rule) => rule.event === "milestone").map((rule) => rule.threshold))];
  return {
    t: promoTexts(),
    completed: list.completed,
    total: list.total,
    items: list.records.map((record) => recordView(record, now)),
    progress: milestoneProgress(list.completed, thresholds),
  };
}
