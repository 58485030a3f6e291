// The simulated one-time subscribe confirm page: development only (no app id configured, not
// production), 404 otherwise. It stands in for the messenger's own page
// (mp.weixin.qq.com/mp/subscribemsg?action=get_confirm&appid&scene&template_id&redirect_url&reserved)
// so the widget's round trip can be tried in a desktop browser: allow or cancel, and the browser
// goes back to redirect_url with openid, template_id, action, scene and reserved, as the real one does.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Icon } from "~/components/icons";
import { AppAsks, BadRequestCard, ChoiceButtons, SimulatedNotice } from "~/components/SimulatedParts";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { SimulatedSubscribeSchema } from "~/lib/schemas/notify";
import { getUser } from "~/server/auth/session.server";
import { config } from "~/server/config.server";
import { readSimulatedConfirm, simulatedReturn } from "~/server/notify/subscribe.server";

const msg = { app: appMessages, notify: notifyMessages };

export const meta: MetaFunction = () => [{ title: `${msg.notify.simulate.title} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

async function confirmRequest(request: Request) {
  if (config().notify.provider !== "log") notFound();
  const user = await getUser(request);
  const confirm = readSimulatedConfirm(request);
  return confirm && user?.openid ? { confirm, openid: user.openid } : null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const found = await confirmRequest(request);
  if (!found) return { valid: false as const };
  const template = msg.notify.subscribe.templates[found.confirm.templateKey];
  return { valid: true as const, title: template.title, description: template.description };
}

export async function action({ request }: ActionFunctionArgs) {
  const found = await confirmRequest(request);
  const submission = parseWithZod(await request.formData(), { schema: SimulatedSubscribeSchema });
  if (!found || submission.status !== "success") return redirect(request.url);
  return redirect(simulatedReturn(found.confirm, found.openid, submission.value.intent));
}

export default function SimulatedSubscribe() {
  const data = useLoaderData<typeof loader>();
  return (
    <Page title={msg.notify.simulate.title}>
      <SimulatedNotice text={msg.notify.simulate.notice} />
      {data.valid ? (
        <Form method="post" reloadDocument className="card space-y-4">
          <AppAsks icon="bell" asks={msg.notify.simulate.asks} />
          <div className="rounded-2xl bg-slate-50 p-3">
            <p className="font-medium">{data.title}</p>
            <p className="text-sm text-slate-500">{data.description}</p>
          </div>
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Icon name="check" className="h-4 w-4 text-green-600" />
            {msg.notify.simulate.once}
          </p>
          <ChoiceButtons refuse={{ value: "cancel", label: msg.notify.simulate.refuse }} allow={{ value: "confirm", label: msg.notify.simulate.allow }} />
        </Form>
      ) : (
        <BadRequestCard message={msg.notify.simulate.badRequest} backHref="/backpack/inbox" backLabel={msg.notify.simulate.back} />
      )}
    </Page>
  );
}
