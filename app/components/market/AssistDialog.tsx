import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { useMemo } from "react";
import { FieldError } from "~/components/FieldError";
import type { AssistDialogView } from "~/lib/market-views";
import type { Constraints } from "./form-reply";
import { Panel } from "./Panel";

function Avatar({ src, name }: { src: string | null; name: string }) {
  return src ? (
    <img src={src} alt="" className="h-10 w-10 shrink-0 rounded-full object-cover" referrerPolicy="no-referrer" />
  ) : (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-orange-200 text-base font-semibold text-orange-700" aria-hidden="true">
      {name.slice(0, 1)}
    </span>
  );
}

/**
 * The express tab's assist dialog (/market?invite=…): the code is posted to /market/assist, which
 * always answers with a redirect back here (the refusal in the URL), so it works without
 * JavaScript; the refusal is shown beside the field as conform's error (useForm; its code is
 * loaded with the dialog's, see ./deferred.tsx).
 */
export function AssistDialog({ dialog, constraint }: { dialog: AssistDialogView; constraint?: Constraints }) {
  // /market/assist's refusal comes back in the URL: it is this form's reply, beside the field.
  // Memoised: useForm takes a new reply object for a new answer.
  const reply = useMemo(
    () => (dialog.error ? { status: "error" as const, initialValue: { invite: dialog.code }, error: { invite: [dialog.error] } } : undefined),
    [dialog.error, dialog.code],
  );
  const [form, fields] = useForm({ id: "assist", lastResult: reply, constraint, defaultValue: { invite: dialog.code } });
  const invite = fields.invite;
  return (
    <Panel title={dialog.title} closeTo="/market" labelId="assist-dialog-title" variant="dialog">
      <div className="space-y-3">
        {dialog.inviter ? (
          <div className="flex items-center gap-3 rounded-2xl bg-orange-50 px-3 py-3">
            <Avatar src={dialog.inviter.avatar} name={dialog.inviter.nickname} />
            <p className="text-sm font-medium text-slate-800">{dialog.inviter.line}</p>
          </div>
        ) : null}
        <p className="text-sm text-slate-600">{dialog.body}</p>
        <Form method="post" action={dialog.action} replace preventScrollReset className="space-y-3" {...getFormProps(form)}>
          {dialog.token ? <input type="hidden" name="inviter" value={dialog.token} /> : null}
          <label className="block text-sm">
            <span className="text-slate-600">{dialog.labels.code}</span>
            <input {...getInputProps(invite, { type: "text" })} key={invite.key} placeholder={dialog.labels.placeholder} autoComplete="off" className="field-input mt-1 font-mono uppercase tracking-widest" />
          </label>
          <FieldError field={invite} alert />
          <div className="grid grid-cols-2 gap-2">
            <Link to="/market" replace preventScrollReset className="btn-ghost h-10 text-sm">
              {dialog.labels.later}
            </Link>
            <button type="submit" className="btn-primary h-10 text-sm">
              {dialog.labels.submit}
            </button>
          </div>
        </Form>
      </div>
    </Panel>
  );
}
