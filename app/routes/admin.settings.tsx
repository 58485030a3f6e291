import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { ReadinessBanner } from "~/components/admin/AdminNav";
import { OperatorBar } from "~/components/admin/OperatorBar";
import { Icon } from "~/components/icons";
import { Page } from "~/components/Page";
import { admin as adminMessages } from "~/lib/messages/admin";
import { adminNav as adminNavMessages } from "~/lib/messages/adminNav";
import { app as appMessages } from "~/lib/messages/app";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { AdminSettingsSchema } from "~/lib/schemas/admin";
import { readinessBanner } from "~/server/http/readiness-banner";
import { adminOps } from "~/lib/messages/adminOps";
import { fillTemplate } from "~/lib/template";
import { linkedOperatorCount } from "~/server/notify/notify.server";
import { OPERATOR_LINK_PATH, adminLoginPath, startOperatorLink, unlinkOperatorOpenid } from "~/server/auth/operator.server";
import { requireAdmin } from "~/server/http/guards.server";

const msg = { admin: adminMessages, adminNav: adminNavMessages, app: appMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [
  { title: `${msg.titles.adminSettings} · ${msg.app.name}` },
  { name: "robots", content: "noindex" },
];

// The OAuth callback returns here with ?link=ok|taken|failed; unlinking adds ?link=unlinked.
const LINK_STATUS = {
  ok: { text: msg.admin.linkDone, tone: "ok" },
  unlinked: { text: msg.admin.unlinkDone, tone: "ok" },
  taken: { text: msg.admin.linkTaken, tone: "error" },
  failed: { text: msg.admin.linkFailed, tone: "error" },
} as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const operator = await requireAdmin(request);
  const linked = Boolean(operator.openid);
  const param = new URL(request.url).searchParams.get("link");
  let status = param && param in LINK_STATUS ? (param as keyof typeof LINK_STATUS) : null;
  // The notice follows the stored state: a stale or hand-made query cannot claim the opposite.
  if ((status === "ok" && !linked) || (status === "unlinked" && linked)) status = null;
  return {
    displayName: operator.display_name,
    username: operator.username,
    linked,
    status,
    readiness: await readinessBanner(),
    reach: await linkedOperatorCount().then((count) => ({ nobody: count === 0, text: count === 0 ? adminOps.reach.nobody : fillTemplate(adminOps.reach.some, { count }) })),
    // The forms' constraints, from the schema on the server (zod stays off the page).
    constraint: getZodConstraint(AdminSettingsSchema),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const operator = await requireAdmin(request);
  const submission = parseWithZod(await request.formData(), { schema: AdminSettingsSchema });
  if (submission.status !== "success") {
    return Response.json(submission.reply(), { status: 400 });
  }
  if (submission.value.intent === "unlink-messenger") {
    await unlinkOperatorOpenid(operator.id);
    return redirect("/admin/settings?link=unlinked");
  }
  // The OAuth endpoints live under /api/wechat, where the /admin cookie is not sent: a
  // short-lived cookie there tells them which operator is linking.
  const linkCookie = await startOperatorLink(request);
  if (!linkCookie) throw redirect(adminLoginPath("/admin/settings"));
  return redirect(OPERATOR_LINK_PATH, { headers: { "Set-Cookie": linkCookie } });
}

export default function AdminSettings() {
  const data = useLoaderData<typeof loader>();
  const { displayName, username, linked, status, readiness, constraint } = data;
  const location = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const notice = status ? LINK_STATUS[status] : null;

  return (
    <Page title={msg.titles.adminSettings} back="/admin/orders">
      <OperatorBar displayName={displayName} current="settings" />
      <ReadinessBanner readiness={readiness} />

      <section className="card space-y-2">
        <h2 className="text-base font-semibold">{msg.adminNav.settings}</h2>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="text-slate-500">{msg.admin.username}</dt>
          <dd>{username}</dd>
          <dt className="text-slate-500">{msg.admin.displayName}</dt>
          <dd>{displayName}</dd>
        </dl>
      </section>

      <section className="card space-y-3">
        <h2 className="text-base font-semibold">{msg.admin.messenger}</h2>
        <p className="flex items-center gap-2 text-sm" data-testid="messenger-status">
          <Icon name={linked ? "check" : "info"} className={`h-4 w-4 ${linked ? "text-green-600" : "text-slate-500"}`} />
          {linked ? msg.admin.messengerLinked : msg.admin.messengerNotLinked}
        </p>
        <p className="text-sm text-slate-500">{msg.admin.messengerHint}</p>
        <p
          role={data.reach.nobody ? "alert" : undefined}
          className={`rounded-xl px-3 py-2 text-sm ${data.reach.nobody ? "bg-amber-50 font-medium text-amber-900" : "bg-slate-50 text-slate-600"}`}
          data-testid="messenger-reach"
        >
          {data.reach.text}
        </p>
        {notice ? (
          <p role="status" className={`text-sm ${notice.tone === "ok" ? "text-green-700" : "text-red-600"}`}>
            {notice.text}
          </p>
        ) : null}
        {/* Mounted afresh at each location: no stale message after the next post. */}
        <MessengerForms key={location.key} linked={linked} busy={busy} constraint={constraint} />
      </section>
    </Page>
  );
}

/** The messenger buttons: conform's form, so a refused post (a hand-made intent) answers here. */
function MessengerForms({ linked, busy, constraint }: { linked: boolean; busy: boolean; constraint: Record<string, { required?: boolean }> }) {
  const [form] = useForm<{ intent: string }>({ id: "messenger", lastResult: useActionData<typeof action>(), constraint });
  return (
    <>
          {Object.keys(form.allErrors).length > 0 ? (
            <p id={form.errorId} role="alert" className="text-sm text-red-600">
              {msg.admin.linkFailed}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Form method="post" reloadDocument {...getFormProps(form)}>
              <input type="hidden" name="intent" value="link-messenger" />
              <button type="submit" className="btn-primary" disabled={busy}>
                <Icon name="chat" className="h-4 w-4" />
                {linked ? msg.admin.relinkMessenger : msg.admin.linkMessenger}
              </button>
            </Form>
            {linked ? (
              <Form method="post">
                <input type="hidden" name="intent" value="unlink-messenger" />
                <button type="submit" className="btn-ghost text-red-600" disabled={busy}>
                  {msg.admin.unlinkMessenger}
                </button>
              </Form>
            ) : null}
          </div>
    </>
  );
}
