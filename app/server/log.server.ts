import { config } from "./config.server";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

/** One JSON line per event. Callers pass facts, never passwords, tokens or cookies. */
export function log(level: Level, event: string, fields: Record<string, unknown> = {}) {
  let threshold: keyof typeof LEVELS = "info";
  try {
    threshold = config().logLevel;
  } catch {
    // configuration not readable yet: log at the default level
  }
  if (LEVELS[level] < LEVELS[threshold]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}
