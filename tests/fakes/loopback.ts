// What every fake server here shares: listening on a free loopback port, closing with its
// kept-alive connections, and (for the school systems' page servers) a request body read whole
// and a thrown handler answered as the systems' own 500 page.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** Starts `server` on a free loopback port: the port, and a close that also ends kept-alive connections. */
export async function listenOnLoopback(server: http.Server) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { port, close };
}

/** A server whose `handle` answers each request; a throw is the 500 page, or a cut connection once the answer began. */
export function pageServer(handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) {
  return http.createServer((req, res) => {
    handle(req, res).catch(() => {
      if (res.headersSent) return res.destroy();
      res.writeHead(500, { "Content-Type": "text/html;charset=UTF-8" });
      res.end("<html><body>500</body></html>");
    });
  });
}

/** The request's body, read whole, as UTF-8. */
export function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}
