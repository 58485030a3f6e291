import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { FieldError } from "~/components/FieldError";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { login as loginMessages } from "~/lib/messages/login";
import { settings as settingsMessages } from "~/lib/messages/settings";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { DeleteAccountSchema, SettingsSchema, ThemeSchema, type DeleteAccountFields, type ThemeFields } from "~/lib/schemas/settings";
import { APPEARANCES, APPEARANCE_NAMES, THEMES, THEME_NAMES, appearanceCookieHeader, appearanceOrDefault, readAppearanceCookie, themeCookieHeader, themeOrDefault, type Appearance, type ThemeName } from "~/lib/theme";
import { config } from "~/server/config.server";
import { logoutStudent } from "~/server/auth/messenger.server";
import { logout } from "~/server/auth/session.server";
import { checkDeletionPassword } from "~/server/users/deletion-check.server";
import { requestAccountDeletion } from "~/server/users/deletion.server";
import { openOrdersOf } from "~/server/orders/account-orders.server";
import { fillTemplate } from "~/lib/template";
import { tooManyMessage } from "~/lib/login-throttle";
import { noticeSettings, saveNoticeSettings, saveTheme } from "~/server/users/settings.server";
import { NOTICE_SWITCHES, subscribeHref } from "~/lib/notify";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, login: loginMessages, settings: settingsMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.settings} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  return {
    theme: themeOrDefault(user.theme),
    appearance: appearanceOrDefault(user.appearance ?? readAppearanceCookie(request.headers.get("Cookie"))),
    notices: await noticeSettings(user.id),
    // HTML constraints from the forms' schemas, computed here so zod stays off the page (decision 026).
    constraint: { theme: getZodConstraint(ThemeSchema), delete: getZodConstraint(DeleteAccountSchema) },
    // The deletion dialog names the open orders and what happens to each (decision 030).
    openOrders: (await openOrdersOf(user.id)).map((order) =>
      fillTemplate(order.settle === "cancel" ? msg.settings.deleteOrderCancel : order.settle === "refund" ? msg.settings.deleteOrderRefund : msg.settings.deleteOrderWait, {
        orderNumber: order.orderNumber,
        label: order.label,
      }),
    ),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  const submission = parseWithZod(await request.formData(), { schema: SettingsSchema });
  if (submission.status !== "success") {
    return Response.json(submission.reply(), { status: 400 });
  }
  if (submission.value.intent === "logout") {
    return redirect("/crLogin", { headers: { "Set-Cookie": await logoutStudent(request) } });
  }
  if (submission.value.intent === "notices") {
    const { replies, mentions, likes } = submission.value;
    await saveNoticeSettings(user.id, { replies: replies === "on", mentions: mentions === "on", likes: likes === "on" });
    return redirect("/backpack/settings?notice=noticesSaved#notices");
  }
  if (submission.value.intent === "delete") {
    const check = await checkDeletionPassword(request, user, submission.value.password, context.clientIp ?? "unknown");
    if (!check.ok) {
      const [status, message] = check.reason === "too_many" ? [429, tooManyMessage(msg.login.tooManyAttempts, check.waitMs)] : [400, msg.settings.deletePasswordWrong];
      return Response.json(submission.reply({ fieldErrors: { password: [message] }, hideFields: ["password"] }), { status });
    }
    await requestAccountDeletion(user.id);
    return redirect("/crLogin?reason=deleted", { headers: { "Set-Cookie": await logout(request) } });
  }
  const theme = submission.value.theme as ThemeName;
  const appearance = submission.value.appearance as Appearance;
  await saveTheme(user.id, theme, appearance);
  // The cookies keep the colour and the appearance after logout, on the login page and the blog.
  const headers = new Headers();
  headers.append("Set-Cookie", themeCookieHeader(theme, config().isProduction));
  headers.append("Set-Cookie", appearanceCookieHeader(appearance, config().isProduction));
  return redirect("/backpack/settings?notice=themeSaved", { headers });
}

