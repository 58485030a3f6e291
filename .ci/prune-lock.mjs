// CI helper, used only when `npm ci` refuses package-lock.json. The registry these machines
// reach does not serve some platform binaries (for example @rollup/rollup-android-arm-eabi), so
// `npm install` leaves them out of the lock while the parent's entry still lists them under
// optionalDependencies, and npm 11's `npm ci` then reports "Missing: … from lock file".
// This drops exactly those optional names (no lock entry anywhere on the resolution path) from
// the parents' entries in the working copy's lock; every other difference still fails `npm ci`.
import fs from "node:fs";

const file = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages ?? {};

function resolves(from, name) {
  // Node's lookup: <from>/node_modules/<name>, then each ancestor's node_modules, then the root.
  let base = from;
  for (;;) {
    const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
    if (packages[candidate]) return true;
    if (!base) return false;
    const index = base.lastIndexOf("/node_modules/");
    base = index === -1 ? "" : base.slice(0, index);
  }
}

const dropped = [];
for (const [location, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {})) {
    if (!resolves(location, name)) {
      delete entry.optionalDependencies[name];
      dropped.push(`${location || "(root)"} → ${name}`);
    }
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(dropped.length > 0 ? `pruned ${dropped.length} optional dependencies without a lock entry:\n  ${dropped.join("\n  ")}` : "nothing to prune");
