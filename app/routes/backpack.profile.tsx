import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { FieldError } from "~/components/FieldError";
import { ProfileAvatar } from "~/components/ProfileAvatar";
import { Page } from "~/components/Page";
import { app as appMessages } from "~/lib/messages/app";
import { profile as profileMessages } from "~/lib/messages/profile";
import { titles as titlesMessages } from "~/lib/messages/titles";
import { NICKNAME_MAX } from "~/lib/nickname";
import { safeRedirect } from "~/lib/redirect";
import { NicknameSchema, type NicknameFields } from "~/lib/schemas/profile";
import { declaredTooLarge, isMultipart, readMultipart } from "~/server/forum/uploads.server";
import { consumeRateLimit } from "~/server/rate-limits.server";
import { tooMany } from "~/server/http/too-many";
import { IMAGE_ACCEPT, IMAGE_MAX_BYTES } from "~/lib/forum";
import { setNickname } from "~/server/users/nickname.server";
import { profileView, saveAvatar, type AvatarRefusal } from "~/server/users/profile.server";
import type { RefusalTable } from "~/server/http/refusal-table";
import { requireStudent } from "~/server/http/guards.server";

const msg = { app: appMessages, profile: profileMessages, titles: titlesMessages };

export const meta: MetaFunction = () => [{ title: `${msg.titles.profile} · ${msg.app.name}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireStudent(request);
  // HTML constraints from the nickname schema, computed here so zod stays off the page (decision 026).
  return { ...profileView(user), constraint: getZodConstraint(NicknameSchema) };
}

/** Each refusal of the avatar: its status and the message beside the form. */
const AVATAR_REFUSALS: RefusalTable<AvatarRefusal> = {
  too_large: { status: 413, message: msg.profile.avatarTooLarge },
  not_image: { status: 400, message: msg.profile.avatarNotImage },
  store_failed: { status: 503, message: msg.profile.avatarFailed },
};

/** The avatar form is multipart (one picture); the nickname form is a plain form. */
async function avatarAction(request: Request, user: Awaited<ReturnType<typeof requireStudent>>, clientIp?: string) {
  const refuse = (status: number, message: string, headers?: Record<string, string>) => Response.json({ avatarError: message }, { status, headers });
  if (declaredTooLarge(request, IMAGE_MAX_BYTES + 64 * 1024)) return refuse(413, msg.profile.avatarTooLarge);
  const { files } = await readMultipart(request, "avatar", 1);
  const file = files[0];
  if (!file) return refuse(400, msg.profile.avatarRequired);
  if (file.problem === "too_large") return refuse(413, msg.profile.avatarTooLarge);
  // Uploads are rate-limited.
  const verdict = await consumeRateLimit("upload", { userId: user.id, ip: clientIp });
  if (!verdict.ok) {
    const refused = tooMany(verdict);
    return refuse(429, refused.message, refused.headers);
  }
  const saved = await saveAvatar(user, file.data!);
  if (!saved.ok) return refuse(AVATAR_REFUSALS[saved.reason].status, AVATAR_REFUSALS[saved.reason].message);
  return redirect("/backpack/profile?notice=avatarSaved");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireStudent(request);
  if (isMultipart(request)) return avatarAction(request, user, context.clientIp);
  const submission = parseWithZod(await request.formData(), { schema: NicknameSchema });
  if (submission.status !== "success") return Response.json(submission.reply(), { status: 400 });
  const saved = await setNickname(user.id, submission.value.nickname);
  if (!saved.ok) return Response.json(submission.reply({ fieldErrors: { nickname: [msg.profile.nicknameTaken] } }), { status: 409 });
  // Asked for a name on the way to a comment: back to the comment sheet, which now opens.
  const back = submission.value.redirectTo ? safeRedirect(submission.value.redirectTo, "") : "";
  return redirect(back || "/backpack/profile?notice=saved");
}

export default function Profile() {
  const view = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const reply = answer && !("avatarError" in answer) ? answer : undefined;
  const avatarError = answer && "avatarError" in answer ? answer.avatarError : undefined;
  const navigation = useNavigation();
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const [form, fields] = useForm<NicknameFields>({ id: "nickname-form", lastResult: reply, constraint: view.constraint, defaultValue: { nickname: view.nickname } });
  const saving = navigation.state === "submitting";
  return (
    <Page title={msg.titles.profile} back="/backpack">
      {redirectTo ? (
        <p role="status" className="rounded-xl bg-brand-soft px-3 py-2 text-sm text-brand">
          {msg.profile.setNicknameToComment}
        </p>
      ) : null}
      {(params.get("notice") === "saved" || params.get("notice") === "avatarSaved") && !answer ? (
        <p role="status" className="rounded-xl bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          {params.get("notice") === "avatarSaved" ? msg.profile.avatarSaved : msg.profile.saved}
        </p>
      ) : null}
      <section className="card flex items-center gap-4">
        <ProfileAvatar src={view.avatar} name={view.displayName} />
        <dl className="min-w-0 flex-1 space-y-1 text-sm">
          <div className="flex gap-2">
            <dt className="text-slate-500">{msg.profile.displayName}</dt>
            <dd className="truncate font-semibold text-slate-800">{view.displayName}</dd>
          </div>
          {view.realName ? (
            <div className="flex gap-2">
              <dt className="text-slate-500">{msg.profile.realName}</dt>
              <dd className="text-slate-700">
                {view.realName} <span className="text-xs text-slate-500">（{msg.profile.onlyYou}）</span>
              </dd>
            </div>
          ) : null}
        </dl>
      </section>
      <Form method="post" encType="multipart/form-data" replace className="card space-y-2">
        <label htmlFor="avatar" className="text-sm font-medium text-slate-700">
          {msg.profile.avatar}
        </label>
        <input
          id="avatar"
          name="avatar"
          type="file"
          accept={IMAGE_ACCEPT}
          required
          aria-invalid={avatarError ? true : undefined}
          aria-describedby={avatarError ? "avatar-error avatar-hint" : "avatar-hint"}
          className="block w-full text-sm text-slate-600 file:mr-3 file:rounded-full file:border-0 file:bg-brand-soft file:px-3 file:py-1.5 file:text-brand"
        />
        <FieldError field={{ errorId: "avatar-error", errors: avatarError ? [avatarError] : undefined }} alert />
        <p id="avatar-hint" className="text-xs text-slate-500">
          {msg.profile.avatarHint}
        </p>
        <button type="submit" disabled={saving} className="btn-ghost w-full py-2">
          {msg.profile.uploadAvatar}
        </button>
      </Form>
      <Form method="post" replace {...getFormProps(form)} className="card space-y-3">
        <input type="hidden" name="intent" value="nickname" />
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        <div className="space-y-1">
          <label htmlFor={fields.nickname.id} className="text-sm font-medium text-slate-700">
            {msg.profile.nickname}
          </label>
          <input
            {...getInputProps(fields.nickname, { type: "text", ariaDescribedBy: fields.nickname.descriptionId })}
            maxLength={NICKNAME_MAX * 2}
            autoComplete="nickname"
            className="field-input"
          />
          <FieldError field={fields.nickname} alert />
          <p id={fields.nickname.descriptionId} className="text-xs text-slate-500">
            {msg.profile.nicknameHint}
          </p>
        </div>
        <button type="submit" disabled={saving} className="btn-primary w-full py-2.5">
          {msg.profile.save}
        </button>
      </Form>
    </Page>
  );
}
