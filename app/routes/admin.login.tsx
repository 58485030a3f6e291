import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useRef } from "react";
import { Icon } from "~/components/icons";
import { LabelledField } from "~/components/LabelledField";
import { CaptchaField, LoginFormHead, useLoginChallenges } from "~/components/LoginParts";
import { Page } from "~/components/Page";
import { admin as adminMessages } from "~/lib/messages/admin";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { AdminLoginSchema, type AdminLoginFields } from "~/lib/schemas/admin";
import { createCaptcha } from "~/server/auth/captcha.server";
import { createProofChallenge } from "~/server/auth/proof-of-work.server";
import { LoginRefused, authenticateOperator, signInHeaders } from "~/server/http/authenticator.server";
import { adminRedirect, getOperator } from "~/server/auth/operator.server";

const msg = { admin: adminMessages, app: appMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [
  { title: `${msg.titles.adminLogin} · ${msg.app.name}` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = adminRedirect(new URL(request.url).searchParams.get("redirectTo"));
  if (await getOperator(request)) throw redirect(redirectTo);
  // The same stateless captcha as the student login: showing it stores nothing.
  return { redirectTo, constraint: getZodConstraint(AdminLoginSchema), captcha: await createCaptcha(), proof: await createProofChallenge() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  try {
    const signedIn = await authenticateOperator(request, context);
    return redirect(signedIn.location, { headers: signInHeaders(signedIn.setCookies) });
  } catch (error) {
    if (!(error instanceof LoginRefused)) throw error;
    // Every answer spends the captcha.
    return Response.json({ result: error.reply, captcha: await createCaptcha(), proof: await createProofChallenge() }, { status: error.status });
  }
}

export default function AdminLogin() {
  const { redirectTo, constraint, captcha: firstCaptcha, proof: firstProof } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  // conform shows the server's answer; the HTML constraints come from the schema, computed in the
  // loader so zod stays off the page (decision 026).
  const [form, fields] = useForm<AdminLoginFields>({ id: "admin-login", lastResult: answer?.result, constraint, onSubmit: clearPassword });
  // Every answer spends the captcha; show the new one it brought.
  const { captcha, proof } = useLoginChallenges({ captcha: firstCaptcha, proof: firstProof }, answer);
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/admin/login");
  // The server never sends the password back (hideFields). With JS, the typed one is cleared as
  // soon as the submission has taken it (Remix reads the form synchronously in its submit handler).
  const passwordRef = useRef<HTMLInputElement>(null);
  function clearPassword() {
    const input = passwordRef.current;
    setTimeout(() => {
      if (input) input.value = "";
    }, 0);
  }

  return (
    <Page title={msg.titles.adminLogin}>
      <section className="card space-y-4">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-soft text-brand">
            <Icon name="shield" className="h-5 w-5" />
          </span>
          <p className="text-sm text-slate-500">{msg.admin.loginHint}</p>
        </div>

        {/* The browser checks the constraints before sending, with or without JavaScript. */}
        <Form method="post" {...getFormProps(form)} noValidate={false} className="space-y-4">
          <LoginFormHead redirectTo={redirectTo} captchaId={captcha.id} proof={proof} form={form} />
          <LabelledField field={fields.username} label={msg.admin.username}>
            <input
              {...getInputProps(fields.username, { type: "text" })}
              className="field-input"
              autoComplete="username"
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
            />
          </LabelledField>
          <LabelledField field={fields.password} label={msg.admin.password}>
            <input ref={passwordRef} {...getInputProps(fields.password, { type: "password", value: false })} className="field-input" autoComplete="current-password" />
          </LabelledField>
          <CaptchaField field={fields.captcha} captcha={captcha} label={msg.admin.captcha} />
          <button type="submit" className="btn-primary w-full" disabled={submitting}>
            {submitting ? msg.admin.loggingIn : msg.admin.login}
          </button>
        </Form>
      </section>
    </Page>
  );
}
