#!/usr/bin/env node
// Summarizes a V8 .cpuprofile (from `npm run bench -- --profile <dir>` or `node --cpu-prof`):
// self time by function and by package, and inclusive time of the functions named with --focus.
// Usage: node scripts/bench/profile-summary.mjs <file.cpuprofile> [--top 30] [--focus name,name]
import fs from "node:fs";

const [file, ...rest] = process.argv.slice(2);
const opt = (name, fallback) => {
  const index = rest.indexOf(`--${name}`);
  return index >= 0 ? rest[index + 1] : fallback;
};
const top = Number(opt("top", 30));
const focus = (opt("focus", "") || "").split(",").filter(Boolean);
const profile = JSON.parse(fs.readFileSync(file, "utf8"));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const selfUs = new Map();
const deltas = profile.timeDeltas;
for (let i = 0; i < profile.samples.length; i++) selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + (deltas[i] ?? 0));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const where = (frame) => {
  const url = frame.url || "";
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  if (url.includes("/build/")) return "(app build)";
  if (url.startsWith("node:")) return url;
  if (!url) return frame.functionName.startsWith("(") ? frame.functionName : "(native)";
  return url.split("/").slice(-2).join("/");
};
const idle = new Set(profile.nodes.filter((node) => ["(idle)", "(program)", "(garbage collector)"].includes(node.callFrame.functionName)).map((node) => node.id));
const byFunction = new Map();
const byPackage = new Map();
for (const [id, us] of selfUs) {
  const frame = nodes.get(id).callFrame;
  const key = `${frame.functionName || "(anonymous)"} ${where(frame)}:${frame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const pkg = idle.has(id) ? frame.functionName : where(frame);
  byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + us);
}
const busy = total - [...idle].reduce((sum, id) => sum + (selfUs.get(id) ?? 0), 0);
const pct = (us, of = total) => `${((us / of) * 100).toFixed(1)}%`.padStart(6);
console.log(`${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s not idle/program/gc`);
console.log("\nself time by package (of all samples):");
for (const [key, us] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(us)}  ${key}`);
console.log("\nself time by function:");
for (const [key, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us)}  ${key}`);
for (const name of focus) {
  // inclusive: samples whose stack contains a frame named `name` (counted once per sample)
  let us = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) {
      if (nodes.get(id).callFrame.functionName === name) {
        us += deltas[i] ?? 0;
        break;
      }
    }
  }
  console.log(`\ninclusive ${name}: ${pct(us)} of all, ${pct(us, busy)} of busy`);
}
