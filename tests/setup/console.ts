// Every project: a console.error fails the test. React warnings, failed prop types and
// swallowed errors all end up there, and a green run must not hide them.
// A test that expects an error logs it on purpose: `consoleError.mockImplementation(() => {})`.
import { afterEach, beforeEach, vi, type MockInstance } from "vitest";

export let consoleError: MockInstance<(typeof console)["error"]>;

let unexpected: string[] = [];

beforeEach(() => {
  unexpected = [];
  const original = console.error;
  consoleError = vi.spyOn(console, "error");
  consoleError.mockImplementation((...args: unknown[]) => {
    original(...args);
    const text = args.map((arg) => (arg instanceof Error ? arg.stack ?? arg.message : String(arg))).join(" ");
    unexpected.push(text);
    throw new Error(
      `console.error was called: ${text}\nCall consoleError.mockImplementation(() => {}) if this is expected.`,
    );
  });
});

afterEach(() => {
  consoleError.mockRestore();
  // Also fail when the throw above was caught by the code under test.
  if (unexpected.length > 0) {
    const calls = unexpected;
    unexpected = [];
    throw new Error(`console.error was called during this test:\n${calls.join("\n")}`);
  }
});