export default function Settings() {
  const { theme, appearance, notices, constraint, openOrders } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const navigation = useNavigation();
  const deleteResult = lastResult?.initialValue?.intent === "delete" ? lastResult : undefined;
  const [form, fields] = useForm<ThemeFields>({ id: "theme-form", lastResult: deleteResult ? undefined : lastResult, constraint: constraint.theme, defaultValue: { theme } });
  const [deleteForm, deleteFields] = useForm<DeleteAccountFields>({ id: "delete-form", lastResult: deleteResult, constraint: constraint.delete });
  const confirmingLogout = searchParams.get("confirm") === "logout";
  const confirmingDelete = searchParams.get("confirm") === "delete" || Boolean(deleteResult);
  const saved = searchParams.get("notice") === "themeSaved";

  return (
    <Page title={msg.titles.settings} back="/backpack">
      <Form method="post" {...getFormProps(form)} noValidate={false} className="card space-y-3">
        <input type="hidden" name="intent" value="theme" />
        <fieldset>
          <legend className="mb-2 text-base font-semibold">{msg.settings.theme}</legend>
          <p className="mb-3 text-sm text-slate-500">
            {msg.settings.currentTheme}：{THEMES[theme].label}
          </p>
          <div className="grid grid-cols-3 gap-2">
            {THEME_NAMES.map((name) => (
              <label key={name} className="flex cursor-pointer flex-col items-center gap-1 rounded-2xl border border-slate-200 p-2 has-[:checked]:border-slate-800">
                <input type="radio" name={fields.theme.name} value={name} defaultChecked={name === theme} className="sr-only" />
                <span className="h-8 w-8 rounded-full" style={{ backgroundColor: `rgb(${THEMES[name].brand})` }} aria-hidden="true" />
                <span className="text-sm">{THEMES[name].label}</span>
              </label>
            ))}
          </div>
          <FieldError field={fields.theme} />
        </fieldset>
        <fieldset>
          <legend className="mb-2 text-base font-semibold">{msg.settings.appearance}</legend>
          <div className="grid grid-cols-3 gap-2">
            {APPEARANCE_NAMES.map((name) => (
              <label key={name} className="flex cursor-pointer items-center justify-center rounded-2xl border border-slate-200 p-2 text-sm has-[:checked]:border-slate-800 has-[:checked]:font-semibold">
                <input type="radio" name="appearance" value={name} defaultChecked={name === appearance} className="sr-only" />
                {APPEARANCES[name]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex items-center gap-3">
          <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
            {msg.settings.saveTheme}
          </button>
          {saved ? (
            <span role="status" className="text-sm text-green-700">
              {msg.settings.themeSaved}
            </span>
          ) : null}
        </div>
      </Form>

      <Form method="post" id="notices" className="card space-y-3">
        <input type="hidden" name="intent" value="notices" />
        <fieldset className="space-y-2">
          <legend className="text-base font-semibold">{msg.settings.notices}</legend>
          <p className="text-sm text-slate-500">{msg.settings.noticesHint}</p>
          {NOTICE_SWITCHES.map((name) => (
            <label key={name} className="flex items-center justify-between gap-3 py-1 text-sm">
              <span>{{ replies: msg.settings.noticeReplies, mentions: msg.settings.noticeMentions, likes: msg.settings.noticeLikes }[name]}</span>
              <input type="checkbox" role="switch" name={name} defaultChecked={notices[name]} className="h-5 w-5 accent-[rgb(var(--brand))]" />
            </label>
          ))}
        </fieldset>
        <div className="flex flex-wrap items-center gap-3">
          <button type="submit" className="btn-primary">
            {msg.settings.saveNotices}
          </button>
          {searchParams.get("notice") === "noticesSaved" ? (
            <span role="status" className="text-sm text-green-700">
              {msg.settings.noticesSaved}
            </span>
          ) : null}
        </div>
        {/* The messenger's one-time subscribe message: the author's own opt-in, one reply each time. */}
        <a href={subscribeHref("SYSTEM_NOTICE", "/backpack/settings")} className="block text-sm text-brand underline">
          {msg.settings.noticesSubscribe}
        </a>
      </Form>

      <section className="card space-y-3">
        <h2 className="text-base font-semibold">{msg.settings.account}</h2>
        <Link to="?confirm=logout" className="btn-ghost w-full text-red-600" preventScrollReset>
          <Icon name="logout" className="h-4 w-4" />
          {msg.settings.logout}
        </Link>
        <Link to="?confirm=delete" className="block text-center text-sm text-slate-500 underline" preventScrollReset>
          {msg.settings.deleteAccount}
        </Link>
      </section>

      <p className="text-center text-sm text-slate-500">
        {msg.settings.version} {msg.app.version}
      </p>

      {confirmingLogout ? (
        <ConfirmDialog id="logout-title" title={msg.settings.logoutConfirm}>
          <p className="mt-1 text-sm text-slate-500">{msg.settings.logoutHint}</p>
          <div className="mt-4 grid grid-cols-2 gap-2">
            <Link to="/backpack/settings" className="btn-ghost" preventScrollReset>
              {msg.app.cancel}
            </Link>
            <Form method="post">
              <input type="hidden" name="intent" value="logout" />
              <button type="submit" className="btn-primary w-full">
                {msg.app.confirm}
              </button>
            </Form>
          </div>
        </ConfirmDialog>
      ) : null}

      {confirmingDelete ? (
        <ConfirmDialog id="delete-title" title={msg.settings.deleteTitle} danger>
          <p className="mt-2 text-sm text-slate-500">{msg.settings.deleteBody}</p>
          {openOrders.length > 0 ? (
            <div className="mt-2 rounded-xl bg-amber-50 p-2 text-xs text-amber-800" data-testid="delete-open-orders">
              <p>{msg.settings.deleteOrders}</p>
              <ul className="mt-1 space-y-0.5">
                {openOrders.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </div>
          ) : null}
          <Form method="post" {...getFormProps(deleteForm)} noValidate={false} className="mt-3 space-y-3">
            <input type="hidden" name="intent" value="delete" />
            <label htmlFor={deleteFields.password.id} className="field-label">
              {msg.settings.deletePassword}
            </label>
            <input
              {...getInputProps(deleteFields.password, { type: "password", value: false })}
              autoComplete="current-password"
              className="field-input"
            />
            <FieldError field={deleteFields.password} />
            <div className="grid grid-cols-2 gap-2">
              <Link to="/backpack/settings" className="btn-ghost" preventScrollReset>
                {msg.app.cancel}
              </Link>
              <button type="submit" className="btn w-full bg-red-600 text-white">
                {msg.settings.deleteConfirm}
              </button>
            </div>
          </Form>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}

/** A confirmation over the page (its cancel is a link back to the page): the question, then what it asks. `danger` for deleting the account. */
function ConfirmDialog({ id, title, danger, children }: { id: string; title: string; danger?: boolean; children: ReactNode }) {
  return (
    <div className="fixed inset-0 z-50 !m-0 flex items-center justify-center bg-black/50 p-6">
      <section role="alertdialog" aria-modal="true" aria-labelledby={id} className={danger ? "w-full max-w-xs rounded-3xl bg-white p-5" : "w-full max-w-xs rounded-3xl bg-white p-5 text-center"}>
        <h2 id={id} className={danger ? "text-center text-base font-semibold text-red-600" : "text-base font-semibold"}>
          {title}
        </h2>
        {children}
      </section>
    </div>
  );
}
