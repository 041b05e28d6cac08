/**
 * `npm run export-oma -- --release DIR --out DIR`: writes a compiled
 * release as OMA Browser bulk files (export.ts).
 */
import { exportOmaFiles } from "./export.js";

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const release = arg("--release");
const out = arg("--out");
if (!release || !out) {
  console.error("usage: export-oma --release DIR --out DIR");
  process.exit(2);
}
const { files } = await exportOmaFiles(release, out);
console.log(`wrote ${files.length} files to ${out}: ${files.join(", ")}`);
