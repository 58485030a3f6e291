// Tests that point the app at a fake (its base URL, app id, secret) change process.env and then
// read the configuration again; afterwards they put back what was there.
import { resetConfig } from "~/server/config.server";

/** Remembers `keys` of process.env now; `set` changes some and re-reads the configuration, `restore` puts them back. */
export function savedEnv(keys: readonly string[]) {
  const saved = new Map(keys.map((key) => [key, process.env[key]]));
  return {
    set(values: Record<string, string>) {
      Object.assign(process.env, values);
      resetConfig();
    },
    restore() {
      for (const [key, value] of saved) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      resetConfig();
    },
  };
}
