import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * A message at the top of the screen, rendered on the server too (a notice from the URL works
 * without JS). With JS it goes after three seconds: onHide runs, and `clearTo` (the page without
 * the notice query) replaces the URL.
 */
/** How long a toast stays up (the CSS fade in tailwind.css .toast-auto-hide matches it). */
export const TOAST_MS = 3000;

export function Toast({ text, tone = "info", clearTo, onHide }: { text: string; tone?: "info" | "error"; clearTo?: string; onHide?: () => void }) {
  const navigate = useNavigate();
  const hide = useRef(onHide);
  hide.current = onHide;
  useEffect(() => {
    const timer = setTimeout(() => {
      hide.current?.();
      if (clearTo !== undefined) navigate(clearTo, { replace: true, preventScrollReset: true });
    }, TOAST_MS);
    return () => clearTimeout(timer);
  }, [text, clearTo, navigate]);
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={`toast-auto-hide fixed inset-x-4 top-14 z-40 !mt-0 mx-auto max-w-sm rounded-full px-4 py-2 text-center text-sm text-white shadow-lg ${tone === "error" ? "bg-red-600/95" : "bg-slate-900/90"}`}
    >
      {text}
    </p>
  );
}
