/**
 * `npm start [-- --release DIR] [--port N] [--state DIR]`: serves a compiled release locally with
 * `wrangler dev`. Without `--release`, it simulates and compiles the demo release first if
 * it is not built yet. Blobs go into wrangler dev's local R2 state through the Miniflare
 * API, skipping those already there.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { Miniflare } from "miniflare";
import { FORMAT_VERSION } from "../../release-format/format.js";
import { compileRelease } from "../compile.js";
import { simulateRelease } from "../simulate/simulate.js";
import { folderFiles, loadRelease } from "./r2-loader.js";

const ROOT = resolve(import.meta.dirname, "../..");
const DEMO_INPUT = resolve(ROOT, "build/demo-input");
const DEMO_RELEASE = resolve(ROOT, "build/demo");
/** The demo: a dozen real genomes, a few thousand proteins, every optional input. */
export const DEMO = { genomes: 12, families: 400, seed: 2026, name: "Demo.Nov2026", polyploid: true };
/** wrangler dev's local state; its R2 lives under v3/r2. */
const DEFAULT_STATE = resolve(ROOT, ".wrangler/state");
const BUCKET_NAME = "orth-releases";

/** Builds the demo unless a demo of this release format and these settings is already built. */
export async function ensureDemoRelease(): Promise<string> {
  const manifest = resolve(DEMO_RELEASE, "manifest.json");
  const stamp = resolve(DEMO_RELEASE, "demo-settings.json");
  const settings = JSON.stringify({ ...DEMO, format: FORMAT_VERSION });
  if (existsSync(manifest) && existsSync(stamp) && readFileSync(stamp, "utf8") === settings) return DEMO_RELEASE;
  console.log("Building the demo release (first run, or after a change of release format or demo settings)…");
  await simulateRelease({ out: DEMO_INPUT, ...DEMO });
  const result = await compileRelease(resolve(DEMO_INPUT, "release.json"), DEMO_RELEASE);
  writeFileSync(stamp, settings);
  console.log(`Demo release compiled: ${result.manifest.counts.proteins} proteins, ${result.stats.blobs} blobs.`);
  return DEMO_RELEASE;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { release: { type: "string" }, port: { type: "string" }, state: { type: "string" } },
    strict: true,
  });
  const port = values.port ?? "8787";
  const state = values.state ? resolve(values.state) : DEFAULT_STATE;
  if (!/^[0-9]{2,5}$/.test(port)) throw new Error(`--port must be a port number, not '${port}'`);
  const releaseDir = values.release ? resolve(values.release) : await ensureDemoRelease();
  if (!existsSync(resolve(releaseDir, "manifest.json"))) throw new Error(`${releaseDir} holds no compiled release (no manifest.json)`);

  const started = performance.now();
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 204 }); } }",
    r2Buckets: { RELEASES: BUCKET_NAME },
    r2Persist: resolve(state, "v3/r2"),
  });
  try {
    const bucket = await mf.getR2Bucket("RELEASES");
    const loaded = await loadRelease(bucket as never, await folderFiles(releaseDir), { makeCurrent: true });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Loaded ${loaded.name}: ${loaded.uploaded} of ${loaded.blobs} blobs uploaded (${seconds} s).`);
  } finally {
    await mf.dispose();
  }

  const wrangler = spawn(
    resolve(ROOT, "node_modules/.bin/wrangler"),
    ["dev", "--ip", "127.0.0.1", "--port", port, "--persist-to", state, "--inspector-port", String(Number(port) + 1000)],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" } },
  );
  console.log(`Serving at http://127.0.0.1:${port}/api/`);
  const stop = () => wrangler.kill("SIGINT");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  wrangler.on("exit", (code) => process.exit(code ?? 0));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
