#!/usr/bin/env node
// `npm start`: build the app when the build is missing or older than its sources, then run the
// server (server.mjs) in this process: it migrates, seeds an empty database and listens on
// PORT (3000). With no DATABASE_URL the data lives in ./data/app.db (SQLite).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(root); // ./data and ./build are relative to the repository

const SOURCES = ["app", "public", "package-lock.json", "remix.config.js", "tailwind.config.ts", "postcss.config.js", "tsconfig.json"];
const IGNORED = new Set(["node_modules", ".cache", "build"]); // public/build is the output

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const name of fs.readdirSync(entry)) {
    if (IGNORED.has(name) || /\.test\.tsx?$/.test(name)) continue;
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

function buildReason() {
  const output = ["build/index.js", "public/build"].map((file) => path.join(root, file));
  if (!output.every((file) => fs.existsSync(file))) return "no build yet";
  const built = fs.statSync(output[0]).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(path.join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

const reason = buildReason();
if (reason) {
  console.log(`[campus-app] building (${reason})…`);
  const cli = path.join(root, "node_modules/@remix-run/dev/dist/cli.js");
  if (!fs.existsSync(cli)) {
    console.error("[campus-app] @remix-run/dev is not installed: run `npm install` first.");
    process.exit(1);
  }
  const result = spawnSync(process.execPath, [cli, "build"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) {
    console.error("[campus-app] the build failed; not starting.");
    process.exit(result.status ?? 1);
  }
}

// server.mjs handles SIGTERM/SIGINT itself (graceful shutdown) and sets the exit code.
await import(pathToFileURL(path.join(root, "server.mjs")).href);
