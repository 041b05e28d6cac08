/**
 * Compiles the releases the worker tests serve, into build/test/: a simulated release
 * (always; its truth files are copied beside it) and the real bacteria3 and primates-chr12
 * releases when ../shared/data is present.
 */
import { cpSync, rmSync } from "node:fs";
import { resolve } from "node:path";
import { compileRelease } from "../../release-compiler/compile.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";

const ROOT = resolve(import.meta.dirname, "../..");
const OUT = resolve(ROOT, "build/test");

/** The simulated release of the worker tests: small enough to compile in seconds, with every input. */
export const SIMULATED = { genomes: 10, families: 150, seed: 7, name: "Simulated.Test" };

export default async function setup(): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  const simInput = resolve(OUT, "sim-input");
  await simulateRelease({ out: simInput, ...SIMULATED });
  await compileRelease(resolve(simInput, "release.json"), resolve(OUT, "sim"));
  cpSync(resolve(simInput, "truth"), resolve(OUT, "sim/truth"), { recursive: true });

  warnWithoutSharedData("the worker tests on bacteria3 and primates-chr12");
  if (hasSharedData) {
    await compileRelease(resolve(ROOT, "test/fixtures/bacteria3.release.json"), resolve(OUT, "bacteria3"));
    await compileRelease(resolve(ROOT, "test/fixtures/primates-chr12.release.json"), resolve(OUT, "primates"));
  }
}
