// Redirect targets are normalised against our origin before they
// are checked (finding 7: /wx/callback?redirect_url=/.//evil.com/x rendered href="//evil.com/x"),
// and a deletion-pending account cannot be entered again by re-authorizing the messenger identity.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMessengerUser, startFakeMessenger, type FakeMessenger } from "../fakes/messenger-oauth";
import { rawRequest } from "./http";
import { insertStudent, sql, startServer, type Server } from "./server";

/** The classic bypasses, each one a way to leave the site from a "path". */
const BYPASSES = [
  "//evil.example/x",
  "/\\evil.example/x",
  "/.//evil.example/x",
  "/./\\evil.example",
  "/a/..//evil.example/x",
  "/%2F%2Fevil.example/x",
  "/%2f/evil.example",
  "/%5Cevil.example",
  "%2F%2Fevil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "\t//evil.example",
  " //evil.example",
  "https://evil.example/",
  "http:evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(document.domain)//",
  "data:text/html,<script>alert(1)</script>",
];

let server: Server;
let messenger: FakeMessenger;

beforeAll(async () => {
  messenger = await startFakeMessenger({ appId: "wxredirectsuite0001", appSecret: "redirect-suite-app-secret-4d1f" });
  server = await startServer({
    WECHAT_APP_ID: messenger.appId,
    WECHAT_APP_SECRET: messenger.appSecret,
    WECHAT_OAUTH_AUTHORIZE_URL: messenger.authorizeUrl,
    WECHAT_API_BASE_URL: messenger.url,
  });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await messenger?.close();
});

/** Every href, action and Location that could send the browser somewhere. */
function targets(answer: { body: string; headers: Record<string, unknown> }) {
  const found = [...answer.body.matchAll(/\b(?:href|action)="([^"]*)"/g)].map((match) => match[1]!.replace(/&amp;/g, "&"));
  const location = answer.headers.location;
  if (typeof location === "string") found.push(location);
  return found;
}

/** Resolved as a browser would against our origin (and once more decoded), does it go elsewhere? */
function leavesTheSite(target: string) {
  const ours = new URL(server.base).origin;
  const decoded = (() => {
    try {
      return decodeURIComponent(target);
    } catch {
      return target;
    }
  })();
  return [target, decoded].some((value) => {
    try {
      return new URL(value, server.base).origin !== ours;
    } catch {
      return true;
    }
  });
}

describe("redirect targets", () => {
  it.each(BYPASSES)("/wx/callback?redirect_url=%j renders no link off the site", async (bypass) => {
    const answer = await rawRequest(server.base, `/wx/callback?redirect_url=${encodeURIComponent(bypass)}&error=AUTH_FAILED`);
    expect(answer.status).toBe(200);
    const links = targets(answer).filter((target) => !target.startsWith("/build/") && !target.startsWith("/assets/"));
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter(leavesTheSite)).toEqual([]);
    expect(answer.body).not.toContain("evil.example");
    expect(answer.body).not.toMatch(/href="(javascript|data):/i);
  });

  it("finding 7 exactly: /wx/callback?redirect_url=/.//evil.com/x never renders href=\"//evil.com/x\"", async () => {
    const answer = await rawRequest(server.base, "/wx/callback?redirect_url=/.//evil.com/x");
    expect(answer.body).not.toContain('href="//evil.com/x"');
    expect(answer.body).not.toContain("evil.com");
  });

  it.each(BYPASSES)("the login form's redirectTo=%j and the messenger authorization's redirect_url keep to our paths", async (bypass) => {
    const login = await rawRequest(server.base, `/crLogin?redirectTo=${encodeURIComponent(bypass)}`);
    expect(login.status).toBe(200);
    // The page's own URL comes back in its form's action (a path of ours); the target it will
    // go to after the login is the hidden redirectTo, which must be empty or ours.
    expect(targets(login).filter(leavesTheSite)).toEqual([]);
    const hidden = /name="redirectTo" value="([^"]*)"/.exec(login.body)?.[1];
    expect(hidden).toBe("");
    const auth = await rawRequest(server.base, `/api/wechat/auth?redirect_url=${encodeURIComponent(bypass)}`);
    // The authorization starts (302 to the provider) with a return path of ours stored.
    expect(auth.status).toBe(302);
    const stored = sql<{ return_path: string }>(server, "SELECT return_path FROM oauth_states ORDER BY created_at DESC LIMIT 1")[0]!.return_path;
    expect(stored.startsWith("/") && !stored.startsWith("//") && !stored.startsWith("/\\")).toBe(true);
    expect(stored).not.toContain("evil");
  });

  it("a same-site target still works: /wx/callback?redirect_url=/market/promo-activity links there", async () => {
    const answer = await rawRequest(server.base, "/wx/callback?redirect_url=%2Fmarket%2Fpromo-activity");
    expect(targets(answer)).toContain("/market/promo-activity");
  });
});

