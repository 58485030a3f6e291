// The simulated provider's authorize page: development only (no app id configured, not
// production), 404 otherwise. It stands in for the messenger's own page so the whole OAuth can be
// tried in a desktop browser: choose a nickname and allow (a one-use code goes to our callback),
// or refuse (only the state goes back, as the real provider does).
import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { Icon } from "~/components/icons";
import { AppAsks, BadRequestCard, ChoiceButtons, SimulatedNotice } from "~/components/SimulatedParts";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { wechat as wechatMessages } from "~/lib/messages/wechat";
import { randomNickname } from "~/lib/nickname";
import { SimulatedAuthorizeSchema } from "~/lib/schemas/wechat";
import { MESSENGER_CALLBACK_PATH } from "~/lib/wechat-auth";
import { issueSimulatedCode, simulatedOpenid, simulatedProfile } from "~/server/auth/messenger-sim.server";
import { SIMULATED_APP_ID, isSimulatedMessenger } from "~/server/auth/messenger.server";
import { ownOrigins } from "~/server/http/public-origin";
import { deviceIdOf } from "~/server/auth/session.server";

const msg = { app: appMessages, wechat: wechatMessages };

export const meta: MetaFunction = () => [{ title: `${msg.wechat.simulate.title} · ${msg.app.name}` }, { name: "robots", content: "noindex" }];

function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

export async function loader({ request }: LoaderFunctionArgs) {
  if (!isSimulatedMessenger()) notFound();
  const params = new URL(request.url).searchParams;
  const state = params.get("state") ?? "";
  let redirectOk = false;
  try {
    const target = new URL(params.get("redirect_uri") ?? "");
    redirectOk = target.pathname === MESSENGER_CALLBACK_PATH && ownOrigins(request).includes(target.origin);
  } catch {
    redirectOk = false;
  }
  const valid =
    params.get("appid") === SIMULATED_APP_ID &&
    params.get("response_type") === "code" &&
    params.get("scope") === "snsapi_userinfo" &&
    /^[A-Za-z0-9]{1,128}$/.test(state) &&
    redirectOk;
  return valid ? { valid: true as const, state, nickname: randomNickname() } : { valid: false as const };
}

export async function action({ request }: ActionFunctionArgs) {
  if (!isSimulatedMessenger()) notFound();
  const submission = parseWithZod(await request.formData(), { schema: SimulatedAuthorizeSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const { intent, state, nickname } = submission.value;
  if (intent === "refuse") return redirect(`${MESSENGER_CALLBACK_PATH}?state=${state}`);
  const device = await deviceIdOf(request);
  const code = issueSimulatedCode(simulatedProfile(simulatedOpenid(device.deviceId), nickname ?? ""));
  return redirect(`${MESSENGER_CALLBACK_PATH}?code=${code}&state=${state}`, {
    headers: device.setCookie ? { "Set-Cookie": device.setCookie } : undefined,
  });
}

export default function SimulatedAuthorize() {
  const data = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "simulated-authorize",
    lastResult,
    defaultValue: data.valid ? { nickname: data.nickname, state: data.state } : undefined,
  });

  return (
    <Page title={msg.wechat.simulate.title}>
      <SimulatedNotice text={msg.wechat.simulate.notice} />
      {data.valid ? (
        // A plain document form: the answer is a redirect through our callback.
        <Form method="post" reloadDocument {...getFormProps(form)} className="card space-y-4">
          <AppAsks icon="bag" asks={msg.wechat.simulate.asks} />
          <p className="flex items-center gap-2 text-sm text-slate-700">
            <Icon name="check" className="h-4 w-4 text-green-600" />
            {msg.wechat.simulate.scope}
          </p>
          <input {...getInputProps(fields.state, { type: "hidden" })} />
          <div className="space-y-1">
            <label htmlFor={fields.nickname.id} className="text-sm font-medium">
              {msg.wechat.simulate.nickname}
            </label>
            <input
              {...getInputProps(fields.nickname, { type: "text" })}
              maxLength={32}
              autoComplete="off"
              className="w-full rounded-xl border border-slate-300 px-3 py-2"
              aria-describedby={`${fields.nickname.descriptionId} ${fields.nickname.errorId}`}
            />
            <p id={fields.nickname.descriptionId} className="text-xs text-slate-500">
              {msg.wechat.simulate.nicknameHint}
            </p>
            <FieldError field={fields.nickname} />
          </div>
          <ChoiceButtons refuse={{ value: "refuse", label: msg.wechat.simulate.refuse }} allow={{ value: "authorize", label: msg.wechat.simulate.authorize }} />
        </Form>
      ) : (
        <BadRequestCard message={msg.wechat.simulate.badRequest} backHref="/market" backLabel={msg.wechat.backToMarket} />
      )}
    </Page>
  );
}
