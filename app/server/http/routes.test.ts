import { describe, expect, it } from "vitest";
import { routeTable } from "./routes";

// The router's own matching over a build's route manifest: what exists, under which template,
// and which route's handle keeps drafts.
const route = (id: string, parentId: string | undefined, path: string | undefined, extra: { index?: boolean; handle?: object } = {}) => ({
  id,
  parentId,
  path,
  index: extra.index,
  module: { handle: extra.handle },
});
const table = routeTable({
  routes: {
    root: route("root", undefined, ""),
    "routes/$": route("routes/$", "root", "*"),
    "routes/_index": route("routes/_index", "root", undefined, { index: true }),
    "routes/schedule._index": route("routes/schedule._index", "root", "schedule", { index: true }),
    "routes/schedule.calendar.$file": route("routes/schedule.calendar.$file", "root", "schedule/calendar/:file"),
    "routes/market._shell": route("routes/market._shell", "root", "market"),
    "routes/market._shell._index": route("routes/market._shell._index", "routes/market._shell", undefined, { index: true }),
    "routes/market._shell.address.$id": route("routes/market._shell.address.$id", "routes/market._shell", "address/:id"),
    "routes/post.$id": route("routes/post.$id", "root", "post/:id"),
    "routes/post.$id.comment": route("routes/post.$id.comment", "routes/post.$id", "comment", { handle: { keepsDraft: true } }),
    "routes/publish-post": route("routes/publish-post", "root", "publish-post", { handle: { keepsDraft: true, hydrate: true } }),
  },
} as never);

describe("routeTable", () => {
  it.each([
    ["/", true, "/", false],
    ["/_root.data", true, "/", false],
    ["/schedule", true, "/schedule", false],
    ["/schedule/", true, "/schedule", false],
    ["//schedule", true, "/schedule", false],
    ["/schedule.data", true, "/schedule", false],
    ["/schedule/calendar/abc123.ics", true, "/schedule/calendar/:file", false],
    ["/market", true, "/market", false],
    ["/market/address/7", true, "/market/address/:id", false],
    ["/post/12", true, "/post/:id", false],
    ["/post/12/comment", true, "/post/:id/comment", true],
    ["/post/12/comment.data", true, "/post/:id/comment", true],
    ["/publish-post", true, "/publish-post", true],
    ["/nothing/here", false, "(unmatched)", false],
    ["/post/12/nothing", false, "(unmatched)", false],
    ["/%ff", false, "(unmatched)", false],
  ] as const)("%s: exists %s, template %s, keeps drafts %s", (path, exists, template, keepsDraft) => {
    expect(table.routeOf(path)).toEqual({ exists, template, keepsDraft });
  });
});
