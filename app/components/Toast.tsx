import { useNavigate } from "@remix-run/react";
import { useEffect, useRef } from "react";

/** How long a toast stays up (the CSS fade in tailwind.css .toast-auto-hide matches it). */
export const TOAST_MS = 3000;

/**
 * A message at the top of the screen, rendered on the server too, so a notice from the URL or a
 * plain form post's answer shows without JavaScript and fades by CSS alone. With JavaScript, after
 * TOAST_MS onHide runs and `clearTo` (the page without the notice query) replaces the URL. A new
 * `stamp` (a fetcher's next answer, perhaps with the same words) shows it again.
 */
export function Toast({
  text,
  tone = "info",
  clearTo,
  onHide,
  stamp,
}: {
  text: string;
  tone?: "info" | "error";
  clearTo?: string;
  onHide?: () => void;
  stamp?: unknown;
}) {
  const navigate = useNavigate();
  const ref = useRef<HTMLParagraphElement>(null);
  const hide = useRef(onHide);
  hide.current = onHide;
  useEffect(() => {
    // Restart the fade: the same element may be showing a newer answer.
    const element = ref.current;
    if (element) {
      element.style.animation = "none";
      void element.offsetWidth;
      element.style.animation = "";
    }
    const timer = setTimeout(() => {
      hide.current?.();
      if (clearTo !== undefined) navigate(clearTo, { replace: true, preventScrollReset: true });
    }, TOAST_MS);
    return () => clearTimeout(timer);
  }, [text, stamp, clearTo, navigate]);
  return (
    <p
      ref={ref}
      role={tone === "error" ? "alert" : "status"}
      className={`toast toast-auto-hide ${tone === "error" ? "bg-red-600/95" : "bg-slate-900/90"}`}
    >
      {text}
    </p>
  );
}
