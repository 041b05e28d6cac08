/**
 * `npm start [-- --release DIR] [--port N] [--state DIR] [--inspector-port N]`: serves a compiled
 * release locally with `wrangler dev`, quietly and offline (wrangler-console.ts), and says
 * "Serving … at …" once the server has answered. wrangler dev always opens a DevTools inspector,
 * on loopback: at port + 1000 unless `--inspector-port` says otherwise; it is printed. Without
 * `--release`, it simulates and compiles the demo release first if it is not built yet. Packs
 * go into wrangler dev's local R2 state through the Miniflare API, skipping those already there.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { FORMAT_VERSION } from "../../release-format/format.js";
import { compileRelease } from "../compile.js";
import { simulateRelease } from "../simulate/simulate.js";
import { makeCurrent } from "./publish.js";
import { folderFiles, loadRelease } from "./r2-loader.js";
import { inspectorNote, QUIET_WRANGLER_ENV, waitUntilServing } from "./wrangler-console.js";
import { claimState, openLocalState, stateFor } from "./state.js";

const ROOT = resolve(import.meta.dirname, "../..");
const DEMO_INPUT = resolve(ROOT, "build/demo-input");
const DEMO_RELEASE = resolve(ROOT, "build/demo");
/** The demo: a dozen real genomes, a few thousand proteins, every optional input. */
export const DEMO = { genomes: 12, families: 400, seed: 2026, name: "Demo.Nov2026", polyploid: true };

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
  console.log(`Demo release compiled: ${result.manifest.counts.proteins} proteins, ${result.stats.packs} packs.`);
  return DEMO_RELEASE;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { release: { type: "string" }, port: { type: "string" }, state: { type: "string" }, "inspector-port": { type: "string" } },
    strict: true,
  });
  const port = values.port ?? "8787";
  if (!/^[0-9]{2,5}$/.test(port)) throw new Error(`--port must be a port number, not '${port}'`);
  const inspectorPort = values["inspector-port"] ?? String(Number(port) + 1000);
  if (!/^[0-9]{2,5}$/.test(inspectorPort) || Number(inspectorPort) > 65535) throw new Error(`--inspector-port must be a port number, not '${inspectorPort}'`);
  // Each port has its own state (state.ts): a second server never moves the first one's pointer.
  const state = values.state ? resolve(values.state) : stateFor(port);
  const releaseDir = values.release ? resolve(values.release) : await ensureDemoRelease();
  if (!existsSync(resolve(releaseDir, "manifest.json"))) throw new Error(`${releaseDir} holds no compiled release (no manifest.json)`);

  const started = performance.now();
  claimState(state, port, releaseDir);
  const local = await openLocalState(state);
  try {
    const loaded = await loadRelease(local.bucket as never, await folderFiles(releaseDir), { makeCurrent: false });
    // Current the way `npm run publish` makes a release current, recorded in the history rollback walks.
    await makeCurrent(local.store, loaded.name);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`Loaded ${loaded.name}: ${loaded.uploaded} of ${loaded.packs} packs uploaded (${seconds} s).`);
  } finally {
    await local.dispose();
  }
  // RELEASE_POINTER_TTL_SECONDS from the environment overrides wrangler.toml's (tests set it low).
  const pointerTtl = process.env.RELEASE_POINTER_TTL_SECONDS ? ["--var", `RELEASE_POINTER_TTL_SECONDS:${process.env.RELEASE_POINTER_TTL_SECONDS}`] : [];

  const wrangler = spawn(
    resolve(ROOT, "node_modules/.bin/wrangler"),
    ["dev", "--ip", "127.0.0.1", "--port", port, "--persist-to", state, "--inspector-port", inspectorPort, ...pointerTtl],
    { cwd: ROOT, stdio: "inherit", env: { ...process.env, ...QUIET_WRANGLER_ENV } },
  );
  const stop = () => wrangler.kill("SIGINT");
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  wrangler.on("exit", (code) => process.exit(code ?? 0));
  // Said once the server has answered, not when wrangler dev was started.
  const origin = `http://127.0.0.1:${port}`;
  const serving = await waitUntilServing(origin, wrangler);
  const what = serving.release ?? `the server (/api/version/ answered ${serving.status})`;
  console.log(`Serving ${what} at ${origin}/api/\n${inspectorNote(inspectorPort)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
