// /market/promo-activity — the promo page (docs/product-rules.md, "Screens"): banner, new-user card, invite
// card, the invite-record card and the coupon summary when logged in (the messenger identity is
// known), the rules, and the share, invite-register, login-prompt and assist-prompt dialogs as
// URL states (?dialog=…). Query params invite and inviter carry an invite link.
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { InviteShare } from "~/components/coupons/InviteShare";
import { useShareCard } from "~/components/share";
import { FieldError, FormError } from "~/components/FieldError";
import { InviteList, Ticket } from "~/components/coupons/PromoParts";
import { Icon, type IconName } from "~/components/icons";
import { IconList } from "~/components/IconList";
import { Panel } from "~/components/market/Panel";
import { Page } from "~/components/Page";
import { ProofOfWork, type ProofChallenge } from "~/components/ProofOfWork";
import { PHONE_INPUT_PATTERN } from "~/lib/address";
import { submittedText, type FormResult } from "~/lib/form-result";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { fillTemplate } from "~/lib/template";
import { parseWithZod } from "@conform-to/zod/v4";
import { campaignCopy, rulesFor } from "~/lib/coupon-rules";
import { lastValidDay } from "~/lib/coupons";
import { RECORDS_SHOWN, milestoneProgress } from "~/lib/invites";
import { coupons as couponMessages } from "~/lib/messages/coupons";
import { isMessengerBrowser } from "~/lib/browser";
import { loginPath } from "~/lib/redirect";
import { InviteRegisterSchema } from "~/lib/schemas/coupons";
import { messengerAuthPath } from "~/lib/wechat-auth";
import { messengerAuthRedirect } from "~/server/auth/messenger.server";
import { createCaptcha } from "~/server/auth/captcha.server";
import { createProofChallenge, proofVerdict } from "~/server/auth/proof-of-work.server";
import { PROOF_OF_WORK } from "~/lib/proof-of-work";
import { refusals as refusalMessages } from "~/lib/messages/refusals";
import { deviceIdOf, getUser, type User } from "~/server/auth/session.server";
import { loginStudent } from "~/server/auth/student-login.server";
import { listSchools } from "~/server/school/school.server";
import { pricedTypesFor } from "~/server/coupons/wallet.server";
import { hasAssisted, inviteRecords, recordPendingInvite, registerAndAssist, resolveInviter } from "~/server/coupons/campaign.server";
import { inviteShareOf } from "./invite-share.server";
import { ASSIST_REFUSALS } from "~/server/http/coupon-refusals";
import { studentLoginRefusal } from "~/server/http/student-login-refusals";
import { couponSummary, isNewUser, loadRules } from "~/server/coupons/wallet.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { deleteDataParams } from "~/lib/request-kind";
import { promoTexts, recordView, type PromoTexts, type RecordView } from "./promo-texts.server";
import { requireMessengerUser } from "~/server/http/guards.server";

const msg = { app: appMessages, titles: titlesMessages };

const m = couponMessages;


const PROMO_DIALOGS = ["share", "register", "login", "assist", "none"] as const;
type PromoDialog = (typeof PROMO_DIALOGS)[number];

function pathWith(url: URL, changes: Record<string, string | null>) {
  const params = new URLSearchParams(url.search);
  deleteDataParams(params);
  params.delete("notice");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  const query = params.toString();
  return query ? `${url.pathname}?${query}` : url.pathname;
}


export async function loader({ request }: LoaderFunctionArgs) {
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
    let refusal: string | null = inviter ? null : ASSIST_REFUSALS.inviter_missing;
    if (inviter && user?.openid) {
      if (inviter.id === user.id) refusal = ASSIST_REFUSALS.self;
      else if (await hasAssisted(user.id)) refusal = ASSIST_REFUSALS.already;
      else if (!(await isNewUser(user.id))) refusal = ASSIST_REFUSALS.old_user;
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
    registered: url.searchParams.get("notice") === "registered",
    links: promoLinks(url, dialog),
  };
}

