// The outbound client against real loopback servers: what it refuses before any byte leaves,
// what a redirect may do, and how much of an answer it will read.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboundFetch, outboundErrorOf, type OutboundFetch } from "./outbound.server";

type Server = { url: string; host: string; port: number; hits: string[]; close: () => Promise<void> };
const servers: Server[] = [];

async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Server> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const entry: Server = {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(entry);
  return entry;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "the call should have failed").not.toBeNull();
  return outboundErrorOf(error)?.reason ?? (error as Error).name;
}

const ok = (body = "hello") => (_req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(200, { "Content-Type": "text/plain" });
  res.end(body);
};

describe("outbound calls", () => {
  it("reaches an allow-listed fake and hands back status, headers and body", async () => {
    const school = await serve((_req, res) => {
      res.writeHead(200, { "Set-Cookie": ["a=1; Path=/", "b=2; Path=/"], "Content-Type": "text/html" });
      res.end("<p>ok</p>");
    });
    const answer = await createOutboundFetch(school.url, { allowHosts: [school.host] })(`${school.url}/page`);
    expect(answer.status).toBe(200);
    expect(answer.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(await answer.text()).toBe("<p>ok</p>");
  });

  it.each([
    ["the plain address", (port: number) => `http://127.0.0.1:${port}/`],
    ["its decimal form", (port: number) => `http://2130706433:${port}/`],
    ["its hex form", (port: number) => `http://0x7f000001:${port}/`],
    ["its octal form", (port: number) => `http://017700000001:${port}/`],
    ["a name that resolves to it", (port: number) => `http://localhost:${port}/`],
  ])("refuses loopback written as %s, before connecting", async (_, urlFor) => {
    const inside = await serve(ok("secret"));
    const url = urlFor(inside.port);
    // The allow-list names another port: exact host:port pairs, nothing wider.
    const call = createOutboundFetch(url, { allowHosts: [`127.0.0.1:${inside.port + 1}`] })(url);
    expect(await refusal(call)).toBe("forbidden_address");
    expect(inside.hits).toEqual([]);
  });

  it.each(["http://169.254.169.254/latest/meta-data/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://[fd00::1]/", "http://0.0.0.0/", "http://10.1.2.3/"])(
    "refuses %s without a connection",
    async (url) => {
      expect(await refusal(createOutboundFetch(url, { timeoutMs: 2_000 })(url))).toBe("forbidden_address");
    },
  );

  it("refuses other schemes and other hosts than the bound one", async () => {
    const school = await serve(ok());
    expect(await refusal(createOutboundFetch("file:///etc/passwd")("file:///etc/passwd"))).toBe("scheme");
    const bound = createOutboundFetch(school.url, { allowHosts: [school.host] });
    expect(await refusal(bound("http://example.com/"))).toBe("other_host");
    expect(school.hits).toEqual([]);
  });

  it("follows a redirect on the same host and refuses one that leaves it", async () => {
    const other = await serve(ok("other"));
    const school = await serve((req, res) => {
      if (req.url === "/same") return void res.writeHead(302, { Location: "/landed" }).end();
      if (req.url === "/away") return void res.writeHead(302, { Location: `${other.url}/` }).end();
      if (req.url === "/metadata") return void res.writeHead(301, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
      ok("landed")(req, res);
    });
    const bound: OutboundFetch = createOutboundFetch(school.url, { allowHosts: [school.host, other.host] });
    const followed = await bound(`${school.url}/same`);
    expect(await followed.text()).toBe("landed");
    expect(await refusal(bound(`${school.url}/away`))).toBe("other_host");
    expect(await refusal(bound(`${school.url}/metadata`))).toBe("other_host");
    expect(other.hits).toEqual([]);
    // A caller that reads redirects itself gets the 302 as it came.
    const manual = await bound(`${school.url}/away`, { redirect: "manual" });
    expect(manual.status).toBe(302);
    expect(manual.headers.get("location")).toBe(`${other.url}/`);
  });

  it("refuses an answer past the cap, declared or streamed, without holding it", async () => {
    const school = await serve((req, res) => {
      if (req.url === "/declared") {
        res.writeHead(200, { "Content-Length": String(50 * 1024 * 1024) });
        res.write("x");
        return;
      }
      res.writeHead(200, { "Content-Type": "text/html" });
      const chunk = Buffer.alloc(64 * 1024, "a");
      let sent = 0;
      const pump = () => {
        while (sent < 6 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    const bound = createOutboundFetch(school.url, { allowHosts: [school.host] });
    const started = Date.now();
    expect(await refusal(bound(`${school.url}/declared`))).toBe("too_large");
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await refusal(bound(`${school.url}/streamed`))).toBe("too_large");
  });

  it("gives up after its total time, even while bytes trickle in", async () => {
    const school = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "text/html" });
      const timer = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(timer));
    });
    const started = Date.now();
    const reason = await refusal(createOutboundFetch(school.url, { allowHosts: [school.host], timeoutMs: 400 })(school.url));
    expect(reason).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(1_500);
  });
});

describe("a configured address that is no URL", () => {
  it("fails every call with a reason instead of throwing when the client is made", async () => {
    const bound = createOutboundFetch("jw.example.edu.cn/jwglxt");
    expect(await refusal(bound("https://jw.example.edu.cn/"))).toBe("scheme");
  });
});
