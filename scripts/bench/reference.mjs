// The reference app of `npm run bench`: a bare Remix v2 app in scripts/bench/reference,
// built and started the way the campus app is. It has no node_modules of its own: `remix build`
// runs with its folder as the working directory and Node and esbuild find the repository's
// packages by walking up (NODE_PATH names ../../../node_modules as well, for any resolver that
// does not walk up).
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAppServer } from "../lib/app-server.mjs";

export const REFERENCE_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "reference");
const ROOT = path.resolve(REFERENCE_DIR, "../../..");
const NODE_MODULES = path.join(ROOT, "node_modules");

/** `remix build` in scripts/bench/reference (about 1–2 s). Resolves with the time it took, in ms. */
export function buildReference() {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let output = "";
    const child = spawn(process.execPath, [path.join(NODE_MODULES, "@remix-run/dev/dist/cli.js"), "build"], {
      cwd: REFERENCE_DIR,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NODE_ENV: "production", NODE_PATH: NODE_MODULES },
    });
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(Date.now() - started) : reject(new Error(`reference build failed (${code}):\n${output.slice(-4000)}`))));
  });
}

/** Starts the built reference app on a free loopback port (NODE_ENV=production); same shape as startAppServer's result. */
export function startReference({ nodeArgs = [], env = {} } = {}) {
  return startAppServer({
    script: path.join(REFERENCE_DIR, "server.mjs"),
    nodeArgs,
    databaseUrl: "",
    sessionSecret: "",
    encryptionKey: "",
    env: { NODE_PATH: NODE_MODULES, ...env },
  });
}
