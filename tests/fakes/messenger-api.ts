// A fake of the messenger's server API on loopback (node:http), replaying the protocol of
// docs/protocols/messenger.md ("Server access token, JS-SDK", "Template message and
// one-time subscribe message"):
//   POST /cgi-bin/stable_token {grant_type, appid, secret, force_refresh}
//        → {access_token, expires_in}; the same token while it lives, a new one on force_refresh
//   GET  /cgi-bin/ticket/getticket?access_token&type=jsapi → {errcode: 0, errmsg, ticket, expires_in}
//   POST /cgi-bin/message/template/send?access_token  {touser, template_id, url?, client_msg_id?, data}
//        → {errcode: 0, errmsg: "ok", msgid}; a repeated client_msg_id is not delivered twice;
//          43004 for a user who does not follow the account, 40037 for an unknown template
//   POST /cgi-bin/message/template/subscribe?access_token {touser, template_id, url?, scene, title, data}
//        → {errcode: 0, errmsg: "ok"}; 43101 for a user who refused
// An invalid token answers 40001, an expired one 42001. Failure modes: the next N calls of an
// endpoint fail (errcode, HTTP status, garbage, slow), the current token expires at once.
// Tests point the app at it with WECHAT_APP_ID / WECHAT_APP_SECRET / WECHAT_API_BASE_URL.
import crypto from "node:crypto";
import http from "node:http";
import { listenOnLoopback } from "./loopback";

export type ApiEndpoint = "token" | "ticket" | "send" | "subscribe";

export type ApiFailure =
  | { kind: "errcode"; errcode: number; errmsg?: string }
  | { kind: "http"; status: number }
  | { kind: "garbage" }
  | { kind: "slow"; ms: number };

export type DeliveredMessage = {
  endpoint: "send" | "subscribe";
  touser: string;
  template_id: string;
  url?: string;
  client_msg_id?: string;
  scene?: string;
  title?: string;
  data: Record<string, { value: string }>;
  msgid: number;
};

