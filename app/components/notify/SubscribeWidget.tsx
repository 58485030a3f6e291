// The subscribe widget (docs/product-rules.md, "Screens", "States"): asks for a one-time subscribe
// authorization of one template. Modes: card (the order page), modal, float, and button (the
// market's confirm sheet). 'Later' hides it for an hour; a valid authorization (7 days, one send)
// shows as subscribed. 'Subscribe' is a link (a GET that redirects to the messenger's confirm
// page); 'later' a plain form post back to the same page — both work without JavaScript.
//
// In a loader:   widget: await subscribeWidgetState(user, "ORDER_STATUS", request)
// In the page:   {widget ? <SubscribeWidget state={widget} mode="card" /> : null}
import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { notify as notifyMessages } from "~/lib/messages/notify";
import { SUBSCRIBE_START_PATH, subscribeHref, type WidgetMode, type WidgetState } from "~/lib/notify";
import { Icon } from "../icons";

const msg = { notify: notifyMessages };

function Notice({ state }: { state: WidgetState }) {
  if (!state.notice) return null;
  const good = state.notice === "ok";
  const text =
    state.notice === "ok" ? msg.notify.subscribe.ok : state.notice === "cancel" ? msg.notify.subscribe.cancelled : msg.notify.subscribe.errors[state.notice];
  return (
    <p
      role={good || state.notice === "cancel" ? "status" : "alert"}
      className={`flex items-center gap-2 rounded-2xl px-3 py-2 text-sm ${good ? "bg-green-50 text-green-700" : state.notice === "cancel" ? "bg-slate-100 text-slate-600" : "bg-red-50 text-red-700"}`}
    >
      <Icon name={good ? "check" : "info"} className="h-4 w-4 shrink-0" />
      {text}
    </p>
  );
}

function LaterForm({ state, className, label, children }: { state: WidgetState; className: string; label?: string; children: ReactNode }) {
  return (
    <Form method="post" action={SUBSCRIBE_START_PATH} preventScrollReset className="contents">
      <input type="hidden" name="intent" value="later" />
      <input type="hidden" name="template" value={state.templateKey} />
      <input type="hidden" name="returnTo" value={state.returnTo} />
      <button type="submit" className={className} aria-label={label}>
        {children}
      </button>
    </Form>
  );
}

function Prompt({ state, headingId }: { state: WidgetState; headingId: string }) {
  const template = msg.notify.subscribe.templates[state.templateKey];
  return (
    <>
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand">
          <Icon name="bell" className="h-5 w-5" />
        </span>
        <div className="min-w-0">
          <h2 id={headingId} className="text-base font-semibold">
            {msg.notify.subscribe.heading}
          </h2>
          <p className="text-sm text-slate-500">
            {template.title}：{template.description}
          </p>
        </div>
      </div>
      <div className="mt-3 grid grid-cols-2 gap-2">
        <LaterForm state={state} className="btn-ghost w-full">
          {msg.notify.subscribe.later}
        </LaterForm>
        <a href={subscribeHref(state.templateKey, state.returnTo)} className="btn-primary">
          {msg.notify.subscribe.subscribe}
        </a>
      </div>
    </>
  );
}

export function SubscribeWidget({ state, mode, className = "" }: { state: WidgetState; mode: WidgetMode; className?: string }) {
  const headingId = `subscribe-${state.templateKey}-${mode}`;

  if (mode === "button") {
    const template = msg.notify.subscribe.templates[state.templateKey];
    return (
      <span className={`inline-flex flex-col gap-1 ${className}`}>
        {state.status === "subscribed" ? (
          <span className="btn-ghost cursor-default text-green-700" title={msg.notify.subscribe.subscribedHint}>
            <Icon name="check" className="h-4 w-4" />
            {msg.notify.subscribe.subscribed}
          </span>
        ) : (
          <a href={subscribeHref(state.templateKey, state.returnTo)} className="btn-ghost" title={template.description}>
            <Icon name="bell" className="h-4 w-4" />
            {msg.notify.subscribe.subscribeLong}
          </a>
        )}
        {state.notice && state.notice !== "ok" ? <Notice state={state} /> : null}
      </span>
    );
  }

  if (state.status !== "prompt") {
    return state.notice ? (
      <div className={className}>
        <Notice state={state} />
      </div>
    ) : null;
  }

  if (mode === "card") {
    return (
      <section aria-labelledby={headingId} className={`card space-y-2 ${className}`}>
        <Notice state={state} />
        <Prompt state={state} headingId={headingId} />
      </section>
    );
  }

  if (mode === "modal") {
    return (
      <div className="fixed inset-0 z-50 !m-0 flex items-end justify-center bg-black/50 p-4 sm:items-center">
        <section role="dialog" aria-modal="true" aria-labelledby={headingId} className={`w-full max-w-sm rounded-3xl bg-white p-5 ${className}`}>
          {state.notice ? (
            <div className="mb-2">
              <Notice state={state} />
            </div>
          ) : null}
          <Prompt state={state} headingId={headingId} />
        </section>
      </div>
    );
  }

  // float: a small bubble above the tab bar.
  return (
    <aside aria-labelledby={headingId} className={`fixed bottom-24 right-3 z-40 flex items-center gap-1 rounded-full bg-white py-1 pl-3 pr-1 shadow-lg ${className}`}>
      <Icon name="bell" className="h-4 w-4 text-brand" />
      <a id={headingId} href={subscribeHref(state.templateKey, state.returnTo)} className="px-1 text-sm font-medium text-brand">
        {msg.notify.subscribe.subscribeLong}
      </a>
      <LaterForm state={state} label={msg.notify.subscribe.later} className="rounded-full p-1.5 text-slate-500 hover:bg-slate-100">
        <Icon name="close" className="h-4 w-4" />
      </LaterForm>
    </aside>
  );
}
