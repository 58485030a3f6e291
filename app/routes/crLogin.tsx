import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Icon } from "~/components/icons";
import { useHydrated } from "~/components/Page";
import { LabelledField } from "~/components/LabelledField";
import { CaptchaField, LoginFormHead, useLoginChallenges } from "~/components/LoginParts";
import { isMessengerBrowser } from "~/lib/browser";
import { app as appMessages } from "~/lib/messages/app";
import { backpack as backpackMessages } from "~/lib/messages/backpack";
import { login as loginMessages } from "~/lib/messages/login";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { safeRedirect } from "~/lib/redirect";
import { LoginSchema, type LoginFields } from "~/lib/schemas/login";
import { createCaptcha } from "~/server/auth/captcha.server";
import { createProofChallenge } from "~/server/auth/proof-of-work.server";
import { LoginRefused, authenticateStudent, signInHeaders } from "~/server/http/authenticator.server";
import { getUser } from "~/server/auth/session.server";
import { listSchools } from "~/server/school/school.server";

const msg = { app: appMessages, backpack: backpackMessages, login: loginMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.login} · ${msg.app.name}` }];

const REASONS: Record<string, string> = {
  replaced: msg.login.reasonReplaced,
  credentials: msg.login.reasonCredentials,
  expired: msg.login.reasonExpired,
  deleted: msg.login.reasonDeleted,
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // The captcha is a signed token: showing the page stores nothing.
  const [user, { schools, fallback }, captcha, proof] = await Promise.all([getUser(request), listSchools(), createCaptcha(), createProofChallenge()]);
  return {
    schools,
    schoolsFallback: fallback,
    captcha,
    proof,
    // HTML constraints from the form's schema, computed here so zod stays off the page (decision 026).
    constraint: getZodConstraint(LoginSchema),
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), ""),
    reason: REASONS[url.searchParams.get("reason") ?? ""] ?? (url.searchParams.has("redirectTo") ? msg.login.reasonLoginRequired : null),
    needsWechatAuth: isMessengerBrowser(request.headers.get("User-Agent")) && !user?.openid,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  try {
    const signedIn = await authenticateStudent("school-account", request, context);
    return redirect(signedIn.location, { headers: signInHeaders(signedIn.setCookies) });
  } catch (error) {
    if (!(error instanceof LoginRefused)) throw error;
    const { refreshCaptcha, code, schoolChallenge } = error.detail;
    // A refused attempt spends the captcha (unless the refusal came before it was checked).
    // The proof of work was spent too: a new challenge comes with the answer.
    return Response.json(
      { result: error.reply, captcha: refreshCaptcha ? await createCaptcha() : null, proof: await createProofChallenge(), code, schoolChallenge },
      { status: error.status },
    );
  }
}

export default function Login() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [showPassword, setShowPassword] = useState(false);
  // 显示密码 and a new captcha picture need JavaScript; without it they are not offered as buttons.
  const hydrated = useHydrated();
  const [wechatDialog, setWechatDialog] = useState(data.needsWechatAuth);

  // A refused attempt spends the captcha: show the new one the server sent with the answer.
  // Only the captcha input is keyed by the captcha (it comes back empty for the new picture); the
  // typed password stays through a refresh and a wrong captcha, and is emptied when the password
  // was wrong. The server never sends it back: without JavaScript the page comes back without it.
  const [passwordRound, setPasswordRound] = useState(0);
  const { captcha, setCaptcha, proof, setProof } = useLoginChallenges(data, actionData);
  useEffect(() => {
    // The password input is emptied only when the password itself was refused.
    if (actionData?.result?.error?.password?.length) setPasswordRound((round) => round + 1);
    if (actionData?.code === "REQUIRE_WECHAT_AUTH") setWechatDialog(true);
  }, [actionData]);
  useEffect(() => setCaptcha(data.captcha), [data.captcha]);
  useEffect(() => setProof(data.proof), [data.proof]);

  // conform shows the server's answer (errors beside the fields, typed values kept); the server
  // validates, with or without JavaScript.
  const [form, fields] = useForm<LoginFields>({
    id: "login-form",
    lastResult: actionData?.result,
    constraint: data.constraint,
    defaultValue: { school: data.schools.length === 1 ? data.schools[0].school_code : "" },
  });

  async function refreshCaptcha() {
    const response = await fetch("/api/captcha", { method: "POST" });
    if (response.ok) setCaptcha(await response.json());
  }

  const submitting = navigation.state === "submitting";
  const authHref = `/api/wechat/auth?redirect_url=${encodeURIComponent(`/crLogin${data.redirectTo ? `?redirectTo=${encodeURIComponent(data.redirectTo)}` : ""}`)}`;

  return (
    <div className="mx-auto min-h-screen max-w-screen-sm bg-gradient-to-b from-brand to-brand-dark px-4 pb-10 pt-12">
      <header className="mb-6 text-white">
        <h1 className="text-2xl font-bold">{msg.login.title}</h1>
        <p className="mt-1 text-sm text-white/80">{msg.login.subtitle}</p>
      </header>
      <main className="card space-y-4 p-5">
        {data.reason ? (
          <p role="alert" className="rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-800">
            {data.reason}
          </p>
        ) : null}
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <LoginFormHead redirectTo={data.redirectTo} captchaId={captcha.id} proof={proof} form={form} />
          <LabelledField field={fields.school} label={msg.login.school}>
            <select {...getSelectProps(fields.school)} className="field-input">
              <option value="">{msg.login.schoolPlaceholder}</option>
              {data.schools.map((school) => (
                <option key={school.school_code} value={school.school_code}>
                  {school.school_name}
                </option>
              ))}
            </select>
            {data.schoolsFallback ? <p className="mt-1 text-xs text-amber-700">{msg.login.schoolsFallback}</p> : null}
          </LabelledField>
          <LabelledField field={fields.studentId} label={msg.login.studentId}>
            <input
              {...getInputProps(fields.studentId, { type: "text" })}
              className="field-input"
              placeholder={msg.login.studentIdPlaceholder}
              inputMode="numeric"
              autoComplete="username"
            />
          </LabelledField>
          <LabelledField field={fields.password} label={msg.login.password}>
            <div className="relative">
              <input
                {...getInputProps(fields.password, { type: showPassword ? "text" : "password", value: false })}
                key={`password-${passwordRound}`}
                className="field-input pr-20"
                placeholder={msg.login.passwordPlaceholder}
                autoComplete="current-password"
              />
              <button
                type="button"
                hidden={!hydrated}
                onClick={() => setShowPassword((shown) => !shown)}
                className="absolute inset-y-0 right-2 my-auto h-8 rounded-lg px-2 text-sm text-brand"
                aria-pressed={showPassword}
              >
                {showPassword ? msg.login.hidePassword : msg.login.showPassword}
              </button>
            </div>
          </LabelledField>
          <CaptchaField
            field={fields.captcha}
            captcha={captcha}
            label={msg.login.captcha}
            placeholder={msg.login.captchaPlaceholder}
            refresh={hydrated ? { label: msg.login.captchaRefresh, onClick: refreshCaptcha } : undefined}
          />
          {actionData && "schoolChallenge" in actionData && actionData.schoolChallenge ? (
            <div>
              <label htmlFor="schoolCaptcha" className="field-label">
                {msg.login.schoolCaptcha}
              </label>
              <input type="hidden" name="schoolCaptchaState" value={actionData.schoolChallenge.state} />
              <div className="flex items-center gap-2">
                <input
                  id="schoolCaptcha"
                  name="schoolCaptcha"
                  key={actionData.schoolChallenge.state}
                  type="text"
                  className="field-input flex-1"
                  placeholder={msg.login.schoolCaptchaPlaceholder}
                  maxLength={16}
                  autoComplete="off"
                  autoCapitalize="off"
                  required
                />
                <img src={actionData.schoolChallenge.image} alt={msg.login.schoolCaptcha} className="h-11 w-28 shrink-0 rounded-xl border border-slate-200 object-contain" />
              </div>
            </div>
          ) : null}
          <button type="submit" className="btn-primary w-full py-3 text-base" disabled={submitting}>
            {submitting ? msg.login.submitting : msg.login.submit}
          </button>
        </Form>
        <details className="rounded-xl bg-slate-50 px-3 py-2 text-sm text-slate-600">
          <summary className="cursor-pointer font-medium text-slate-700">{msg.login.forgotTitle}</summary>
          <ul className="mt-2 list-disc space-y-1 pl-5">
            {msg.login.forgotItems.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        </details>
        <p className="text-center text-xs text-slate-500">
          <Link to="/CustomerService" className="underline">
            {msg.backpack.customerService}
          </Link>
        </p>
      </main>

      {wechatDialog ? (
        <div className="fixed inset-0 z-50 !m-0 flex items-center justify-center bg-black/50 p-6">
          <section role="dialog" aria-modal="true" aria-labelledby="wechat-auth-title" className="w-full max-w-xs rounded-3xl bg-white p-5 text-center">
            <Icon name="chat" className="mx-auto h-10 w-10 text-green-600" />
            <h2 id="wechat-auth-title" className="mt-2 text-base font-semibold">
              {msg.login.wechatDialogTitle}
            </h2>
            <p className="mt-1 text-sm text-slate-500">{msg.login.wechatDialogBody}</p>
            <a href={authHref} className="btn mt-4 w-full bg-green-600 text-white">
              {msg.login.wechatDialogAction}
            </a>
          </section>
        </div>
      ) : null}
    </div>
  );
}