/** The links the page needs, as plain strings (loader data is JSON). */
function promoLinks(url: URL, dialog: PromoDialog | null) {
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
export async function action({ request, context }: ActionFunctionArgs) {
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
  if (proof === "invalid") return Response.json({ ...submission.reply({ ...hidden, formErrors: [refusalMessages.proofInvalid] }), ...(await fresh()) }, { status: 403 });
  const points = proof === "valid" ? 1 : PROOF_OF_WORK.failuresWithoutProof;
  // Invite registration is rate-limited: the dialog's own error line, with Retry-After.
  const verdict = await consumeRateLimit("invite-register", { userId: user.id, ip: context.clientIp }, points);
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return Response.json({ ...submission.reply({ ...hidden, formErrors: [refused.message] }), ...(await fresh()) }, { status: refused.status, headers: refused.headers });
  }
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
    // A refused school login reads as on the login form (and names the field); an assist refusal is the form's.
    const { message, field } =
      outcome.reason === "login"
        ? studentLoginRefusal(outcome.login)
        : { message: outcome.reason === "failed" ? m.errors.registerFailed : ASSIST_REFUSALS[outcome.reason], field: undefined };
    const reply = submission.reply({
      ...hidden,
      ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
    });
    const status = outcome.reason === "failed" ? 500 : outcome.reason === "login" ? 400 : 409;
    return Response.json({ ...reply, ...(await fresh()) }, { status, headers });
  }
  return redirect("/market/promo-activity?notice=registered", { headers });
}

export const meta: MetaFunction = () => [{ title: `${msg.titles.promo} · ${msg.app.name}` }];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function PromoActivity() {
  const data = useLoaderData<typeof loader>();
  const { copy, links, t } = data;
  // The messenger's share menu: the student's own invite link once they have one, else the page.
  useShareCard(
    data.share
      ? { title: data.share.shareTitle, desc: data.share.shareDesc, link: data.share.link }
      : { title: t.promo.bannerTitle, desc: copy.bannerSubtitle, link: "/market/promo-activity" },
  );
  return (
    <Page
      title={msg.titles.promo}
      back="/market"
      actions={
        data.loggedIn ? (
          <Link to={links.share} preventScrollReset replace className="rounded-full bg-white/15 px-3 py-1 text-sm">
            {t.share.title}
          </Link>
        ) : null
      }
    >
      {data.registered ? (
        <p role="status" className="rounded-2xl bg-green-50 px-4 py-3 text-sm text-green-800">
          {t.promo.registered}
        </p>
      ) : null}

      <section className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-orange-500 via-rose-500 to-pink-500 px-4 py-5 text-white shadow-sm">
        <p className="text-xl font-bold">{t.promo.bannerTitle}</p>
        <p className="mt-1 text-sm text-white/90">{copy.bannerSubtitle}</p>
        <div className="mt-3 flex gap-2">
          {copy.newUserTickets.map((ticket) => (
            <Ticket key={ticket.label} label={ticket.label} count={ticket.count} />
          ))}
        </div>
        <Icon name="sparkle" className="pointer-events-none absolute -right-4 -top-4 h-28 w-28 text-white/15" />
      </section>

      <OfferCard id="new-user-title" icon="star" title={t.promo.newUserTitle} body={copy.newUserBody}>
        {data.granted ? (
          <Link to="/market" className="btn-primary h-10 w-full">
            {t.promo.claimed}
          </Link>
        ) : (
          <Link to={links.login} preventScrollReset replace className="btn h-10 w-full bg-orange-700 text-white">
            {t.promo.claim}
          </Link>
        )}
      </OfferCard>

      <OfferCard id="invite-title" icon="users" title={t.promo.inviteTitle} body={copy.inviteBody}>
        {copy.milestoneLines.length > 0 ? <IconList lines={copy.milestoneLines} icon="target" className="space-y-1 text-sm text-orange-700" /> : null}
        <StepLink loggedIn={data.loggedIn} to={links.share} auth={links.authShare} className="btn h-10 w-full bg-orange-700 text-white">
          {t.promo.inviteAction}
        </StepLink>
      </OfferCard>

      {data.records ? <RecordsCard records={data.records} t={t} /> : <LoginCard href={links.auth} t={t} />}
      {data.summary ? <SummaryCard summary={data.summary} t={t} /> : null}

      <section className="card space-y-2" aria-labelledby="rules-title">
        <h2 id="rules-title" className="text-base font-semibold">
          {t.promo.rulesTitle}
        </h2>
        <ol className="list-decimal space-y-1.5 pl-5 text-sm leading-6 text-slate-600">
          {copy.rules.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ol>
      </section>

      <Dialogs data={data} />
    </Page>
  );
}

/** One of the two offers: its heading with an icon, what it gives, then what the student can do. */
function OfferCard({ id, icon, title, body, children }: { id: string; icon: IconName; title: string; body: string; children: ReactNode }) {
  return (
    <section className="card space-y-2" aria-labelledby={id}>
      <h2 id={id} className="flex items-center gap-1.5 text-base font-semibold">
        <Icon name={icon} className="h-5 w-5 text-orange-500" />
        {title}
      </h2>
      <p className="text-sm text-slate-600">{body}</p>
      {children}
    </section>
  );
}

function RecordsCard({ records, t }: { records: NonNullable<Data["records"]>; t: PromoTexts }) {
  const { progress } = records;
  return (
    <section className="card space-y-3" aria-labelledby="records-title" data-testid="invite-records">
      <div className="flex items-center justify-between">
        <h2 id="records-title" className="text-base font-semibold">
          {t.promo.recordsTitle}
        </h2>
        <span className="text-sm text-orange-700">{fillTemplate(t.promo.completed, { count: records.completed })}</span>
      </div>
      <div>
        <div className="h-2 overflow-hidden rounded-full bg-orange-100" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.percent}>
          <div className="h-full rounded-full bg-orange-500" style={{ width: `${progress.percent}%` }} />
        </div>
        <p className="mt-1.5 flex justify-between text-xs text-slate-500">
          <span>{progress.next === null ? t.promo.allReached : fillTemplate(t.promo.next, { remaining: progress.remaining, reward: records.nextReward ?? "" })}</span>
          {progress.next !== null ? (
            <span className="tabular-nums">
              {records.completed}/{progress.next}
            </span>
          ) : null}
        </p>
      </div>
      {records.items.length === 0 ? (
        <p className="rounded-xl bg-slate-50 px-3 py-5 text-center text-sm text-slate-500">{t.promo.empty}</p>
      ) : (
        <InviteList items={records.items} labels={{ title: t.promo.recordsTitle, plus: t.promo.plus }} />
      )}
      {records.total > records.items.length ? (
        <Link to="/market/promo-activity/invites" className="flex items-center justify-center gap-1 text-sm text-orange-700">
          {t.promo.viewAll}
          <Icon name="chevron" className="h-4 w-4" />
        </Link>
      ) : null}
    </section>
  );
}

