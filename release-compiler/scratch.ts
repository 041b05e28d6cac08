/**
 * The compile's scratch space: a folder beside the release being built (same disk, no /tmp
 * size limit) for the row engine's database and spill files and other intermediate files,
 * removed when the compile ends, failed or not.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";

/** A scratch folder; `remove()` deletes it with everything in it. */
export interface ScratchFolder {
  readonly path: string;
  /** A new, empty sub-folder. */
  folder(name: string): string;
  remove(): void;
}

export function scratchFolder(path: string): ScratchFolder {
  rmSync(path, { recursive: true, force: true });
  mkdirSync(path, { recursive: true });
  let made = 0;
  return {
    path,
    folder(name) {
      const dir = join(path, `${++made}-${name}`);
      mkdirSync(dir);
      return dir;
    },
    remove() {
      rmSync(path, { recursive: true, force: true });
    },
  };
}
