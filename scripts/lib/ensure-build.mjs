// The server build, built first when it is missing or older than its sources (`npm start` and
// `npm run admin:create`). In the production image the sources are absent and the build is used
// as it is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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
  const output = ["build/index.js", "public/build"].map((file) => path.join(ROOT, file));
  if (!output.every((file) => fs.existsSync(file))) return "no build yet";
  const built = fs.statSync(output[0]).mtimeMs;
  const changed = SOURCES.find((source) => newestMtime(path.join(ROOT, source)) > built);
  return changed ? `${changed} changed since the last build` : null;
}

/** Builds when needed (progress on stderr), or exits the process when it cannot. */
export function ensureBuild() {
  // The production image carries the build and not the sources: use the build as it is.
  if (!fs.existsSync(path.join(ROOT, "app"))) return;
  const reason = buildReason();
  if (!reason) return;
  console.error(`[campus-app] building (${reason})…`);
  const cli = path.join(ROOT, "node_modules/@remix-run/dev/dist/cli.js");
  if (!fs.existsSync(cli)) {
    console.error(
      fs.existsSync(path.join(ROOT, "build/index.js"))
        ? "[campus-app] @remix-run/dev is not installed: run `npm install` first."
        : "[campus-app] there is no build and @remix-run/dev is not installed: run `npm install` first.",
    );
    process.exit(1);
  }
  const result = spawnSync(process.execPath, [cli, "build"], { cwd: ROOT, stdio: ["ignore", 2, 2] });
  if (result.status !== 0) {
    console.error("[campus-app] the build failed.");
    process.exit(result.status ?? 1);
  }
}

/** The server build's entry module (what server.mjs uses). */
export async function serverEntry() {
  const built = await import(pathToFileURL(path.join(ROOT, "build/index.js")).href);
  return built.entry.module;
}
