/**
 * Where the test setup writes the releases and worker bundle the tests serve:
 * `build/test/`, or the folder `ORTH_TEST_BUILD` names (so two test runs on one machine do
 * not rebuild each other's releases).
 */
import { resolve } from "node:path";

export const TEST_BUILD = resolve(import.meta.dirname, "..", process.env.ORTH_TEST_BUILD ?? "build/test");
