// The production server: wiring only. The request pipeline (security headers, bounded requests,
// fair service, the access guard, request logs) is typed code in app/server/http, compiled into
// the server build with the app and reached through build.entry.module. This file loads the
// build, starts the app (migrations, seed, jobs), listens, and shuts down gracefully.
import path from "node:path";
import url from "node:url";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const build = await import(url.pathToFileURL(path.join(here, "build/index.js")).href);
const app = build.entry.module;

let settings;
try {
  settings = await app.startup();
} catch (error) {
  console.error(`[campus-app] cannot start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const server = app.createHttpApp(build, here);
const listener = server.listen(settings.port, settings.host, () => {
  app.log("info", "listening", { url: `http://localhost:${settings.port}`, env: settings.env });
});
app.configureServer(listener);
listener.on("error", async (error) => {
  const reason =
    error.code === "EADDRINUSE"
      ? `port ${settings.port} is already in use: stop what runs there or set PORT to a free port`
      : error.code === "EACCES"
        ? `port ${settings.port} needs privileges: set PORT to 1024 or above`
        : error.message;
  console.error(`[campus-app] cannot listen: ${reason}`);
  await app.shutdown().catch(() => {});
  process.exit(1);
});

const metricsServer = app.metricsApp(settings.metrics);
const metricsListener = metricsServer?.listen(settings.metrics.port, settings.metrics.host, () => {
  app.log("info", "metrics-listening", { host: settings.metrics.host, port: settings.metrics.port });
});

let stopping = false;
async function shutdown(signal) {
  if (stopping) return;
  stopping = true;
  app.log("info", "shutdown", { signal });
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  metricsListener?.close();
  listener.close(async () => {
    await app.shutdown();
    process.exit(0);
  });
  listener.closeIdleConnections?.();
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
