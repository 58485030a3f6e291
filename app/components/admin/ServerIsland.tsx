import { useNavigate } from "@remix-run/react";

/**
 * Markup the server rendered (app/server/admin/order-html.server.tsx): with JavaScript its links
 * to our pages go through the router (the scroll stays; data-replace replaces the history entry);
 * downloads, tel: links and modified clicks are left to the browser. Without JavaScript it is
 * plain HTML.
 */
export function ServerIsland({ html }: { html: string }) {
  const navigate = useNavigate();
  return (
    <div
      onClick={(event) => {
        const link = (event.target as Element).closest("a");
        const href = link?.getAttribute("href");
        if (!link || !href?.startsWith("/") || link.hasAttribute("download") || event.metaKey || event.ctrlKey || event.shiftKey) return;
        event.preventDefault();
        navigate(href, { preventScrollReset: true, replace: link.hasAttribute("data-replace") });
      }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
