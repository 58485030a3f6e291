import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { pageSink } from "./entry.server";

/** Renders `element` into a page sink; resolves with the page and how often React ended the sink after it had ended. */
function render(element: React.ReactElement) {
  return new Promise<{ html: string; endsAfterEnd: number }>((resolve) => {
    let endsAfterEnd = 0;
    let html = "";
    const sink = pageSink((page) => {
      html = page.toString("utf8");
    });
    const end = sink.end.bind(sink) as (...args: unknown[]) => unknown;
    // Counted on this one instance: a second end() is what costs a Node error per page.
    sink.end = ((...args: unknown[]) => {
      if (sink.writableEnded) endsAfterEnd += 1;
      return end(...args);
    }) as typeof sink.end;
    const { pipe } = renderToPipeableStream(element, { onAllReady: () => pipe(sink) });
    // React's close listener runs on a later tick; give it two.
    sink.on("finish", () => setTimeout(() => setTimeout(() => resolve({ html, endsAfterEnd }), 0), 0));
  });
}

describe("pageSink", () => {
  it("collects a long Chinese page whole and is ended by React once", async () => {
    const posts = Array.from({ length: 2000 }, (_, index) => createElement("p", { key: index }, `帖子内容 ${index}`));
    const { html, endsAfterEnd } = await render(createElement("main", null, posts));
    expect(html.match(/<p>帖子内容 \d+<\/p>/g)).toHaveLength(2000);
    expect(html.endsWith("1999</p></main>")).toBe(true);
    expect(html).not.toContain("\u0000");
    expect(endsAfterEnd).toBe(0);
  });
});
