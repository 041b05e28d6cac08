/**
 * Miniflare for tests, with its storage (the R2 bucket, the cache) in a folder of its own that
 * `dispose()` removes. Miniflare removes its own temporary folder without waiting (fire and
 * forget), so a test process that exits right after leaves it in the system's temp folder: a
 * copy of the served release, 100 MB and more, at every run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Miniflare, type MiniflareOptions } from "miniflare";

export class TestMiniflare extends Miniflare {
  private readonly storage: string;

  constructor(options: MiniflareOptions) {
    const storage = mkdtempSync(join(tmpdir(), "orth-test-miniflare-"));
    super({ ...options, defaultPersistRoot: storage } as MiniflareOptions);
    this.storage = storage;
  }

  /** New options (a new workerd), over the same storage. */
  override setOptions(options: MiniflareOptions): Promise<void> {
    return super.setOptions({ ...options, defaultPersistRoot: this.storage } as MiniflareOptions);
  }

  override async dispose(): Promise<void> {
    try {
      await super.dispose();
    } finally {
      rmSync(this.storage, { recursive: true, force: true });
    }
  }
}
