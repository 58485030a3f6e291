// The FileStorage contract, run on both back ends: the folder on this machine and an
// S3-compatible bucket (the loopback fake in tests/fakes/s3-server.ts, which checks every
// request's AWS Signature V4). Each storage is built from a parsed configuration, as the server
// builds it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "~/server/config.server";
import { createFileStorage, IMMUTABLE_CACHE, type FileStorage } from "~/server/storage/storage.server";
import { s3Env, startFakeS3, storedKeys, type FakeS3 } from "../fakes/s3-server";

let s3: FakeS3;
let dir: string;

beforeAll(async () => {
  s3 = await startFakeS3();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "storage-contract-"));
});

afterAll(async () => {
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function storageFrom(env: Record<string, string>): FileStorage {
  return createFileStorage(parseConfig(env).uploads);
}

const backends: { name: string; make: () => FileStorage; leftovers: () => string[] }[] = [
  { name: "local disk", make: () => storageFrom({ UPLOADS_DIR: dir }), leftovers: () => fs.readdirSync(dir).sort() },
  { name: "S3 (fake, SigV4 checked)", make: () => storageFrom(s3Env(s3, { prefix: "campus/uploads" })), leftovers: () => storedKeys(s3) },
];

const jpeg = (text: string) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), Buffer.from(text)]);

describe.each(backends)("FileStorage contract: $name", ({ make, leftovers }) => {
  it("gives back exactly what was put, with its type; overwriting replaces it", async () => {
    const storage = make();
    await storage.put("ContractKey000000000001.jpg", jpeg("first"), "image/jpeg");
    const got = await storage.get("ContractKey000000000001.jpg");
    expect(got?.data.equals(jpeg("first"))).toBe(true);
    expect(got?.contentType).toBe("image/jpeg");
    await storage.put("ContractKey000000000001.jpg", jpeg("second"), "image/jpeg");
    expect((await storage.get("ContractKey000000000001.jpg"))?.data.toString("latin1")).toContain("second");
  });

  it("answers null for a missing file and removes files (removing a missing one is fine)", async () => {
    const storage = make();
    expect(await storage.get("NeverStored00000000000.jpg")).toBeNull();
    await storage.put("ContractKey000000000002.t.jpg", jpeg("thumb"), "image/jpeg");
    await storage.remove("ContractKey000000000002.t.jpg");
    expect(await storage.get("ContractKey000000000002.t.jpg")).toBeNull();
    await expect(storage.remove("ContractKey000000000002.t.jpg")).resolves.toBeUndefined();
    expect(leftovers().some((name) => name.includes("ContractKey000000000002"))).toBe(false);
  });

  it("refuses names that are not ours (paths, separators, header characters)", async () => {
    const storage = make();
    for (const name of ["../escape.jpg", "a/b.jpg", "a;b.jpg", "a\r\nb.jpg", "", ".hidden", "x".repeat(101)]) {
      await expect(storage.put(name, jpeg("x"), "image/jpeg"), name).rejects.toThrow(/bad file name/);
      await expect(storage.get(name), name).rejects.toThrow(/bad file name/);
    }
  });

  it("the readiness probe writes and deletes, leaving nothing", async () => {
    const before = leftovers();
    await make().probe();
    expect(leftovers()).toEqual(before);
  });
});

