/**
 * Runs once before every test project: compiles the releases the tests serve into
 * build/test/ (or $ORTH_TEST_BUILD) and bundles the worker as it would be deployed.
 * - `sim`: a simulated release (always), with the simulator's truth copied beside it;
 * - `sim-oma`: the same inputs compiled with `"field_names": "oma"` (always; the naming profile's tests);
 * - `demo`: the demo release of `npm start` (always);
 * - `bacteria3`, `primates`: the real releases, when ../shared/data is present;
 * - `orthofinder25`, `orthofinder31`: the two real OrthoFinder runs (2.5.x and 3.x layouts), likewise.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { compileRelease } from "../release-compiler/compile.js";
import { DEMO } from "../release-compiler/local/start.js";
import { simulateRelease } from "../release-compiler/simulate/simulate.js";
import { TEST_BUILD } from "./build-dir.js";
import { hasSharedData, warnWithoutSharedData } from "./shared-data.js";

const ROOT = resolve(import.meta.dirname, "..");
export { TEST_BUILD };

/** The simulated test release: small enough to compile in seconds, with every optional input. */
export const SIMULATED = { genomes: 10, families: 150, seed: 7, name: "Simulated.Test", polyploid: true };

/**
 * Vitest calls the global setup once per project; the build runs once per vitest process
 * (the second call waits for the first), so no project deletes what another is reading.
 */
export default function setup(): Promise<void> {
  const shared = globalThis as { orthTestBuild?: Promise<void> };
  shared.orthTestBuild ??= buildTestReleases();
  return shared.orthTestBuild;
}

async function buildTestReleases(): Promise<void> {
  // ORTH_TEST_REUSE=1 keeps releases an earlier run built (quicker while working on the worker);
  // the worker bundle is rebuilt either way.
  const reuse = process.env.ORTH_TEST_REUSE === "1" && existsSync(resolve(TEST_BUILD, "demo/manifest.json"));
  if (!reuse) rmSync(TEST_BUILD, { recursive: true, force: true });
  // Every temporary folder of the run (the tests' own, Miniflare's, Snakemake's, Chromium's) in
  // one folder this setup empties, rather than left behind in the system's: the test processes
  // start after this and inherit it. tsx's cache of compiled modules (tsx-<uid>) is kept: every
  // compiler process and thread the tests start would compile the sources again.
  const tmp = `${TEST_BUILD}-tmp`;
  mkdirSync(tmp, { recursive: true });
  for (const entry of readdirSync(tmp)) if (!entry.startsWith("tsx-")) rmSync(resolve(tmp, entry), { recursive: true, force: true });
  process.env.TMPDIR = tmp;
  rmSync(resolve(TEST_BUILD, "worker"), { recursive: true, force: true });
  const bundle = promisify(execFile)(resolve(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", resolve(TEST_BUILD, "worker")], {
    cwd: ROOT,
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  if (reuse) {
    await bundle;
    return;
  }
  // Two lanes side by side (the compiles are independent, and each leaves a core idle part of the
  // time): the simulated and demo releases, and the real ones.
  warnWithoutSharedData("the tests on the real bacteria3, primates-chr12 and OrthoFinder releases");
  await Promise.all([bundle, buildSimulatedReleases(), hasSharedData ? buildRealReleases() : undefined]);
}

async function buildSimulatedReleases(): Promise<void> {
  const simInput = resolve(TEST_BUILD, "sim-input");
  await simulateRelease({ out: simInput, ...SIMULATED });
  await compileRelease(resolve(simInput, "release.json"), resolve(TEST_BUILD, "sim"));
  // The same release under the original interface's names: its answers are the simulated release's, renamed.
  const omaConfig = resolve(simInput, "release-oma.json");
  writeFileSync(omaConfig, JSON.stringify({ ...JSON.parse(readFileSync(resolve(simInput, "release.json"), "utf8")), field_names: "oma" }, null, 2));
  await compileRelease(omaConfig, resolve(TEST_BUILD, "sim-oma"));
  // The demo `npm start` serves, built the same way, for the tests that must run on it.
  const demoInput = resolve(TEST_BUILD, "demo-input");
  await simulateRelease({ out: demoInput, ...DEMO });
  await compileRelease(resolve(demoInput, "release.json"), resolve(TEST_BUILD, "demo"));
}

async function buildRealReleases(): Promise<void> {
  await compileRelease(resolve(ROOT, "test/fixtures/bacteria3.release.json"), resolve(TEST_BUILD, "bacteria3"));
  await compileRelease(resolve(ROOT, "test/fixtures/primates-chr12.release.json"), resolve(TEST_BUILD, "primates"));
  await compileRelease(resolve(ROOT, "test/fixtures/orthofinder-mycoplasma-2.5.release.json"), resolve(TEST_BUILD, "orthofinder25"));
  await compileRelease(resolve(ROOT, "test/fixtures/orthofinder-mycoplasmoides-3.1.release.json"), resolve(TEST_BUILD, "orthofinder31"));
}
