import { useFetcher, useNavigate } from "@remix-run/react";
import { useFetcherToast } from "./toast-context";

/**
 * Markup the server rendered (read-only panels with their frame, the intro tabs): with
 * JavaScript its links navigate inside the app, Escape follows `closeTo`, and its forms go
 * through a fetcher — to the JSON endpoint a form names in data-json (the spec's call), else to
 * the page's action — with the answer shown as a toast. Without JavaScript it is plain HTML.
 */
export function ServerHtml({ html, closeTo }: { html: string; closeTo?: string }) {
  const navigate = useNavigate();
  const fetcher = useFetcher();
  useFetcherToast(fetcher);
  return (
    <div
      onClick={(event) => {
        const link = (event.target as Element).closest("a");
        const href = link?.getAttribute("href");
        if (!href?.startsWith("/") || link!.hasAttribute("data-document") || event.metaKey || event.ctrlKey) return;
        event.preventDefault();
        navigate(href, { preventScrollReset: true, replace: link!.hasAttribute("data-replace") });
      }}
      onKeyDown={(event) => closeTo && event.key === "Escape" && navigate(closeTo, { preventScrollReset: true, replace: true })}
      onSubmit={(event) => {
        const form = event.target as HTMLFormElement;
        event.preventDefault();
        const json = form.dataset.json;
        if (!json) return fetcher.submit(form, { method: "post" });
        const fields = Object.fromEntries(new FormData(form)) as Record<string, string>;
        fetcher.submit(
          { ...fields, timestamp: new Date().toISOString(), userAgent: navigator.userAgent, platform: navigator.platform || "web" },
          { method: "post", action: json, encType: "application/json" },
        );
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