describe("local disk failures", () => {
  it("a write that cannot complete leaves no temporary file and no partial file", async () => {
    const storage = storageFrom({ UPLOADS_DIR: dir });
    // The target name is a folder with something in it: the rename after the write fails.
    fs.mkdirSync(path.join(dir, "Blocked000000000000000.jpg", "inside"), { recursive: true });
    await expect(storage.put("Blocked000000000000000.jpg", jpeg("x"), "image/jpeg")).rejects.toThrow();
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("an uploads folder that cannot exist fails the probe (even for root)", async () => {
    const file = path.join(dir, "a-regular-file");
    fs.writeFileSync(file, "x");
    await expect(storageFrom({ UPLOADS_DIR: path.join(file, "uploads") }).probe()).rejects.toThrow(/ENOTDIR|EEXIST/);
  });
});

describe("S3 specifics", () => {
  it("stores objects under the prefix with the long cache header, signed with the configured keys", async () => {
    const storage = storageFrom(s3Env(s3, { prefix: "campus/uploads" }));
    await storage.put("CacheKey00000000000000.jpg", jpeg("c"), "image/jpeg");
    const object = s3.objects.get(`${s3.bucket}/campus/uploads/CacheKey00000000000000.jpg`);
    expect(object?.cacheControl).toBe(IMMUTABLE_CACHE);
    expect(object?.contentType).toBe("image/jpeg");
  });

  it("a wrong secret is refused by the store's signature check", async () => {
    const rejected = s3.rejectedSignatures;
    const storage = storageFrom({ ...s3Env(s3), UPLOADS_S3_SECRET_ACCESS_KEY: "not-the-secret-key-000000000" });
    await expect(storage.put("WrongSecret00000000000.jpg", jpeg("x"), "image/jpeg")).rejects.toThrow();
    expect(s3.rejectedSignatures).toBeGreaterThan(rejected);
    expect(s3.objects.has(`${s3.bucket}/WrongSecret00000000000.jpg`)).toBe(false);
  });

  it("a store that is down fails the probe", async () => {
    s3.down = true;
    try {
      await expect(storageFrom(s3Env(s3)).probe()).rejects.toThrow();
    } finally {
      s3.down = false;
    }
  });

  it("a public base URL gives the bucket's address of a file", () => {
    const storage = storageFrom(s3Env(s3, { prefix: "up", publicBaseUrl: "https://img.campus.example.cn/" }));
    expect(storage.publicUrl("CacheKey00000000000000.jpg")).toEqual({ url: "https://img.campus.example.cn/up/CacheKey00000000000000.jpg", permanent: true });
    expect(storageFrom({ UPLOADS_DIR: dir }).publicUrl("CacheKey00000000000000.jpg")).toBeNull();
    expect(storageFrom(s3Env(s3)).publicUrl("CacheKey00000000000000.jpg")).toBeNull();
  });

  it("signed URLs: a presigned GET the store accepts, the same within the hour; tampered or expired ones are refused", async () => {
    const storage = storageFrom({ ...s3Env(s3, { prefix: "private" }), UPLOADS_S3_SIGNED_URLS: "true" });
    await storage.put("SignedKey0000000000000.jpg", jpeg("signed"), "image/jpeg");
    const now = new Date();
    const signed = storage.publicUrl("SignedKey0000000000000.jpg", now)!;
    expect(signed.permanent).toBe(false);
    expect(signed.url).toMatch(/X-Amz-Signature=[0-9a-f]{64}$/);
    const hourStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
    expect(storage.publicUrl("SignedKey0000000000000.jpg", new Date(hourStart.getTime() + 3_599_000))!.url).toBe(signed.url);

    const answer = await fetch(signed.url);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).toString("latin1")).toContain("signed");
    expect(answer.headers.get("Cache-Control")).toBe(IMMUTABLE_CACHE);

    const tampered = signed.url.replace("SignedKey0000000000000", "SignedKey0000000000001");
    expect((await fetch(tampered)).status).toBe(403);
    const expired = storage.publicUrl("SignedKey0000000000000.jpg", new Date(now.getTime() - 3 * 3_600_000))!.url;
    expect((await fetch(expired)).status).toBe(403);
    expect(() => parseConfig({ ...s3Env(s3), UPLOADS_S3_ACCESS_KEY_ID: "", UPLOADS_S3_SECRET_ACCESS_KEY: "", UPLOADS_S3_SIGNED_URLS: "true" })).toThrow(/UPLOADS_S3_SIGNED_URLS needs/);
  });
});
