import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";
import type { FetcherWithComponents } from "@remix-run/react";
import { Toast } from "~/components/Toast";

type ToastState = { message: string; tone: "info" | "error"; stamp: number } | null;
type Show = (message: string | null | undefined, tone?: "info" | "error") => void;

const ToastContext = createContext<{ show: Show; hint: number; flashHint: () => void }>({
  show: () => {},
  hint: 0,
  flashHint: () => {},
});

/** One toast for the page: server answers (no JS) start it, fetchers and scripts update it. */
export function ToastProvider({ initial, children }: { initial: ToastState; children: ReactNode }) {
  const [toast, setToast] = useState<ToastState>(initial);
  const [hint, setHint] = useState(0);
  useEffect(() => setToast(initial), [initial]);
  const show = useCallback<Show>((message, tone = "info") => {
    if (message) setToast({ message, tone, stamp: Date.now() });
  }, []);
  const flashHint = useCallback(() => setHint(Date.now()), []);
  return (
    <ToastContext.Provider value={{ show, hint, flashHint }}>
      {children}
      {toast ? <Toast text={toast.message} tone={toast.tone} stamp={toast.stamp} /> : null}
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}

// The page's actions answer { notice, error, manualHint }; the product rules' JSON endpoints { success, message }.
type ActionAnswer = { notice?: string; error?: string; manualHint?: boolean; success?: boolean; message?: string } | undefined;

/** Shows what a fetcher's action answered (its notice, its error, the 5-second manual hint). */
export function useFetcherToast(fetcher: FetcherWithComponents<unknown>) {
  const { show, flashHint } = useToast();
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    const data = fetcher.data as ActionAnswer;
    if (!data) return;
    if (data.error) show(data.error, "error");
    else if (data.notice) show(data.notice);
    else if (data.success !== undefined) show(data.message, data.success ? "info" : "error");
    if (data.manualHint) flashHint();
  }, [fetcher.state, fetcher.data, show, flashHint]);
}
