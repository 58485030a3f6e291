// `--help` for the repository's scripts: prints the script's opening comment (its usage, in the
// words the file already has) and exits. tests/unit/npm-scripts.test.ts runs every documented
// script this way, so a script that no longer loads fails a test instead of a newcomer.
import fs from "node:fs";
import { fileURLToPath } from "node:url";

/** Call first, with `import.meta.url`: on `--help`, prints the file's leading `//` comment and exits 0. */
export function helpIfAsked(moduleUrl, argv = process.argv.slice(2)) {
  if (!argv.includes("--help")) return;
  const lines = fs.readFileSync(fileURLToPath(moduleUrl), "utf8").split("\n");
  const comment = [];
  for (const line of lines) {
    if (line.startsWith("#!")) continue;
    if (!line.startsWith("//")) break;
    comment.push(line.replace(/^\/\/ ?/, ""));
  }
  console.log(comment.join("\n"));
  process.exit(0);
}
