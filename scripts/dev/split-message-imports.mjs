// Rewrites `import * as msg from "~/lib/messages"` in client-reachable modules into imports of
// the message groups the file reads, so each page's JavaScript carries only those groups.
// esbuild puts every module reachable from a route into that route's chunks, so importing the
// barrel would ship every group to every page. Run: node scripts/dev/split-message-imports.mjs
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const IMPORT = /^import \* as msg from "(~\/lib\/messages|\.\/messages|\.\.\/messages|\.\.\/lib\/messages|\.\.\/\.\.\/lib\/messages)";\n/m;

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (["server", "schemas", "messages"].includes(entry.name)) continue;
      yield* files(full);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.includes(".server.")) {
      yield full;
    }
  }
}

let changed = 0;
for (const file of files(path.join(root, "app"))) {
  const source = fs.readFileSync(file, "utf8");
  if (!IMPORT.test(source)) continue;
  const groups = [...new Set([...source.matchAll(/\bmsg\.(\w+)/g)].map((match) => match[1]))].sort();
  const imports = groups.map((group) => `import { ${group} as ${group}Messages } from "~/lib/messages/${group}";\n`).join("");
  let next = source.replace(IMPORT, imports);
  // The local `msg` object goes after the last import, so the rest of the file reads as before.
  const lastImport = [...next.matchAll(/^import [^;]+;\n/gm)].at(-1);
  const at = lastImport.index + lastImport[0].length;
  const local = `\nconst msg = { ${groups.map((group) => `${group}: ${group}Messages`).join(", ")} };\n`;
  next = next.slice(0, at) + local + next.slice(at);
  fs.writeFileSync(file, next);
  changed++;
}
console.log(`split message imports in ${changed} files`);
