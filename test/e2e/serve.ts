/**
 * Serves a compiled test release over real HTTP on loopback: the deployable worker bundle
 * (built by the global setup) inside workerd through plain Miniflare, the release's packs in
 * its R2 bucket.
 */
import { resolve } from "node:path";
import type { Miniflare } from "miniflare";
import { TestMiniflare } from "./miniflare.js";
import { afterAll, beforeAll } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { folderFiles, loadRelease } from "../../release-compiler/local/r2-loader.js";
import type { Manifest } from "../../release-format/format.js";
import { jsonClient } from "../json-client.js";

import { TEST_BUILD } from "../build-dir.js";

export { TEST_BUILD };

export interface ServedRelease {
  /** `http://127.0.0.1:PORT/api` */
  base: string;
  origin: string;
  manifest: Manifest;
  mf: Miniflare;
  dispose(): Promise<void>;
}

export async function serveRelease(name: string, bindings: Record<string, string> = {}): Promise<ServedRelease> {
  const mf = new TestMiniflare({
    modules: true,
    scriptPath: resolve(TEST_BUILD, "worker/index.js"),
    compatibilityDate: "2026-04-26",
    r2Buckets: ["RELEASES"],
    bindings,
  });
  const dir = resolve(TEST_BUILD, name);
  await loadRelease((await mf.getR2Bucket("RELEASES")) as never, await folderFiles(dir), { makeCurrent: true });
  const { manifest } = await openReleaseFolder(dir);
  const origin = (await mf.ready).origin;
  return { base: `${origin}/api`, origin, manifest, mf, dispose: () => mf.dispose() };
}

/** JSON requests over real HTTP (see test/json-client.ts). */
export const { getJson, getAllPages } = jsonClient(fetch);

/**
 * Serves primates-chr12 and bacteria3 for the enclosing describe block (before its tests,
 * disposed after them), handing both to `use`.
 */
export function serveRealReleases(use: (primates: ServedRelease, bacteria: ServedRelease) => void): void {
  let served: ServedRelease[] = [];
  beforeAll(async () => {
    served = await Promise.all([serveRelease("primates"), serveRelease("bacteria3")]);
    use(served[0], served[1]);
  });
  afterAll(() => Promise.all(served.map((s) => s.dispose())));
}