describe("a deletion-pending account", () => {
  it("cannot be entered again by re-authorizing its messenger identity within the deletion job's interval", async () => {
    const person = fakeMessengerUser({ nickname: "要删除的人" });
    const student = await insertStudent(server, "要删除的人");
    sql(server, "UPDATE users SET openid = ?, wechat_authorized_at = ? WHERE id = ?", person.openid, new Date().toISOString(), student.userId);
    const iso = new Date().toISOString();
    const [category] = sql<{ id: number }>(server, "SELECT id FROM forum_categories ORDER BY id LIMIT 1");
    sql(server, "INSERT INTO posts (user_id, category_id, title, content, created_at, updated_at) VALUES (?, ?, '旧帖', '删除前的帖子', ?, ?)", student.userId, category!.id, iso, iso);
    // The student asks for deletion (what /backpack/settings does): marked, sessions ended; the job has not run.
    sql(server, "UPDATE users SET deletion_requested_at = ? WHERE id = ?", iso, student.userId);
    sql(server, "UPDATE sessions SET ended_at = ?, end_reason = 'deleted' WHERE user_id = ?", iso, student.userId);

    // The old session cookie opens nothing.
    const old = await rawRequest(server.base, "/backpack", { cookie: student.cookie });
    expect(old.status).toBe(302);

    // Re-authorizing the same messenger identity.
    messenger.setUser(person);
    const start = await rawRequest(server.base, "/api/wechat/auth?redirect_url=%2Fbackpack");
    expect(start.status).toBe(302);
    const cookies = ((start.headers["set-cookie"] as string[] | undefined) ?? []).map((line) => line.split(";")[0]).join("; ");
    const provider = await rawRequest("", String(start.headers.location).replace(/#.*$/, ""));
    expect(provider.status).toBe(302);
    const back = new URL(String(provider.headers.location));
    const callback = await rawRequest(server.base, back.pathname + back.search, { cookie: cookies });
    expect(callback.status).toBe(302);
    const session = ((callback.headers["set-cookie"] as string[] | undefined) ?? []).map((line) => line.split(";")[0]).join("; ");

    // Whatever the browser got, it is not the deleted account: that row and its post are gone.
    expect(sql(server, "SELECT id FROM users WHERE id = ?", student.userId)).toEqual([]);
    expect(sql(server, "SELECT id FROM posts WHERE user_id = ?", student.userId)).toEqual([]);
    const fresh = sql<{ id: number; student_id: string | null; deletion_requested_at: string | null }>(server, "SELECT id, student_id, deletion_requested_at FROM users WHERE openid = ?", person.openid);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]!.id).not.toBe(student.userId);
    expect(fresh[0]!.student_id).toBeNull();
    expect(fresh[0]!.deletion_requested_at).toBeNull();
    // And the new session sees no student account (the backpack sends it to the login).
    const backpack = await rawRequest(server.base, "/backpack", { cookie: `${cookies}; ${session}` });
    expect(backpack.status).toBe(302);
    expect(String(backpack.headers.location)).toMatch(/^\/crLogin/);
  });
});
