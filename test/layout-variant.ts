/**
 * The simulated test release (or another) compiled again with some of the compiler's layout
 * changed (chunk sizes, page entries, the wide-family limit, HOG cards), so that what a public release's sizes bring
 * shows on a few thousand proteins: its answers must be the usual release's.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { compileRelease } from "../release-compiler/compile.js";
import { LAYOUT } from "../release-compiler/write/layout.js";
import { TEST_BUILD } from "./build-dir.js";

/** Compiles the simulated test release's inputs into `dir` with `layout` over the usual one (restored after). */
export function compileSimulatedWith(layout: Partial<typeof LAYOUT>, dir: string): Promise<void> {
  return compileWithLayout(resolve(TEST_BUILD, "sim-input", "release.json"), layout, dir);
}

/** Compiles a release's config into `dir` with `layout` over the usual one (restored after). */
export async function compileWithLayout(config: string, layout: Partial<typeof LAYOUT>, dir: string): Promise<void> {
  const saved = { ...LAYOUT };
  Object.assign(LAYOUT, layout);
  try {
    rmSync(dir, { recursive: true, force: true });
    await compileRelease(config, dir);
  } finally {
    Object.assign(LAYOUT, saved);
  }
}
