// The reference app's server, served the way the app is (server.mjs at the repository's root):
// express + compression in front of Remix, static build files, one process. PORT and HOST from
// the environment (scripts/bench.mjs picks a free port).
import path from "node:path";
import url from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const here = path.dirname(url.fileURLToPath(import.meta.url));
const build = await import(url.pathToFileURL(path.join(here, "build/index.js")).href);

const app = express();
app.disable("x-powered-by");
app.use(compression());
app.use("/build", express.static(path.join(here, "public/build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(here, "public"), { maxAge: "1h" }));
app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
app.all("*", createRequestHandler({ build, mode: "production" }));

const port = Number(process.env.PORT ?? 3100);
const listener = app.listen(port, process.env.HOST ?? "127.0.0.1", () => console.log(`reference listening on ${port}`));
const stop = () => listener.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
