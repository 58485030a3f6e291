#!/usr/bin/env node
// Removes the native binaries of other platforms that packages ship in full: onnxruntime-node
// carries darwin, win32 and every Linux architecture (about 220 MB this image never loads).
// Keeps exactly process.platform/process.arch. Run by the Dockerfile after `npm prune --omit=dev`;
// `--dry-run` lists what would go.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dryRun = process.argv.includes("--dry-run");

/** [platform dir, arch dir] pairs under a package's bin/napi-v*, other than this machine's. */
export function foreignBinaryDirs(packageDir, platform = process.platform, arch = process.arch) {
  const bin = path.join(packageDir, "bin");
  if (!fs.existsSync(bin)) return [];
  const found = [];
  for (const napi of fs.readdirSync(bin).filter((name) => name.startsWith("napi-v"))) {
    for (const os of fs.readdirSync(path.join(bin, napi))) {
      const osDir = path.join(bin, napi, os);
      if (os !== platform) {
        found.push(osDir);
        continue;
      }
      for (const cpu of fs.readdirSync(osDir)) if (cpu !== arch) found.push(path.join(osDir, cpu));
    }
  }
  return found;
}

function sizeOf(entry) {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.size;
  return fs.readdirSync(entry).reduce((sum, name) => sum + sizeOf(path.join(entry, name)), 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let bytes = 0;
  for (const dir of foreignBinaryDirs(path.join(root, "node_modules/onnxruntime-node"))) {
    bytes += sizeOf(dir);
    console.log(`${dryRun ? "would remove" : "removing"} ${path.relative(root, dir)}`);
    if (!dryRun) fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${dryRun ? "would free" : "freed"} ${(bytes / 1024 / 1024).toFixed(0)} MB`);
}