export interface FakeMessengerApi {
  url: string;
  appId: string;
  appSecret: string;
  /** Messages the fake accepted (a duplicate client_msg_id is not added twice). */
  delivered: DeliveredMessage[];
  /**
   * Every template send the fake answered with success, duplicates included: a repeated
   * client_msg_id appears here again (the fault suite counts deliveries per message with it).
   */
  received: DeliveredMessage[];
  /** Every call of each endpoint, accepted or not. */
  calls: Record<ApiEndpoint, number>;
  /** How many stable_token calls asked for force_refresh. */
  forcedRefreshes: number;
  /** Template ids the account has; anything else is 40037. Empty: any id is known. */
  templates: Set<string>;
  /** Openids that do not follow the account: template messages to them are 43004. */
  notFollowing: Set<string>;
  /** Openids that refused the one-time subscribe message: 43101. */
  refusing: Set<string>;
  /** The next `times` calls of `endpoint` answer `failure`. */
  fail(endpoint: ApiEndpoint, failure: ApiFailure, times?: number): void;
  /** Drops the failures still queued: every endpoint answers normally again. */
  recover(): void;
  /** The current access token stops working at once (42001), though stable_token would still hand it out. */
  expireToken(): void;
  /** The access token the fake currently honours. */
  currentToken(): string | null;
  ticket(): string | null;
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeMessengerApi(options: { appId?: string; appSecret?: string; tokenLifetimeSeconds?: number } = {}): Promise<FakeMessengerApi> {
  const appId = options.appId ?? "wxfakeapi012345678";
  const appSecret = options.appSecret ?? "fake-api-secret-0123456789";
  const lifetime = options.tokenLifetimeSeconds ?? 7200;
  let token: { value: string; expiresAt: number; revoked: boolean } | null = null;
  let ticket: { value: string; expiresAt: number } | null = null;
  let msgid = 1000;
  const failures: Record<ApiEndpoint, ApiFailure[]> = { token: [], ticket: [], send: [], subscribe: [] };
  const seenClientIds = new Map<string, number>();

  const state = {
    delivered: [] as DeliveredMessage[],
    received: [] as DeliveredMessage[],
    calls: { token: 0, ticket: 0, send: 0, subscribe: 0 } as Record<ApiEndpoint, number>,
    forcedRefreshes: 0,
    templates: new Set<string>(),
    notFollowing: new Set<string>(),
    refusing: new Set<string>(),
  };

  function json(res: http.ServerResponse, body: unknown, status = 200) {
    res.writeHead(status, { "Content-Type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  }

  async function failure(endpoint: ApiEndpoint, res: http.ServerResponse): Promise<boolean> {
    const next = failures[endpoint].shift();
    if (!next) return false;
    switch (next.kind) {
      case "errcode":
        json(res, { errcode: next.errcode, errmsg: next.errmsg ?? `fake error ${next.errcode}` });
        return true;
      case "http":
        res.writeHead(next.status);
        res.end();
        return true;
      case "garbage":
        res.writeHead(200, { "Content-Type": "text/html" });
        res.end("<html>502 Bad Gateway</html>");
        return true;
      case "slow":
        await new Promise((resolve) => setTimeout(resolve, next.ms));
        return res.destroyed;
    }
  }

  async function body(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      return {};
    }
  }

  /** null when the token is fine, else the error answer. */
  function tokenError(value: string | null) {
    if (!token || value !== token.value) return { errcode: 40001, errmsg: "invalid credential, access_token is invalid or not latest" };
    if (token.revoked || token.expiresAt < Date.now()) return { errcode: 42001, errmsg: "access_token expired" };
    return null;
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const query = url.searchParams;
    try {
      if (url.pathname === "/cgi-bin/stable_token" && req.method === "POST") {
        state.calls.token += 1;
        const input = await body(req);
        if (await failure("token", res)) return;
        if (input.grant_type !== "client_credential") return json(res, { errcode: 40002, errmsg: "invalid grant_type" });
        if (input.appid !== appId) return json(res, { errcode: 40013, errmsg: "invalid appid" });
        if (input.secret !== appSecret) return json(res, { errcode: 40125, errmsg: "invalid appsecret" });
        if (input.force_refresh === true) state.forcedRefreshes += 1;
        // Normal mode hands out the same token while it lives (even one the fake revoked: the
        // real stable endpoint does not know a send was refused); force_refresh makes a new one.
        if (!token || token.expiresAt < Date.now() || input.force_refresh === true) {
          token = { value: crypto.randomBytes(24).toString("hex"), expiresAt: Date.now() + lifetime * 1000, revoked: false };
        }
        return json(res, { access_token: token.value, expires_in: Math.max(1, Math.floor((token.expiresAt - Date.now()) / 1000)) });
      }
      if (url.pathname === "/cgi-bin/ticket/getticket" && req.method === "GET") {
        state.calls.ticket += 1;
        if (await failure("ticket", res)) return;
        const error = tokenError(query.get("access_token"));
        if (error) return json(res, error);
        if (query.get("type") !== "jsapi") return json(res, { errcode: 40097, errmsg: "invalid args" });
        if (!ticket || ticket.expiresAt < Date.now()) ticket = { value: crypto.randomBytes(32).toString("base64url"), expiresAt: Date.now() + 7200_000 };
        return json(res, { errcode: 0, errmsg: "ok", ticket: ticket.value, expires_in: 7200 });
      }
      if ((url.pathname === "/cgi-bin/message/template/send" || url.pathname === "/cgi-bin/message/template/subscribe") && req.method === "POST") {
        const endpoint = url.pathname.endsWith("/send") ? "send" : "subscribe";
        state.calls[endpoint] += 1;
        const input = await body(req);
        if (await failure(endpoint, res)) return;
        const error = tokenError(query.get("access_token"));
        if (error) return json(res, error);
        const touser = String(input.touser ?? "");
        const templateId = String(input.template_id ?? "");
        if (!touser) return json(res, { errcode: 40003, errmsg: "invalid openid" });
        if (state.templates.size > 0 && !state.templates.has(templateId)) return json(res, { errcode: 40037, errmsg: "invalid template_id" });
        if (endpoint === "send") {
          if (state.notFollowing.has(touser)) return json(res, { errcode: 43004, errmsg: "require subscribe" });
          const clientId = typeof input.client_msg_id === "string" ? input.client_msg_id : undefined;
          if (clientId && seenClientIds.has(`${touser}|${clientId}`)) {
            const first = state.delivered.find((message) => message.touser === touser && message.client_msg_id === clientId);
            if (first) state.received.push(first);
            return json(res, { errcode: 0, errmsg: "ok", msgid: seenClientIds.get(`${touser}|${clientId}`) });
          }
          msgid += 1;
          if (clientId) seenClientIds.set(`${touser}|${clientId}`, msgid);
          const message: DeliveredMessage = { endpoint, touser, template_id: templateId, url: input.url as string | undefined, client_msg_id: clientId, data: input.data as DeliveredMessage["data"], msgid };
          state.delivered.push(message);
          state.received.push(message);
          return json(res, { errcode: 0, errmsg: "ok", msgid });
        }
        if (state.refusing.has(touser)) return json(res, { errcode: 43101, errmsg: "user refuse to accept the msg" });
        msgid += 1;
        state.delivered.push({
          endpoint,
          touser,
          template_id: templateId,
          url: input.url as string | undefined,
          scene: String(input.scene ?? ""),
          title: String(input.title ?? ""),
          data: input.data as DeliveredMessage["data"],
          msgid,
        });
        return json(res, { errcode: 0, errmsg: "ok" });
      }
      json(res, { errcode: 40066, errmsg: "invalid url" }, 404);
    } catch (error) {
      res.writeHead(500);
      res.end(String(error));
    }
  });

  const { port, close } = await listenOnLoopback(server);

  return {
    url: `http://127.0.0.1:${port}`,
    appId,
    appSecret,
    get delivered() {
      return state.delivered;
    },
    get received() {
      return state.received;
    },
    get calls() {
      return state.calls;
    },
    get forcedRefreshes() {
      return state.forcedRefreshes;
    },
    templates: state.templates,
    notFollowing: state.notFollowing,
    refusing: state.refusing,
    fail(endpoint, next, times = 1) {
      for (let i = 0; i < times; i += 1) failures[endpoint].push(next);
    },
    recover() {
      for (const key of Object.keys(failures) as ApiEndpoint[]) failures[key] = [];
    },
    expireToken() {
      if (token) token.revoked = true;
    },
    currentToken: () => token?.value ?? null,
    ticket: () => ticket?.value ?? null,
    reset() {
      state.delivered = [];
      state.received = [];
      state.calls = { token: 0, ticket: 0, send: 0, subscribe: 0 };
      state.forcedRefreshes = 0;
      state.templates.clear();
      state.notFollowing.clear();
      state.refusing.clear();
      for (const key of Object.keys(failures) as ApiEndpoint[]) failures[key] = [];
      seenClientIds.clear();
    },
    close,
  };
}
