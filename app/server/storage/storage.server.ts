import fs from "node:fs/promises";
import path from "node:path";
import { config } from "../config.server";

/**
 * Where uploaded files live. The app only ever talks to this interface, so object storage can
 * replace the local folder: implement put/get/remove and return it from fileStorage().
 */
export interface FileStorage {
  put(name: string, data: Buffer, contentType: string): Promise<void>;
  get(name: string): Promise<{ data: Buffer; contentType: string } | null>;
  remove(name: string): Promise<void>;
}

const NAME = /^[A-Za-z0-9_-]+(\.[a-z0-9]+)*$/;
const TYPES: Record<string, string> = { ".jpg": "image/jpeg" };

function checkName(name: string) {
  if (!NAME.test(name) || name.length > 100) throw new Error(`bad file name ${JSON.stringify(name)}`);
}

/** Files in one folder on this machine (./data/uploads by default). */
export class LocalDiskStorage implements FileStorage {
  constructor(readonly dir: string) {}

  async put(name: string, data: Buffer) {
    checkName(name);
    await fs.mkdir(this.dir, { recursive: true });
    // Write then rename: a reader never sees half a file.
    const temp = path.join(this.dir, `.${name}.${process.pid}.${Date.now()}.tmp`);
    await fs.writeFile(temp, data);
    await fs.rename(temp, path.join(this.dir, name));
  }

  async get(name: string) {
    checkName(name);
    try {
      const data = await fs.readFile(path.join(this.dir, name));
      return { data, contentType: TYPES[path.extname(name)] ?? "application/octet-stream" };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async remove(name: string) {
    checkName(name);
    await fs.rm(path.join(this.dir, name), { force: true });
  }
}

let instance: { dir: string; storage: FileStorage } | undefined;

export function fileStorage(): FileStorage {
  const dir = config().uploadsDir;
  if (!instance || instance.dir !== dir) instance = { dir, storage: new LocalDiskStorage(dir) };
  return instance.storage;
}
