import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** The real input data beside the checkout (`../shared/data`); CI always has it. */
export const SHARED_DATA = resolve(import.meta.dirname, "../../shared/data");
export const hasSharedData = existsSync(resolve(SHARED_DATA, "primates-chr12"));

export function warnWithoutSharedData(what: string): void {
  if (!hasSharedData) console.warn(`../shared/data not found: skipping ${what}`);
}

/** A path inside the shared data folder. */
export const data = (...parts: string[]): string => join(SHARED_DATA, ...parts);
