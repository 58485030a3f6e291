#!/usr/bin/env node
// `npm start`: build the app when the build is missing or older than its sources, then run the
// server (server.mjs) in this process: it migrates, seeds an empty database and listens on
// PORT (3000). With no DATABASE_URL the data lives in ./data/app.db (SQLite).
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT, ensureBuild } from "./lib/ensure-build.mjs";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

process.chdir(ROOT); // ./data and ./build are relative to the repository
ensureBuild();

// server.mjs handles SIGTERM/SIGINT itself (graceful shutdown) and sets the exit code. `npm start`
// runs this file through `sh -c`: on SIGTERM npm signals that shell, which exits without passing
// the signal on, and this process would be left serving the port. So a parent that goes away
// counts as SIGTERM too.
const parentPid = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid === parentPid) return;
  clearInterval(parentWatch);
  process.kill(process.pid, "SIGTERM");
}, 250);
parentWatch.unref();

await import(pathToFileURL(path.join(ROOT, "server.mjs")).href);
