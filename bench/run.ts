/**
 * `npm run bench`: runs the benchmarks and writes BENCHMARKS.md with the machine, the
 * versions and the command. Figures on a shared machine are noisy: compare ratios measured
 * in one run rather than absolute times across runs. The `## Soak` section belongs to
 * `npm run soak` and is kept as it is.
 *
 * `npm run bench -- --only compile,serve,formats,at-scale,search,downloads,scale,costs` runs some sections and keeps the others'
 * figures from the file (scale alone reprojects the release the last compile run kept; costs
 * prices the sections as they stand, see costs.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ensureDemoRelease } from "../release-compiler/local/start.js";
import { compileBenchmark, LARGEST, type CompileBenchmark } from "./compile.js";
import { costsSection } from "./costs.js";
import { downloadsBenchmark } from "./downloads.js";
import { atScaleBenchmark } from "./at-scale.js";
import { formatsBenchmark } from "./formats.js";
import { machineLine } from "./load.js";
import { scaleProjection } from "./scale.js";
import { searchBenchmark } from "./search.js";
import { serveBenchmark } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "..");
const FILE = resolve(ROOT, "BENCHMARKS.md");
const SECTIONS = ["compile", "serve", "formats", "at-scale", "search", "downloads", "scale", "costs"] as const;
const TITLES = { targets: "Targets", compile: "Compile", serve: "Serve", formats: "Format 3 and 4", "at-scale": "At 2,500 genomes", search: "Search", downloads: "Downloads", scale: "Scale on paper", costs: "Costs", soak: "Soak" };

/**
 * The issue's targets and, where one is missed, its cause. The verdicts and figures are in the
 * sections below; this reading of them is written by hand and names the tables to check it by.
 */
const TARGETS = `- **Compile within 4 GB at 1,000,000 proteins**: see Compile (peak RSS of the 1M compile, and the growth exponents).
- **Warm throughput ≥ 0.7× the floor**: see Serve. A repeated GET is an edge-cache hit and a repeated bulk retrieve or SOAP call a body-keyed hit, so a warm answer costs what the floor's does: one read of a stored answer.
- **Blob reads**: every single-record family ≤ 3 cold and 0 warm, every list page ≤ 2 + the shards it spans (Serve, and asserted by test/e2e/blob-reads.test.ts).
- **Edge caching**: answers in the Cache API keyed by release, URL, \`Accept\` and public origin (POST bulk and SOAP also by body), \`ETag\` and \`304\`, immutable blobs in an isolate cache bounded at 64 MB of decoded heap (test/e2e/edge.test.ts, test/e2e/blob-cache.test.ts).
- **Cold p99 ≤ 2× the floor: not met.** A cold answer is assembled from 2–11 blob reads of 80–300 kB (protein shards of 512 rows, sequence shards of 128 with their cDNA) where the floor reads one finished answer; Miniflare's local R2 charges each read several milliseconds whatever its size, on 2 cores shared with the load generator. The tail is the answers that are large by request (pages of 5,000 rows, 2 MB of JSON; bulk retrieve of 1,000 ids, 45–55 blobs) and a fresh isolate's first requests, which pay for compiling the bundle. What would close it: smaller record shards (more blobs, fewer bytes a cold read), blobs kept in the data centre's Cache API so that a new isolate in a warm data centre skips R2, and pre-rendered first pages of the largest lists.
- **CPU < 10 ms at p99 (sequence search exempt): met at p50 by every family but the large-by-request ones; not met at p99.** Single records take 1–5 ms cold and under 1 ms warm; their p99 above 10 ms are garbage collections landing in one request of the in-process harness on a loaded machine. Not met by design of the request: pages of 5,000 rows (35–60 ms), bulk retrieve of 1,000 ids (55–130 ms) and, cold, SOAP MapIDs of 20 ids (33 shards decoded, ~50 ms). Rendering costs ~25 ms per MB of JSON, so 10 ms holds pages of up to ~1,000 rows; larger answers need the paid plan's CPU limit, and the edge cache answers their repeats without rendering.
- **The slowest family, profiled and fixed**: approximate sequence search (Search): one Smith-Waterman pass that scores and records the traceback, and k-mer shards decoded only for the wanted k-mer, cut its CPU by a third with byte-identical results.`;

/** The sections of the current BENCHMARKS.md by title (`## Title` up to the next `## `). */
function sectionsOnFile(): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(FILE)) return out;
  const parts = readFileSync(FILE, "utf8").split(/^(?=## )/m);
  for (const part of parts.slice(1)) out.set(part.slice(3, part.indexOf("\n")).trim(), part.trimEnd());
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: "string" } }, strict: true });
  const only = new Set((values.only ?? "compile,serve,formats,at-scale,search,downloads,costs").split(",").map((s) => s.trim()));
  for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section ${name} (${SECTIONS.join(", ")})`);
  const log = (line: string) => console.log(`[bench] ${line}`);
  const started = new Date();
  const kept = sectionsOnFile();
  const body = new Map<string, string>([[TITLES.targets, TARGETS]]);

  if (only.has("compile")) {
    const compile = await compileBenchmark(log);
    body.set(TITLES.compile, compile.markdown);
    body.set(TITLES.scale, await scaleProjection(compile.largest.dir, compile.largest));
  }
  else if (only.has("scale")) {
    // The projection alone, from the largest release the last compile benchmark kept.
    if (!existsSync(LARGEST)) throw new Error(`${LARGEST} is missing: run npm run bench -- --only compile first`);
    const largest = JSON.parse(readFileSync(LARGEST, "utf8")) as CompileBenchmark["largest"];
    body.set(TITLES.scale, await scaleProjection(largest.dir, largest));
  }
  if (only.has("serve")) body.set(TITLES.serve, await serveBenchmark(log));
  if (only.has("formats")) body.set(TITLES.formats, await formatsBenchmark(log, {}, body.get(TITLES.serve)));
  if (only.has("at-scale")) body.set(TITLES["at-scale"], await atScaleBenchmark(log));
  if (only.has("downloads")) body.set(TITLES.downloads, await downloadsBenchmark(log));
  if (only.has("search")) body.set(TITLES.search, await searchBenchmark({ genomes: 25, families: 1500, seed: 5, queries: 100 }, log));

  const section = (title: string) => (body.has(title) ? `## ${title}\n\n${body.get(title)}` : kept.get(title));
  if (only.has("costs")) {
    // From the sections as they now stand (this run's or the file's), and the demo as npm start builds it.
    const current = new Map(Object.values(TITLES).flatMap((t) => (section(t) ? [[t, section(t)!] as [string, string]] : [])));
    const costs = await costsSection(current, await ensureDemoRelease());
    body.set(TITLES.costs, costs.slice(costs.indexOf("\n") + 1).trimStart());
  }
  const text = [
    "# Benchmarks",
    "",
    `Written by \`npm run bench${values.only ? ` -- --only ${values.only}` : ""}\` on ${started.toISOString().slice(0, 10)} (sections not run keep their earlier figures; \`## Soak\` is written by \`npm run soak\`).`,
    "",
    `${machineLine()} Compare the ratios measured within one run.`,
    "",
    ...Object.values(TITLES)
      .map(section)
      .filter((s): s is string => s !== undefined)
      .flatMap((s) => [s, ""]),
  ].join("\n");
  writeFileSync(FILE, text);
  log("BENCHMARKS.md written");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
