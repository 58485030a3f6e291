import { Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { app as appMessages } from "~/lib/messages/app";
import { Icon } from "../icons";

const msg = { app: appMessages };

/**
 * A server-rendered overlay: a bottom sheet (`variant="sheet"`) or a centred dialog. It is opened
 * by a URL and closed by a link, so it works without JavaScript; with JavaScript, Escape closes
 * it too and focus moves into it.
 */
export function Panel({
  title,
  closeTo,
  children,
  footer,
  variant = "sheet",
  labelId,
}: {
  title: string;
  closeTo: string;
  children: ReactNode;
  footer?: ReactNode;
  variant?: "sheet" | "dialog";
  labelId: string;
}) {
  const closeRef = useRef<HTMLAnchorElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    panelRef.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      // Only the topmost dialog closes (a coupon dialog over the order-confirm sheet, say).
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (dialogs[dialogs.length - 1] === panelRef.current) closeRef.current?.click();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const sheet = variant === "sheet";
  return (
    <div className={`fixed inset-0 z-40 !m-0 flex justify-center bg-black/45 ${sheet ? "items-end" : "items-center p-5"}`}>
      <Link to={closeTo} preventScrollReset replace className="absolute inset-0" aria-hidden="true" tabIndex={-1} />
      <section
        ref={panelRef}
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby={labelId}
        className={`relative flex w-full max-w-screen-sm flex-col bg-white shadow-xl outline-none ${
          sheet ? "max-h-[88vh] rounded-t-3xl" : "max-h-[80vh] rounded-3xl"
        }`}
      >
        {sheet ? <div className="mx-auto mt-2 h-1 w-10 rounded-full bg-slate-200" aria-hidden="true" /> : null}
        <header className="flex items-center gap-2 px-5 pb-2 pt-3">
          <h2 id={labelId} className="flex-1 text-base font-semibold text-slate-900">
            {title}
          </h2>
          <Link ref={closeRef} to={closeTo} preventScrollReset replace aria-label={msg.app.close} className="-mr-2 rounded-full p-2 text-slate-500 hover:bg-slate-100">
            <Icon name="close" className="h-5 w-5" />
          </Link>
        </header>
        <div className="flex-1 overflow-y-auto px-5 pb-4">{children}</div>
        {footer ? <footer className="border-t border-slate-100 px-5 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]">{footer}</footer> : null}
      </section>
    </div>
  );
}

