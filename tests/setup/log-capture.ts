// What the app logs during a test: the process's pino logger writes to the file descriptors
// directly (not through process.stdout.write), so tests listen on the logger itself. Every call
// of log() is recorded as { level, event, ...fields }, whatever the run's LOG_LEVEL is.
import { vi } from "vitest";
import { logger } from "~/server/log.server";

const LEVELS = ["debug", "info", "warn", "error"] as const;

export function captureLogs() {
  const target = logger();
  const previous = target.level;
  target.level = "debug";
  const events: Record<string, unknown>[] = [];
  const spies = LEVELS.map((level) =>
    vi.spyOn(target, level).mockImplementation(((fields: Record<string, unknown>, event: string) => {
      events.push({ level, event, ...fields });
    }) as never),
  );
  return {
    events,
    /** Every recorded line as the JSON text a log line would carry. */
    text: () => events.map((event) => JSON.stringify(event)).join("\n"),
    restore() {
      for (const spy of spies) spy.mockRestore();
      target.level = previous;
    },
  };
}
