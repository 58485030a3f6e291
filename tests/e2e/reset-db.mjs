// Run by Playwright's webServer command before `node server.mjs`: the e2e server starts on an
// empty database every run (Playwright starts its webServer before any globalSetup could).
// Databases of earlier runs (other ports) older than a day are removed too.
import fs from "node:fs";
import path from "node:path";

const file = path.resolve(process.env.E2E_DB_FILE ?? "tests/.tmp/e2e/app.db");
const dir = path.dirname(file);
fs.mkdirSync(dir, { recursive: true });
for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
for (const name of fs.readdirSync(dir)) {
  const other = path.join(dir, name);
  if (/^app(-\d+)?\.db(-wal|-shm)?$/.test(name) && Date.now() - fs.statSync(other).mtimeMs > 86_400_000) {
    fs.rmSync(other, { force: true });
  }
}
