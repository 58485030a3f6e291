import { Icon } from "~/components/icons";

/**
 * The confirm sheet's subscribe button ("tell me when my parcels arrive"), drawn from data the
 * checkout loader fills in (texts, the link): the same markup as the notifications'
 * SubscribeWidget in its "button" mode, without its message catalogue and rules in the market's
 * bundle (docs/decisions/023). 'Subscribe' is a link, so it works without JavaScript.
 */
export type SubscribeButtonView = {
  subscribed: boolean;
  /** The link that starts the subscription (absent once subscribed). */
  href: string | null;
  label: string;
  /** The button's title: the template's description, or the subscribed hint. */
  title: string;
  /** The refusal of the last round trip (a cancel or an error), if any. */
  notice: { text: string; tone: "cancel" | "error" } | null;
};

export function SubscribeButton({ view }: { view: SubscribeButtonView }) {
  return (
    <span className="inline-flex flex-col gap-1">
      {view.subscribed || !view.href ? (
        <span className="btn-ghost cursor-default text-green-700" title={view.title}>
          <Icon name="check" className="h-4 w-4" />
          {view.label}
        </span>
      ) : (
        <a href={view.href} className="btn-ghost" title={view.title}>
          <Icon name="bell" className="h-4 w-4" />
          {view.label}
        </a>
      )}
      {view.notice ? (
        <p
          role={view.notice.tone === "cancel" ? "status" : "alert"}
          className={`flex items-center gap-2 rounded-2xl px-3 py-2 text-sm ${view.notice.tone === "cancel" ? "bg-slate-100 text-slate-600" : "bg-red-50 text-red-700"}`}
        >
          <Icon name="info" className="h-4 w-4 shrink-0" />
          {view.notice.text}
        </p>
      ) : null}
    </span>
  );
}
