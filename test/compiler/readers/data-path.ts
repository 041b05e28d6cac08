/** The real release inputs live beside the checkout, at `../shared/data` (never copied into the repo). */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));

export const SHARED_DATA = path.resolve(here, "../../../../shared/data");
export const hasSharedData = existsSync(SHARED_DATA);

if (!hasSharedData) console.warn("../shared/data not found: skipping real-data tests");

/** A path inside the shared data folder. */
export const data = (...parts: string[]) => path.join(SHARED_DATA, ...parts);
