import { describe, expect, it } from "vitest";
import { decideAccess, OPEN_ROUTES, ruleFor } from "./access";

// Every page of the product rules' route tables, with what each visitor should get.
// open: anyone; outside: reachable outside the messenger in production.
const PAGES: { path: string; open: boolean; outside: boolean }[] = [
  { path: "/", open: true, outside: false },
  { path: "/market", open: true, outside: false },
  { path: "/market/promo-activity", open: true, outside: false },
  { path: "/CustomerService", open: true, outside: true },
  { path: "/crLogin", open: true, outside: false },
  { path: "/login", open: true, outside: false },
  { path: "/blog", open: true, outside: true },
  { path: "/blog/article/2", open: true, outside: true },
  { path: "/wx/callback", open: true, outside: false },
  { path: "/admin/orders", open: true, outside: true },
  { path: "/admin/login", open: true, outside: true },
  { path: "/schedule", open: false, outside: false },
  { path: "/schedule/mutual-help", open: false, outside: false },
  { path: "/circle", open: false, outside: false },
  { path: "/post/12", open: false, outside: false },
  { path: "/publish-post", open: false, outside: false },
  { path: "/treasure", open: false, outside: false },
  { path: "/backpack", open: false, outside: false },
  { path: "/backpack/settings", open: false, outside: false },
  { path: "/about", open: false, outside: false },
  { path: "/orders", open: false, outside: false },
  { path: "/express/orders/E20261122000001", open: false, outside: false },
];

const MACHINE = [
  "/healthz",
  "/readyz",
  "/api/wechat/auth",
  "/api/pay/wechat/notify",
  "/errands/pickup-code/recognize-text",
  "/coupon/express-pickup/check-new-user",
  "/info/schools",
  "/schedule/calendar/abc123.ics",
  "/build/entry.client-XYZ.js",
  "/favicon.ico",
  "/share-card.png",
];

const LOGIN_PAGES = new Set(["/crLogin", "/login"]);

describe("the access guard, every page × logged in/out × messenger/not × production/not", () => {
  const cases = PAGES.flatMap((page) =>
    [true, false].flatMap((hasStudent) =>
      [true, false].flatMap((isMessenger) =>
        [true, false].map((messengerOnly) => ({ ...page, hasStudent, isMessenger, messengerOnly })),
      ),
    ),
  );

  it.each(cases)("$path student=$hasStudent messenger=$isMessenger messengerOnly=$messengerOnly", (c) => {
    const decision = decideAccess({ pathname: c.path, hasStudent: c.hasStudent, isMessenger: c.isMessenger, messengerOnly: c.messengerOnly });
    if (c.messengerOnly && !c.isMessenger && !c.outside) {
      expect(decision).toEqual({ kind: "redirect", location: "/blog", reason: "outside-messenger" });
    } else if (c.hasStudent && LOGIN_PAGES.has(c.path)) {
      expect(decision).toEqual({ kind: "redirect", location: "/schedule", reason: "already-logged-in" });
    } else if (c.open || c.hasStudent) {
      expect(decision).toEqual({ kind: "allow" });
    } else {
      expect(decision).toEqual({
        kind: "redirect",
        location: `/crLogin?redirectTo=${encodeURIComponent(c.path)}`,
        reason: "login-required",
      });
    }
  });
});

describe("machine endpoints are never redirected", () => {
  it.each(MACHINE)("%s", (path) => {
    for (const hasStudent of [true, false]) {
      for (const isMessenger of [true, false]) {
        expect(decideAccess({ pathname: path, hasStudent, isMessenger, messengerOnly: true })).toEqual({ kind: "allow" });
      }
    }
  });
});

describe("the open-route table, row by row", () => {
  const examples: Record<string, string> = {
    "/": "/",
    "/market/**": "/market/promo-activity",
    "/CustomerService": "/CustomerService",
    "/crLogin": "/crLogin",
    "/login": "/login",
    "/blog/**": "/blog/article/1",
    "/wx/callback": "/wx/callback",
    "/admin/**": "/admin/orders",
    "/healthz": "/healthz",
    "/readyz": "/readyz",
    "/schedule/calendar/*.ics": "/schedule/calendar/token.ics",
    "/api/**": "/api/express/activate",
    "/errands/**": "/errands/pickup-code/recognize-image",
    "/coupon/**": "/coupon/express-pickup/user-coupons",
    "/info/**": "/info/schools",
    "/build/**": "/build/root-ABC.js",
    "/assets/**": "/assets/qr.svg",
    "/uploads/**": "/uploads/a.webp",
    "/favicon.ico": "/favicon.ico",
    "/share-card.png": "/share-card.png",
    "/share-card/*": "/share-card/AAAAAAAAAAAAAAAAAAAAAA.jpg",
    "/robots.txt": "/robots.txt",
    "/schedule-sw.js": "/schedule-sw.js",
  };
  it.each(OPEN_ROUTES)("$pattern ($why)", (rule) => {
    const example = examples[rule.pattern];
    expect(example, `add an example for ${rule.pattern}`).toBeDefined();
    expect(ruleFor(example)).toBe(rule);
  });

  it.each([
    ["/marketplace", undefined],
    ["/blogger", undefined],
    ["/schedule/calendar/x/y.ics", undefined],
    ["/schedule/calendar/x.txt", undefined],
    ["/administrator", undefined],
  ])("%s is not open by prefix accident", (path, expected) => {
    expect(ruleFor(path)).toBe(expected);
  });

  it.each([
    ["?redirectTo=%2Fpublish-post&reason=replaced", "/publish-post"],
    ["?redirectTo=%2Fpost%2F12%3Ffrom%3Dshare", "/post/12?from=share"],
    ["?redirectTo=%2F%2Fevil.example", "/schedule"],
    ["?redirectTo=https%3A%2F%2Fevil.example%2Fx", "/schedule"],
    ["?redirectTo=%2FcrLogin%3FredirectTo%3D%252Fcircle", "/schedule"],
    ["", "/schedule"],
  ])("a student signed in meanwhile goes from the login page%s to %s", (search, location) => {
    for (const path of ["/crLogin", "/login"]) {
      expect(decideAccess({ pathname: path, search, hasStudent: true, isMessenger: true, messengerOnly: false })).toEqual({
        kind: "redirect",
        location,
        reason: "already-logged-in",
      });
    }
  });

  it("keeps the query string in redirectTo and normalises a trailing slash", () => {
    expect(decideAccess({ pathname: "/schedule/", search: "?week=3&term=2025-2026-1", hasStudent: false, isMessenger: true, messengerOnly: false })).toEqual({
      kind: "redirect",
      location: `/crLogin?redirectTo=${encodeURIComponent("/schedule?week=3&term=2025-2026-1")}`,
      reason: "login-required",
    });
  });
});
