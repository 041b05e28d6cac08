/**
 * `npm run bench`: runs the benchmarks and writes BENCHMARKS.md with the machine, the
 * versions and the command. Figures on a shared machine are noisy: compare ratios measured
 * in one run rather than absolute times across runs. The `## Soak` section belongs to
 * `npm run soak` and is kept as it is.
 *
 * `npm run bench -- --only compile,workflow,serve,formats,at-scale,search,downloads,scale,costs` runs some sections and keeps the others'
 * figures from the file (scale alone reprojects the release the last compile run kept; costs
 * prices the sections as they stand, see costs.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ensureDemoRelease } from "../release-compiler/local/start.js";
import { compileBenchmark, LARGEST, type CompileBenchmark } from "./compile.js";
import { workflowBenchmark } from "./workflow.js";
import { costsSection } from "./costs.js";
import { downloadsBenchmark } from "./downloads.js";
import { atScaleBasis, atScaleBenchmark } from "./at-scale.js";
import { formatsBenchmark } from "./formats.js";
import { machineLine } from "./load.js";
import { scaleProjection } from "./scale.js";
import { searchBenchmark } from "./search.js";
import { serveBenchmark } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "..");
const FILE = resolve(ROOT, "BENCHMARKS.md");
const SECTIONS = ["compile", "workflow", "serve", "formats", "at-scale", "search", "downloads", "scale", "costs"] as const;
const TITLES = { targets: "Targets", compile: "Compile", workflow: "Compile as tasks", serve: "Serve", formats: "Format 3 and 4", "at-scale": "At 2,500 genomes", search: "Search", downloads: "Downloads", scale: "Scale on paper", costs: "Costs", soak: "Soak" };

/**
 * The issue's targets and, where one is missed, its cause. The verdicts and figures are in the
 * sections below; this reading of them is written by hand and names the tables to check it by.
 */