function LoginCard({ href, t }: { href: string; t: PromoTexts }) {
  return (
    <section className="card flex items-center gap-3">
      <Icon name="shield" className="h-6 w-6 shrink-0 text-orange-500" />
      <p className="flex-1 text-sm text-slate-600">{t.promo.loginForRecords}</p>
      <a href={href} className="btn shrink-0 bg-orange-700 px-3 py-1.5 text-xs text-white">
        {t.promo.authorize}
      </a>
    </section>
  );
}

function SummaryCard({ summary, t }: { summary: NonNullable<Data["summary"]>; t: PromoTexts }) {
  return (
    <section className="card space-y-3" aria-labelledby="summary-title" data-testid="coupon-summary">
      <h2 id="summary-title" className="text-base font-semibold">
        {t.promo.summaryTitle}
      </h2>
      {summary.groups.length === 0 ? (
        <p className="rounded-xl bg-slate-50 px-3 py-5 text-center text-sm text-slate-500">{t.promo.summaryEmpty}</p>
      ) : (
        <ul className="space-y-2">
          {summary.groups.map((group) => (
            <li key={group.key} className="flex items-center gap-3 rounded-xl bg-orange-50/70 px-3 py-2.5">
              <span className="flex h-11 w-14 shrink-0 items-center justify-center rounded-lg bg-orange-700 text-base font-bold text-white">{group.label}</span>
              <span className="min-w-0 flex-1">
                <span className="block text-sm font-medium text-slate-800">{group.name}</span>
                <span className="block text-xs text-slate-500">
                  {fillTemplate(t.expiresOn, { date: group.lastDay })}
                  {group.soon ? <span className="ml-1.5 rounded bg-red-100 px-1 text-[11px] text-red-600">{t.promo.expiringSoon}</span> : null}
                </span>
              </span>
              <span className="text-sm font-semibold text-orange-700">{fillTemplate(t.promo.availableCount, { count: group.count })}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Dialogs({ data }: { data: Data }) {
  const { links, t } = data;
  switch (data.dialog) {
    case "share":
      return data.share ? (
        <Panel title={t.share.title} closeTo={links.close} labelId="share-title" variant="dialog">
          <InviteShare {...data.share} />
        </Panel>
      ) : null;
    case "login":
      return (
        <Prompt title={t.loginPrompt.title} closeTo={links.close} body={t.loginPrompt.body}>
          <Link to={links.close} replace preventScrollReset className="btn-ghost h-10">
            {t.loginPrompt.cancel}
          </Link>
          <Link to={links.studentLogin} className="btn h-10 bg-orange-700 text-white">
            {t.loginPrompt.go}
          </Link>
        </Prompt>
      );
    case "assist": {
      const invite = data.invite;
      if (!invite) return null;
      const nickname = invite.inviter?.nickname ?? t.promo.defaultNickname;
      return (
        <Prompt
          title={t.assistPrompt.title}
          closeTo={links.close}
          body={invite.refusal ?? fillTemplate(t.assistPrompt.body, { nickname, reward: data.copy.newUserReward })}
          alert={Boolean(invite.refusal)}
          avatar={invite.inviter?.avatar ?? null}
          nickname={invite.inviter ? nickname : null}
        >
          <Link to={links.close} replace preventScrollReset className="btn-ghost h-10">
            {t.assistPrompt.later}
          </Link>
          {invite.refusal ? null : (
            <StepLink loggedIn={data.loggedIn} to={links.register} auth={links.auth} className="btn h-10 bg-orange-700 text-white">
              {t.assistPrompt.yes}
            </StepLink>
          )}
        </Prompt>
      );
    }
    case "register":
      return data.invite && data.registerForm ? (
        <RegisterDialog invite={data.invite} form={data.registerForm} closeTo={links.close} reward={data.copy.newUserReward} t={t} />
      ) : null;
    default:
      return null;
  }
}

/** The offer's next step: a link within the page for a signed-in student, else the messenger sign-in that comes back to it. */
function StepLink({ loggedIn, to, auth, className, children }: { loggedIn: boolean; to: string; auth: string; className: string; children: ReactNode }) {
  return loggedIn ? (
    <Link to={to} replace preventScrollReset className={className}>
      {children}
    </Link>
  ) : (
    <a href={auth} className={className}>
      {children}
    </a>
  );
}

function Prompt(props: { title: string; body: string; closeTo: string; children: ReactNode; alert?: boolean; avatar?: string | null; nickname?: string | null }) {
  return (
    <Panel title={props.title} closeTo={props.closeTo} labelId="prompt-title" variant="dialog">
      <div className="space-y-4">
        {props.nickname ? (
          <div className="flex items-center gap-3">
            <Avatar src={props.avatar ?? null} name={props.nickname} />
            <span className="text-sm font-medium text-slate-800">{props.nickname}</span>
          </div>
        ) : null}
        <p role={props.alert ? "alert" : undefined} className={`text-sm leading-6 ${props.alert ? "text-red-600" : "text-slate-600"}`}>
          {props.body}
        </p>
        <div className="grid grid-cols-2 gap-2">{props.children}</div>
      </div>
    </Panel>
  );
}

function Avatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img src={src} alt="" className="h-10 w-10 rounded-full object-cover" referrerPolicy="no-referrer" />
  ) : (
    <span className="flex h-10 w-10 items-center justify-center rounded-full bg-orange-100 font-semibold text-orange-700" aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  );
}

function RegisterDialog({
  invite,
  form,
  closeTo,
  reward,
  t,
}: {
  invite: NonNullable<Data["invite"]>;
  form: NonNullable<Data["registerForm"]>;
  closeTo: string;
  reward: string;
  t: PromoTexts;
}) {
  const reply = useActionData<typeof action>() as (FormResult & { captcha?: { id: string; image: string }; proof?: ProofChallenge }) | undefined;
  const captcha = reply?.captcha ?? form.captcha;
  const proof = reply?.proof ?? form.proof;
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formData?.get("intent") === "register";
  // conform's client (the page has room in the JS budget): the action's reply, errors beside each field.
  const [conform, fields] = useForm({ id: "register", lastResult: reply as SubmissionResult<string[]> | undefined });
  const errorsOf = (_reply: unknown, name: string): string[] =>
    (name === "" ? conform.errors : fields[name as "nickname" | "phone" | "school" | "studentId" | "password" | "captcha"].errors) ?? [];
  const formError = errorsOf(reply, "")[0];
  const nickname = invite.inviter?.nickname ?? t.promo.defaultNickname;
  const field = (
    name: "nickname" | "phone" | "studentId" | "password" | "captcha",
    label: string,
    placeholder: string,
    extra: { type?: string; inputMode?: "numeric" | "tel"; minLength?: number; maxLength: number; pattern?: string; autoComplete?: string },
  ) => {
    const error = errorsOf(reply, name)[0];
    const secret = name === "password" || name === "captcha";
    return (
      <label className="block text-sm">
        <span className="field-label">{label}</span>
        <input
          name={name}
          key={name === "captcha" ? `${name}-${captcha.id}` : name}
          defaultValue={secret ? "" : submittedText(reply, name)}
          placeholder={placeholder}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${name}-error` : undefined}
          className="field-input"
          {...extra}
        />
        <FieldError field={{ errorId: `${name}-error`, errors: errorsOf(reply, name) }} as="span" />
      </label>
    );
  };
  return (
    <Panel title={t.register.title} closeTo={closeTo} labelId="register-title" variant="dialog">
      <Form method="post" replace preventScrollReset className="space-y-3" {...getFormProps(conform)} noValidate={false} aria-describedby={formError ? "register-error" : undefined}>
        <div className="flex items-center gap-3 rounded-2xl bg-orange-50 px-3 py-2.5">
          <Avatar src={invite.inviter?.avatar ?? null} name={nickname} />
          <span className="text-sm text-slate-700">{fillTemplate(t.register.inviter, { nickname })}</span>
        </div>
        <FormError id="register-error" message={formError} />
        <input type="hidden" name="intent" value="register" />
        <ProofOfWork challenge={proof} />
        <input type="hidden" name="invite" value={invite.code} />
        {invite.token ? <input type="hidden" name="inviter" value={invite.token} /> : null}
        {field("nickname", t.register.nickname, t.register.nicknamePlaceholder, { minLength: 2, maxLength: 20, autoComplete: "nickname" })}
        {field("phone", t.register.phone, t.register.phonePlaceholder, { type: "tel", inputMode: "tel", maxLength: 11, pattern: PHONE_INPUT_PATTERN, autoComplete: "tel" })}
        <p className="text-xs text-slate-500">{t.register.proof}</p>
        <label className="block text-sm">
          <span className="field-label">{t.register.school}</span>
          <select
            name="school"
            required
            defaultValue={submittedText(reply, "school") || (form.schools.length === 1 ? form.schools[0]!.school_code : "")}
            aria-invalid={errorsOf(reply, "school")[0] ? true : undefined}
            aria-describedby={errorsOf(reply, "school")[0] ? "school-error" : undefined}
            className="field-input"
          >
            <option value="">{t.register.schoolPlaceholder}</option>
            {form.schools.map((school) => (
              <option key={school.school_code} value={school.school_code}>
                {school.school_name}
              </option>
            ))}
          </select>
          <FieldError field={{ errorId: "school-error", errors: errorsOf(reply, "school") }} as="span" />
        </label>
        {field("studentId", t.register.studentId, t.register.studentIdPlaceholder, { minLength: 6, maxLength: 20, autoComplete: "username" })}
        {field("password", t.register.password, t.register.passwordPlaceholder, { type: "password", maxLength: 128, autoComplete: "current-password" })}
        <input type="hidden" name="captchaId" value={captcha.id} />
        <div className="flex items-end gap-2">
          <div className="flex-1">{field("captcha", t.register.captcha, t.register.captchaPlaceholder, { maxLength: 4, autoComplete: "off" })}</div>
          <img src={captcha.image} width={120} height={44} alt={t.register.captcha} className="mb-0.5 shrink-0 rounded-xl border border-slate-200" />
        </div>
        <p className="text-xs text-slate-500">{fillTemplate(t.register.hint, { reward })}</p>
        <button type="submit" className="btn h-11 w-full bg-orange-700 text-white" disabled={submitting}>
          {submitting ? t.register.submitting : t.register.submit}
        </button>
      </Form>
    </Panel>
  );
}
