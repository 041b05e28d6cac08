/**
 * The simulated test release compiled again with some of the compiler's layout changed (chunk
 * sizes, page entries, the wide-family limit), so that what a public release's sizes bring
 * shows on a few thousand proteins: its answers must be the usual release's.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { compileRelease } from "../release-compiler/compile.js";
import { LAYOUT } from "../release-compiler/write/layout.js";
import { TEST_BUILD } from "./build-dir.js";

/** Compiles the simulated test release's inputs into `dir` with `layout` over the usual one (restored after). */
export async function compileSimulatedWith(layout: Partial<typeof LAYOUT>, dir: string): Promise<void> {
  const saved = { ...LAYOUT };
  Object.assign(LAYOUT, layout);
  try {
    rmSync(dir, { recursive: true, force: true });
    await compileRelease(resolve(TEST_BUILD, "sim-input", "release.json"), dir);
  } finally {
    Object.assign(LAYOUT, saved);
  }
}
