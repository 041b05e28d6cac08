/**
 * `npm run bench`: runs the benchmarks and writes BENCHMARKS.md with the machine, the
 * versions and the command. Figures on a shared machine are noisy: compare ratios measured
 * in one run rather than absolute times across runs.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { resolve } from "node:path";
import { searchBenchmark } from "./search.js";

const ROOT = resolve(import.meta.dirname, "..");

async function main(): Promise<void> {
  const log = (line: string) => console.log(`[bench] ${line}`);
  const started = new Date();
  const search = await searchBenchmark({ genomes: 25, families: 1500, seed: 5, queries: 100 }, log);
  const wrangler = execFileSync(resolve(ROOT, "node_modules/.bin/wrangler"), ["--version"], { encoding: "utf8", env: { ...process.env, WRANGLER_SEND_METRICS: "false" } }).trim();
  const text = [
    "# Benchmarks",
    "",
    `Written by \`npm run bench\` on ${started.toISOString().slice(0, 10)}.`,
    "",
    `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, shared and noisy; Node ${process.version}, wrangler ${wrangler}, the worker bundle on Miniflare over loopback.`,
    "",
    "## Search",
    "",
    search,
    "",
  ].join("\n");
  writeFileSync(resolve(ROOT, "BENCHMARKS.md"), text);
  log("BENCHMARKS.md written");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
