// scripts/uploads-backup.mjs: the local uploads folder copied while the server writes, and restored.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { backupUploads, manifestName, restoreUploads, uploadsDir } from "../../scripts/uploads-backup.mjs";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-backup-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const key = (n: number) => `Key${String(n).padStart(19, "0")}`;

describe("uploads:backup", () => {
  it("finds the uploads folder as the server does", () => {
    expect(uploadsDir({ NODE_ENV: "test", UPLOADS_DIR: "/srv/uploads" })).toBe("/srv/uploads");
    expect(uploadsDir({ NODE_ENV: "test", DATABASE_URL: "file:/var/lib/campus/app.db" })).toBe("/var/lib/campus/uploads");
    expect(uploadsDir({ NODE_ENV: "test", DATABASE_URL: "postgres://u@h/db" })).toBe(path.resolve("data/uploads"));
    expect(manifestName(new Date("2026-11-26T06:40:01.123Z"))).toBe("manifest-20261126T064001Z.txt");
  });

  it("copies the upload files (not temporary files or probes), only the new ones the second time, and restores a manifest's set", () => {
    const source = path.join(dir, "uploads");
    const out = path.join(dir, "backups");
    fs.mkdirSync(source);
    for (const n of [1, 2]) {
      fs.writeFileSync(path.join(source, `${key(n)}.jpg`), `image ${n}`);
      fs.writeFileSync(path.join(source, `${key(n)}.t.jpg`), `thumb ${n}`);
    }
    fs.writeFileSync(path.join(source, `.${key(3)}.jpg.ab12.tmp`), "half");
    fs.writeFileSync(path.join(source, "readyz-0123456789abcdef.probe"), "ok");

    const first = backupUploads(source, out, new Date("2026-11-26T01:00:00Z"));
    expect(first).toMatchObject({ files: 4, copied: 4 });
    expect(fs.readdirSync(path.join(out, "files")).sort()).toEqual([`${key(1)}.jpg`, `${key(1)}.t.jpg`, `${key(2)}.jpg`, `${key(2)}.t.jpg`]);
    expect(fs.statSync(first.manifest).mode & 0o777).toBe(0o600);

    fs.writeFileSync(path.join(source, `${key(4)}.jpg`), "image 4");
    fs.rmSync(path.join(source, `${key(1)}.jpg`)); // a post deleted after the first backup
    const second = backupUploads(source, out, new Date("2026-11-26T02:00:00Z"));
    expect(second).toMatchObject({ files: 4, copied: 1 });

    const restored = path.join(dir, "restored");
    expect(restoreUploads(first.manifest, restored)).toEqual({ restored: 4 });
    expect(fs.readdirSync(restored).sort()).toEqual([`${key(1)}.jpg`, `${key(1)}.t.jpg`, `${key(2)}.jpg`, `${key(2)}.t.jpg`]);
    expect(fs.readFileSync(path.join(restored, `${key(1)}.jpg`), "utf8")).toBe("image 1");

    fs.writeFileSync(path.join(out, "files", `${key(2)}.jpg`), "tampered");
    expect(() => restoreUploads(first.manifest, path.join(dir, "again"))).toThrow(/does not match/);
  });

  it("as a command: refuses object storage, backs up UPLOADS_DIR", () => {
    const script = path.resolve("scripts/uploads-backup.mjs");
    const env = { PATH: process.env.PATH ?? "", NODE_ENV: "test" as const };
    const s3 = spawnSync(process.execPath, [script], { env: { ...env, UPLOADS_S3_BUCKET: "campus" }, encoding: "utf8" });
    expect(s3.status).toBe(1);
    expect(s3.stderr).toMatch(/versioning or replication/);
    const run = spawnSync(process.execPath, [script, "--out", path.join(dir, "cli")], { env: { ...env, UPLOADS_DIR: path.join(dir, "uploads") }, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/backed up 4 upload files \(4 new/);
  });
});
