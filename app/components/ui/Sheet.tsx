import { Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { Icon } from "~/components/icons";
import { app as appMessages } from "~/lib/messages/app";

const msg = { app: appMessages };

/**
 * A sheet opened by the URL (a child route or ?panel=…): it renders on the server too, so it works
 * without JavaScript; closing is a link back to the page without the query.
 *
 * A sheet with a form to keep (`dismiss`): the backdrop and × submit that form with
 * intent=dismiss instead, so that without JavaScript its action keeps what was typed before going
 * back; with JavaScript `onDismiss` runs instead (the page keeps the text itself).
 */
export function Sheet({
  title,
  closeTo,
  dismiss,
  children,
}: {
  title: string;
  closeTo: string;
  dismiss?: { form: string; onDismiss: () => void };
  children: ReactNode;
}) {
  const closeRef = useRef<HTMLAnchorElement & HTMLButtonElement>(null);
  useEffect(() => closeRef.current?.focus(), []);
  // Closing: a link back, or (a form to keep) a submit of that form with intent=dismiss.
  const close = (className: string, extra: object, content?: ReactNode) =>
    dismiss ? (
      <button
        {...extra}
        form={dismiss.form}
        name="intent"
        value="dismiss"
        formNoValidate
        onClick={(event) => {
          event.preventDefault();
          dismiss.onDismiss();
        }}
        className={className}
      >
        {content}
      </button>
    ) : (
      <Link {...extra} to={closeTo} replace preventScrollReset className={className}>
        {content}
      </Link>
    );
  return (
    <div className="fixed inset-0 z-50 !mt-0 flex items-end justify-center bg-black/40 sm:items-center" role="presentation">
      {close("absolute inset-0 cursor-default", { "aria-hidden": true, tabIndex: -1 })}
      <section role="dialog" aria-modal="true" aria-labelledby="sheet-title" className="relative w-full max-w-screen-sm space-y-4 rounded-t-2xl bg-white p-4 pb-[calc(1rem+env(safe-area-inset-bottom))] sm:rounded-2xl">
        <header className="flex items-center">
          <h2 id="sheet-title" className="flex-1 text-base font-semibold">
            {title}
          </h2>
          {close("rounded-full p-1 text-slate-500 hover:bg-slate-100", { ref: closeRef, "aria-label": msg.app.close }, <Icon name="close" className="h-5 w-5" />)}
        </header>
        {children}
      </section>
    </div>
  );
}

/** A confirm sheet's last row: 取消 back to `cancelTo`, and the red 确定 that submits its form. */
export function SheetConfirmButtons({ cancelTo }: { cancelTo: string }) {
  return (
    <>
      <Link to={cancelTo} replace preventScrollReset className="btn-ghost flex-1 py-2.5">
        {msg.app.cancel}
      </Link>
      <button type="submit" className="btn flex-1 bg-red-600 py-2.5 text-white">
        {msg.app.confirm}
      </button>
    </>
  );
}
