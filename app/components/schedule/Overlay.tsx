import { Link, useNavigate } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { app as appMessages } from "~/lib/messages/app";
import { Icon } from "../icons";

const msg = { app: appMessages };

/**
 * A dialog or bottom sheet whose open state lives in the URL (?dialog=…, ?course=…), so it opens
 * and closes with plain links before JavaScript arrives. With JavaScript it takes focus and
 * Escape closes it. Tapping the backdrop closes it too.
 */
export function Overlay({
  id,
  title,
  closeHref,
  children,
  variant = "dialog",
  role = "dialog",
}: {
  id: string;
  title: ReactNode;
  closeHref: string;
  children: ReactNode;
  variant?: "dialog" | "sheet";
  role?: "dialog" | "alertdialog";
}) {
  const panel = useRef<HTMLElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") navigate(closeHref, { replace: true, preventScrollReset: true });
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [closeHref, navigate]);

  const sheet = variant === "sheet";
  return (
    <div className={`fixed inset-0 z-50 !m-0 flex justify-center ${sheet ? "items-end" : "items-center p-6"}`}>
      <Link to={closeHref} replace preventScrollReset tabIndex={-1} aria-hidden="true" className="absolute inset-0 bg-slate-900/50" />
      <section
        ref={panel}
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        tabIndex={-1}
        className={`relative w-full bg-white shadow-xl outline-none ${
          sheet
            ? "max-h-[88vh] max-w-screen-sm overflow-y-auto rounded-t-3xl px-4 pb-[calc(1.25rem+env(safe-area-inset-bottom))] pt-3"
            : "max-h-[85vh] max-w-sm overflow-y-auto rounded-3xl p-5"
        }`}
      >
        {sheet ? <div className="mx-auto mb-2 h-1 w-10 rounded-full bg-slate-200" aria-hidden="true" /> : null}
        <div className="mb-3 flex items-start gap-2">
          <h2 id={`${id}-title`} className="flex-1 text-lg font-semibold leading-snug">
            {title}
          </h2>
          <Link to={closeHref} replace preventScrollReset aria-label={msg.app.close} className="-mr-1 -mt-0.5 rounded-full p-1 text-slate-500 hover:bg-slate-100">
            <Icon name="close" className="h-5 w-5" />
          </Link>
        </div>
        {children}
      </section>
    </div>
  );
}
