// Settings shared by playwright.config.ts and the fixtures (both run in Playwright's processes).
// The server's port is free, chosen once by the main process (which loads the config first) and
// handed to the workers through E2E_PORT, so several runs on one machine do not collide.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../scripts/lib/app-server.mjs";
import { browserTestsChromium } from "../../scripts/lib/chromium.mjs";

process.env.E2E_PORT ||= String(await freePort());

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const E2E_PORT = Number(process.env.E2E_PORT);
export const E2E_BASE_URL = `http://127.0.0.1:${E2E_PORT}`;
/** The e2e server's SQLite database, emptied before the server starts (reset-db.mjs). */
export const E2E_DB_FILE = path.join(ROOT, `tests/.tmp/e2e/app-${E2E_PORT}.db`);
export const E2E_SESSION_SECRET = "e2e-session-secret-0123456789abcdef";
export const CHROMIUM_PATH = browserTestsChromium();
