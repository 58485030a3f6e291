#!/usr/bin/env node
// `npm run uploads:backup`: a copy of the uploaded images on local disk (UPLOADS_DIR, by default
// the uploads folder beside the SQLite file, or ./data/uploads with PostgreSQL), safe while the
// server runs. Upload files never change under their name (a new upload gets a new random key,
// written to a temporary file and renamed), so the backup is a mirror that only adds: each run
// copies the files it does not have yet into data/backups/uploads/files/ (or --out DIR) and writes
// a manifest (manifest-<timestamp>.txt: name, size, sha256 of every file present at that moment).
// Restore (README "Backup and restore"): `npm run uploads:backup -- --restore <manifest>` copies
// the files of that manifest into UPLOADS_DIR, checking each one's hash.
// With object storage (UPLOADS_S3_BUCKET) the bucket's versioning or replication is the backup.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { helpIfAsked } from "./lib/help.mjs";

helpIfAsked(import.meta.url);

/**
 * UPLOADS_DIR as the server resolves it (app/server/config.server.ts).
 * @param {Record<string, string | undefined>} env
 */
export function uploadsDir(env = process.env) {
  if (env.UPLOADS_DIR?.trim()) return path.resolve(env.UPLOADS_DIR.trim());
  const databaseUrl = env.DATABASE_URL || "file:./data/app.db";
  if (databaseUrl.startsWith("file:")) return path.join(path.dirname(path.resolve(databaseUrl.slice("file:".length))), "uploads");
  return path.resolve("data/uploads");
}

/** Upload files only: no temporary files of a write in progress, no readiness probes. */
const UPLOAD_FILE = /^[A-Za-z0-9_-]{22}(\.t)?\.jpg$/;

export function manifestName(at = new Date()) {
  return `manifest-${at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z")}.txt`;
}

function sha256(file) {
  return crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Copies the upload files of `source` that `outDir/files` lacks, then writes a manifest of all of them. */
export function backupUploads(source, outDir, at = new Date()) {
  const filesDir = path.join(outDir, "files");
  fs.mkdirSync(filesDir, { recursive: true, mode: 0o700 });
  const names = fs.existsSync(source) ? fs.readdirSync(source).filter((name) => UPLOAD_FILE.test(name)).sort() : [];
  let copied = 0;
  let bytes = 0;
  const lines = [];
  for (const name of names) {
    const from = path.join(source, name);
    const to = path.join(filesDir, name);
    const hash = sha256(from);
    // Names are never reused for other content: a file already in the backup with its size is kept.
    if (!fs.existsSync(to) || fs.statSync(to).size !== fs.statSync(from).size) {
      const temp = `${to}.${process.pid}.tmp`;
      fs.copyFileSync(from, temp);
      fs.renameSync(temp, to);
      copied += 1;
    }
    const size = fs.statSync(to).size;
    bytes += size;
    lines.push(`${name} ${size} ${hash}`);
  }
  const manifest = path.join(outDir, manifestName(at));
  fs.writeFileSync(manifest, lines.length > 0 ? `${lines.join("\n")}\n` : "", { mode: 0o600 });
  return { manifest, files: names.length, copied, bytes };
}

/** Copies the files a manifest lists from its backup into `target`, checking each hash. */
export function restoreUploads(manifest, target) {
  const filesDir = path.join(path.dirname(manifest), "files");
  fs.mkdirSync(target, { recursive: true });
  let restored = 0;
  for (const line of fs.readFileSync(manifest, "utf8").split("\n").filter(Boolean)) {
    const [name, , hash] = line.split(" ");
    if (!UPLOAD_FILE.test(name)) throw new Error(`not an upload file name in the manifest: ${name}`);
    const from = path.join(filesDir, name);
    if (sha256(from) !== hash) throw new Error(`${name} in the backup does not match its manifest hash`);
    const temp = path.join(target, `.${name}.restore.tmp`);
    fs.copyFileSync(from, temp);
    fs.renameSync(temp, path.join(target, name));
    restored += 1;
  }
  return { restored };
}

function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  if (process.env.UPLOADS_S3_BUCKET?.trim()) {
    console.error("uploads are in object storage (UPLOADS_S3_BUCKET): the bucket's versioning or replication is their backup (README, \"Backup and restore\").");
    process.exit(1);
  }
  const target = uploadsDir();
  const restore = option("--restore");
  const started = Date.now();
  if (restore) {
    const result = restoreUploads(path.resolve(restore), target);
    console.log(`restored ${result.restored} files into ${path.relative(process.cwd(), target) || "."} (${Date.now() - started} ms)`);
    return;
  }
  const outDir = path.resolve(option("--out") ?? "data/backups/uploads");
  const result = backupUploads(target, outDir);
  console.log(
    `backed up ${result.files} upload files (${result.copied} new, ${(result.bytes / 1024 / 1024).toFixed(1)} MB) from ` +
      `${path.relative(process.cwd(), target)} to ${path.relative(process.cwd(), outDir)}; manifest ${path.basename(result.manifest)} (${Date.now() - started} ms)`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`uploads backup failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