const TARGETS = `- **Format 4 against format 3** (Format 3 and 4: the previous commit's serve benchmark in a worktree, beside this one, in one run): cold bytes read per single record fell 5–10× (a protein by entry 301 → 34 kB, a HOG read 325 → 33 kB, a group 123 → 14 kB, SOAP MapIDs 2.0 MiB → 416 kB) and cold CPU with them; cold p99 of the single-record families went from 7.4× to 2.0× its floor, of the whole mix from 11.8× to 7.2×. Storage reads per record rose by one where an answer needs the sequences, whose tree is one level deeper than its root at 117k proteins (a protein by entry 2 → 3 reads).
- **Compile within 4 GB at 1,000,000 proteins: not met** (Compile, measured at 3950e0d; Compile as tasks, measured before the tasks ran side by side; At 2,500 genomes and Scale on paper, on this code). Over 100 genomes, \`npm run compile -- --jobs 2 --memory 2g\` compiled 1,022,299 proteins in 632 s at a peak RSS of 4.8 GB (Compile as tasks; 631 s and 5.8 GB at 3950e0d, \`--jobs 1\` there 770 s, the compiler before the engine 750 s). The compile is a chain of tasks whose finished outputs are kept in a work folder, named by a hash of their inputs: killed part-way and started again it finishes byte-identical, and the Snakemake workflow (\`snakemake --cores 2\`, each task a job) gives the same bytes in 571 s at 5.3 GB for all its processes. The relations and pairs are written in eight parts over runs of genomes, each a task (on a cluster a job) with packs of its own, put together by the relations task; the tasks a compile runs side by side take the hash of its inputs from it. The derive task reads each genome's proteome, cDNA and GFF on the worker threads, a genome a task taken in genome order; its workers parse and build the HOG families from runs of whole top-level groups cut from the orthoXML, taken back in document order (a run with a problem, and the file is read again on one thread, so the problems come as before); and its pair workers append the HOG families' pairs to the row engine themselves, each into a database file of its own that the relations parts read as one table (appending to DuckDB costs ~130 ns a row on the thread that calls it, and was the main thread's whole share of that stage). At 2,500 genomes (At 2,500 genomes) the compile took 21.6 min at 7.5 GB for all its processes (6.2 GB the run before; the derive process peaked at 4.0 GB both times, so the difference is in how the tasks side by side overlapped), the release byte-identical to the previous runs' (25.5 min with the HOGs on the main thread, 29.0 min before the genome files and pairs moved to workers; across runs, on a machine that ran the unchanged stages 10–25% faster this time): the HOGs 30.8 s with the main thread 51% busy (52.3 s at 100% before), and by hand at 1M proteins, one after the other in one process, 22.4 s against 28.5 s on one thread, the families equal. At 1M proteins, by hand, the genome files and pairs on workers (fac09c0) and the commit before it in worktrees, one after the other and byte-identical: 809 s against 775 s. Its derive task took 292 s against 311 s (the genome files 81 s against 120 s) while stages whose code did not change ran 10–30% slower in the second run; on two cores, whose threads the pair workers already kept busy, the whole compile shows no gain. Scale on paper projects from the 2,500-genome run: 2.6 h on one 64-core machine (3.1 h from the run before, 5.0 h before that), 1.9 h on a cluster (2.4 h), against 4 h; derive is 0.7 h of it (1.0 h), the HOGs 0.1 h (0.3 h), assuming 64 workers go as fast as two do (the disk keeping up); much of the rest of the drop is the machine's drift between the runs. The annotations (0.3 h) are now the derive task's largest stage left on its main thread. Issue "Compile at public-release scale" is not met: the throughput at 1M is not 3× on two cores; peak RSS is not flat (the derive task holds the protein table and the families, the writing tasks the columns they read beside the row engine's 2 GB); the 1M, workflow and growth benchmarks were not rerun on this code.
- **Warm throughput ≥ 0.7× the floor**: see Serve. A repeated GET is an edge-cache hit and a repeated bulk retrieve or SOAP call a body-keyed hit, so a warm answer costs what the floor's does: one read of a stored answer.
- **Storage reads, single records ≤ 3 cold and 0 warm, ≤ 64 kB + 2 × the answer: met on the test releases** (test/e2e/blob-reads.test.ts), where every tree is at depth 1; at 117k proteins (Serve) 21 of 24 single-record families, a protein by canonical or cross-reference id and SOAP GetEntry reading 4. **Not met at a million proteins** (At 2,500 genomes): a tree whose chunks outgrow its root (4,096 entries, 64 MB) pays one directory page per level, cold, for every table an answer reads: a protein reads 4 ranges, by canonical id 6, orthologs 6; bytes stay within the budget but for the rows of very wide families (a family row is one chunk: 1.4 MiB for 12,209 members), which a HOG read decodes whole. FORMAT.md, "Chunk sizes and depth", gives the arithmetic and the next step (a protein's sequence with its row, an id's entry pointing at its chunk).
- **Edge caching**: answers in the Cache API keyed by release, URL, \`Accept\` and public origin (POST bulk and SOAP also by body), \`ETag\` and \`304\`, download files served by byte range from the cache, immutable chunks in an isolate cache bounded at 64 MB of decoded heap (test/e2e/edge.test.ts, test/e2e/blob-cache.test.ts, test/e2e/downloads.test.ts).
- **Cold p99 ≤ 2× the floor: met by the single-record families (2.03×, borderline), not by the whole mix (7.2×)** (Serve). A cold answer is still 2–4 range reads where the floor makes one, and Miniflare's local R2 charges each read a few milliseconds whatever its size, on 2 cores shared with the load generator; the tail is the answers large by request (pages of 5,000 rows, bulk retrieve of 1,000 ids, sequence search) and a fresh isolate's first request (the header, ~0.5 MB at 117k proteins).
- **CPU < 10 ms at p99 (sequence search exempt)**: single records 0.7–2.6 ms cold at p50 (format 3: 0.5–5.8 ms), under 1 ms warm; p99 above 10 ms for some families are garbage collections of the in-process harness on a loaded machine. Not met by design of the request: pages of 5,000 rows and bulk retrieve of 1,000 ids (Serve); rendering costs ~25 ms per MB of JSON.
- **The slowest family, profiled and fixed**: approximate sequence search (Search): one Smith-Waterman pass that scores and records the traceback, and k-mer chunks decoded only for the wanted k-mer, cut its CPU by a third with byte-identical results.`;

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
  const only = new Set((values.only ?? "compile,workflow,serve,formats,at-scale,search,downloads,costs").split(",").map((s) => s.trim()));
  for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section ${name} (${SECTIONS.join(", ")})`);
  const log = (line: string) => console.log(`[bench] ${line}`);
  const started = new Date();
  const kept = sectionsOnFile();
  const body = new Map<string, string>([[TITLES.targets, TARGETS]]);

  let largest: CompileBenchmark["largest"] | undefined;
  if (only.has("compile")) {
    const compile = await compileBenchmark(log);
    body.set(TITLES.compile, compile.markdown);
    largest = compile.largest;
  }
  if (only.has("workflow")) body.set(TITLES.workflow, await workflowBenchmark(log));
  if (only.has("serve")) body.set(TITLES.serve, await serveBenchmark(log));
  if (only.has("formats")) body.set(TITLES.formats, await formatsBenchmark(log, {}, body.get(TITLES.serve)));
  if (only.has("at-scale")) body.set(TITLES["at-scale"], await atScaleBenchmark(log));
  if (only.has("compile") || only.has("scale") || only.has("at-scale")) {
    // The projection from the 2,500-genome release when it is built (the target's shape), else
    // from the largest release the compile benchmark kept (this run's, or the last one's).
    if (!largest && existsSync(LARGEST)) largest = JSON.parse(readFileSync(LARGEST, "utf8")) as CompileBenchmark["largest"];
    const basis = (await atScaleBasis()) ?? largest;
    if (!basis) throw new Error(`no release to project from: run npm run bench -- --only at-scale (or compile) first`);
    body.set(TITLES.scale, await scaleProjection(basis.dir, basis));
  }
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
