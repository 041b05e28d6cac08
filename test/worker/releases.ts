import { env } from "cloudflare:test";
import { loadRelease, type ReleaseFiles } from "../../release-compiler/local/r2-loader.js";
import type { Manifest } from "../../release-format/format.js";
import { openManifest } from "../../src/release/release.js";
import { r2Storage } from "../../src/release/storage.js";

/** Node-side binding serving `build/test/…` (see vitest.config.ts). */
const files = env.RELEASE_FILES;

async function fetchFile(path: string): Promise<Response> {
  const res = await files.fetch(`http://release-files/${path}`);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res;
}

/**
 * Loads a release compiled by the global setup into the R2 binding; requests then reach it
 * under `/release/{manifest name}/api/…` (and at `/api/…` when made current).
 */
export async function useRelease(dir: string, makeCurrent = false): Promise<{ manifest: Manifest; base: string }> {
  const source: ReleaseFiles = {
    text: async (path) => (await fetchFile(`${dir}/${path}`)).text(),
    bytes: async (path) => new Uint8Array(await (await fetchFile(`${dir}/${path}`)).arrayBuffer()),
  };
  const { name } = await loadRelease(env.RELEASES, source, { makeCurrent });
  const manifest = await openManifest(r2Storage(env.RELEASES), name);
  return { manifest, base: `http://orth.test/release/${manifest.name}/api` };
}
