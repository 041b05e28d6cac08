/**
 * Compile benchmark: simulated releases of about 10^5, 3·10^5 and 10^6 proteins over 100
 * genomes, each compiled by the CLI in a child process (`node --max-old-space-size=3584`)
 * with `--jobs 2 --memory 4g` (the 4 GB budget) while the peak resident set of its processes
 * together and its scratch disk are measured (measured-run.ts); the largest also with `--jobs 1`,
 * with `--jobs 2` and twice the budget (what the budget costs), with the compiler before the
 * row engine (commit ENGINE_BEFORE, one thread and hand-written spill files) and with the
 * compiler as it was when the compile-at-scale issue was filed (commit AT_FILING, format 3: the
 * 968 s that issue sets its goal against), each checked out in a git worktree, side by side. Reports wall time, proteins per second, peak RSS, temp disk,
 * output bytes (packs and manifest), packs, chunks (data chunks, directory pages, the header),
 * manifest and header bytes, the deepest tree, and how each grows with size.
 *
 * Simulated inputs are kept under build/bench/compile-input/ and reused when their settings
 * match; compiled releases go to build/bench/compile/ (with the compile's per-stage log beside
 * each), only the largest is kept (the scale projection reads it). `BENCH_COMPILE_QUICK=1` runs 20k and 60k proteins instead, to try it fast.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Unpackr } from "msgpackr";
import { openReleaseFolder, readManifestFile } from "../release-compiler/local/folder-storage.js";
import { readStageLines } from "../release-compiler/stages.js";
import { COMPILER_NODE_FLAGS } from "../release-compiler/task-processes.js";
import { compileScratch, runMeasured } from "./measured-run.js";
import { coreScaling, type CoreScaling } from "./cores.js";
import { releaseSize } from "./release-size.js";

const ROOT = resolve(import.meta.dirname, "..");
const INPUTS = resolve(ROOT, "build/bench/compile-input");
const OUT = resolve(ROOT, "build/bench/compile");
const GENOMES = 100;
const SEED = 1;
/** The heap limit of the compile: the release must compile within 4 GB. */
const HEAP_MB = 3584;
/** The compile's memory budget (`--memory`): the release must compile within 4 GB. */
const MEMORY = "4g";
/** Twice the budget: what keeping to it costs in time. */
const AMPLE_MEMORY = "8g";
/** The last commit before the row engine (DuckDB) and the streamed family pairs: one thread, hand-written spill files. */
export const ENGINE_BEFORE = "c96f9005ff8fae4bcba645164825d54e804f4e71";
/** The compiler when "Compile at public-release scale" was filed (format 3; 968 s for the 1M release then). */
export const AT_FILING = "0c180b0d9c59e873ca4232ba53220be7cd39fb44";

/** Earlier compilers, each run from a worktree of its commit, with no flags (neither had a budget). */
const EARLIER = {
  before: { commit: ENGINE_BEFORE, checkout: resolve(ROOT, "build/bench/before-engine") },
  "at filing": { commit: AT_FILING, checkout: resolve(ROOT, "build/bench/at-filing") },
} as const;
type Earlier = keyof typeof EARLIER;

/** Who compiles: this checkout with `--jobs N`, or an earlier commit. */
type Compiler = { jobs: number; memory?: string } | Earlier;

interface Size {
  label: string;
  /** Families to simulate: proteins ≈ genomes × families × 1.1. */
  families: number;
}

const FULL: Size[] = [
  { label: "100k", families: 900 },
  { label: "300k", families: 2700 },
  { label: "1M", families: 9000 },
];
const QUICK: Size[] = [
  { label: "20k", families: 180 },
  { label: "60k", families: 540 },
];

interface Measurement {
  label: string;
  /** `jobs 2`, `jobs 1`, `jobs 2, 8g`, `before` or `at filing`. */
  compiler: string;
  /** The `--memory` it compiled within (none for the earlier compilers). */
  memory?: string;
  /** The compiled release. */
  dir: string;
  proteins: number;
  pairRows: number;
  seconds: number;
  peakRssMb: number;
  /** Largest size of the compile's scratch folder (engine database and spill files). */
  tempBytes: number;
  /** The release folder: packs and manifest. */
  bytes: number;
  packs: number;
  /** Data chunks, directory pages and the header. */
  chunks: number;
  manifestBytes: number;
  headerBytes: number;
  /** Depth of the deepest tree (1: the root in the header lists the chunks). */
  maxDepth: number;
}

/** The largest compile's measurement, kept beside its release. */
export const LARGEST = resolve(OUT, "largest.json");

export interface CompileBenchmark {
  markdown: string;
  /** The largest release compiled, kept in `dir`; `peakBytes` is its compile's peak RSS. */
  largest: Measurement & { peakBytes: number };
}

export async function compileBenchmark(log: (line: string) => void): Promise<CompileBenchmark> {
  const sizes = process.env.BENCH_COMPILE_QUICK ? QUICK : FULL;
  const results: Measurement[] = [];
  let input = "";
  for (const size of sizes) {
    input = await simulatedInput(size, log);
    if (results.length) rmSync(results[results.length - 1].dir, { recursive: true, force: true });
    results.push(await measureCompile(size, input, { jobs: 2 }, log));
  }
  const largestSize = sizes[sizes.length - 1];
  const largest = { ...results[results.length - 1], peakBytes: results[results.length - 1].peakRssMb * 2 ** 20 };
  // What `npm run bench -- --only scale` projects from without compiling again.
  writeFileSync(LARGEST, `${JSON.stringify(largest, null, 1)}\n`);
  // The largest again, side by side: one job, twice the budget, and the earlier compilers (each into its own folder, compared, removed).
  const sideBySide: Measurement[] = [largest];
  const same: boolean[] = [];
  // What two threads of this machine give at all, measured beside the compiles (bench/cores.ts).
  const cores = await coreScaling(5, log);
  for (const compiler of [{ jobs: 1 }, { jobs: 2, memory: AMPLE_MEMORY }, "before", "at filing"] as const) {
    const m = await measureCompile(largestSize, input, compiler, log);
    same.push(sameRelease(largest.dir, m.dir));
    rmSync(m.dir, { recursive: true, force: true });
    sideBySide.push(m);
  }
  return { markdown: `${report(results, sideBySide, same, cores)}\n\n${await alignJobsBenchmark(log)}`, largest };
}

/** The `--align-pairs` input: every pair is aligned, so a small release (~5k proteins) is work enough. */
const ALIGN_SIZE: Size = { label: "5k", families: 200 };
const ALIGN_GENOMES = 25;

/**
 * `--align-pairs` with 1 and 2 jobs on a small release: the alignments dominate such a compile
 * and run on the pair workers, so this shows what the jobs buy where the work is parallel today.
 */
export async function alignJobsBenchmark(log: (line: string) => void): Promise<string> {
  const size = ALIGN_SIZE;
  const input = await simulatedInput(size, log, ALIGN_GENOMES);
  const runs = [];
  for (const jobs of [1, 2]) {
    const out = resolve(OUT, `align-jobs${jobs}`);
    rmSync(out, { recursive: true, force: true });
    log(`compiling ${size.label} with --align-pairs, --jobs ${jobs}…`);
    const cli = [resolve(ROOT, "release-compiler/cli.ts"), "--config", resolve(input, "release.json"), "--out", out, "--align-pairs", "--jobs", String(jobs), "--memory", MEMORY];
    const run = await runMeasured(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...COMPILER_NODE_FLAGS, "--import", "tsx", ...cli], { cwd: ROOT });
    if (run.code !== 0) throw new Error(`aligned compile failed (${run.code}):\n${run.output}`);
    const stage = readStageLines(run.output).find((line) => line.name === "pairwise relations")?.seconds ?? NaN;
    runs.push({ jobs, seconds: run.seconds, stage, peakMb: run.peakKb / 1024, manifest: readFileSync(resolve(out, "manifest.json"), "utf8"), proteins: (await openReleaseFolder(out)).manifest.counts.proteins });
    log(`--align-pairs, --jobs ${jobs}: ${run.seconds.toFixed(0)} s (pairwise relations ${stage} s)`);
  }
  for (const jobs of [1, 2]) rmSync(resolve(OUT, `align-jobs${jobs}`), { recursive: true, force: true });
  const [one, two] = runs;
  return [
    `\`--align-pairs\` on ${one.proteins.toLocaleString("en-US")} proteins (${ALIGN_GENOMES} genomes, ${size.families} families, seed ${SEED}): the pairs are derived and aligned on the pair worker threads. The two releases are ${one.manifest === two.manifest ? "byte-identical" : "NOT byte-identical"}.`,
    "",
    "| jobs | wall | pairwise relations stage | peak RSS |",
    "|---|---|---|---|",
    ...runs.map((r) => `| ${r.jobs} | ${r.seconds.toFixed(0)} s | ${r.stage.toFixed(1)} s | ${r.peakMb.toFixed(0)} MB |`),
    "",
    `Speed-up with 2 jobs: ×${(one.seconds / two.seconds).toFixed(2)} the wall, ×${(one.stage / two.stage).toFixed(2)} the pairwise relations stage.`,
  ].join("\n");
}

/** The simulated input of a size, simulated unless a folder with the same settings exists. */
async function simulatedInput(size: Size, log: (line: string) => void, genomes = GENOMES): Promise<string> {
  const settings = { genomes, families: size.families, seed: SEED };
  const dir = resolve(INPUTS, `g${genomes}-f${size.families}-s${SEED}`);
  const stamp = resolve(dir, "bench-settings.json");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === JSON.stringify(settings)) {
    log(`reusing ${dir}`);
    return dir;
  }
  log(`simulating ${genomes} genomes × ${size.families} families into ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  const args = ["--out", dir, "--genomes", String(genomes), "--families", String(size.families), "--seed", String(SEED)];
  const { code, output } = await runMeasured(process.execPath, ["--import", "tsx", resolve(ROOT, "release-compiler/simulate/cli.ts"), ...args], { cwd: ROOT });
  if (code !== 0) throw new Error(`simulate failed (${code}):\n${output}`);
  writeFileSync(stamp, JSON.stringify(settings));
  return dir;
}

async function measureCompile(size: Size, input: string, compiler: Compiler, log: (line: string) => void): Promise<Measurement> {
  const earlier = typeof compiler === "string";
  const name = earlier ? compiler : `jobs ${compiler.jobs}${compiler.memory ? `, ${compiler.memory}` : ""}`;
  const out = resolve(OUT, earlier || compiler.jobs !== 2 || compiler.memory ? `${size.label}-${name.replace(/[ ,]/g, "")}` : size.label);
  rmSync(out, { recursive: true, force: true });
  log(`compiling ${size.label} (${input}), ${name}…`);
  const cwd = earlier ? earlierCheckout(compiler, log) : ROOT;
  // The earlier compilers had no budget: `--memory` was what their spill files held.
  const flags = earlier ? [] : ["--jobs", String(compiler.jobs), "--memory", compiler.memory ?? MEMORY];
  const cli = [resolve(cwd, "release-compiler/cli.ts"), "--config", resolve(input, "release.json"), "--out", out, "--verbose", ...flags];
  const run = await runMeasured(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", ...cli], { cwd, tree: true, scratchOf: (pid) => compileScratch(out, pid) });
  // The compile's own log: time, heap and RSS after each stage.
  writeFileSync(`${out}.log`, run.output);
  if (run.code !== 0) throw new Error(`compile of ${size.label} (${name}) failed (${run.code}):\n${run.output}`);
  // The earlier compilers write older formats, which this code's reader refuses: sized from their files alone.
  const { proteins, pairRows, ...folder } = compiler === "before" ? formatFreeSize(out) : compiler === "at filing" ? format3Size(out) : await currentSize(out);
  const m: Measurement = {
    label: size.label,
    compiler: name,
    ...(earlier ? {} : { memory: compiler.memory ?? MEMORY }),
    dir: out,
    proteins,
    pairRows,
    seconds: run.seconds,
    peakRssMb: run.peakKb / 1024,
    tempBytes: run.peakScratchBytes,
    bytes: folder.bytes,
    packs: folder.packs,
    chunks: folder.chunks,
    manifestBytes: folder.manifestBytes,
    headerBytes: folder.headerBytes,
    maxDepth: folder.maxDepth,
  };
  log(
    `${size.label} (${name}): ${m.proteins} proteins in ${m.seconds.toFixed(0)} s, peak RSS ${m.peakRssMb.toFixed(0)} MB, temp disk ${(m.tempBytes / 1e6).toFixed(0)} MB, ${(m.bytes / 1e6).toFixed(0)} MB in ${m.packs} packs (${m.chunks} chunks, trees up to depth ${m.maxDepth})`,
  );
  return m;
}

/** A worktree of an earlier compiler's commit sharing this checkout's node_modules (it needs none that this one lacks). */
function earlierCheckout(compiler: Earlier, log: (line: string) => void): string {
  const { commit, checkout } = EARLIER[compiler];
  if (!existsSync(resolve(checkout, "release-compiler/cli.ts"))) {
    log(`checking out the compiler ${compiler} (${commit.slice(0, 7)}) in ${checkout}…`);
    mkdirSync(resolve(checkout, ".."), { recursive: true });
    execFileSync("git", ["worktree", "add", "--force", "--detach", checkout, commit], { cwd: ROOT, stdio: "pipe" });
  }
  if (!existsSync(resolve(checkout, "node_modules"))) symlinkSync(resolve(ROOT, "node_modules"), resolve(checkout, "node_modules"));
  return checkout;
}

/** A release of this format: its trees walked (release-size.ts). */
async function currentSize(out: string) {
  const release = await openReleaseFolder(out);
  const size = await releaseSize(out, release);
  return { ...size, proteins: release.manifest.counts.proteins, pairRows: release.manifest.tables.pairs.rows };
}

/**
 * A release of any format since 4 from its files: the manifest (JSON, with the counts and the
 * header's ref) and the header (a msgpack chunk naming the tables), the packs from the folder.
 * Its chunks and depth are not counted (NaN): that needs its format's trees.
 */
export function formatFreeSize(out: string) {
  const file = readManifestFile(out) as unknown as { counts: { proteins: number }; header: [string, number, number, string] };
  const [pack, offset, length] = file.header;
  const header = new Unpackr({ useRecords: true }).unpack(readFileSync(resolve(out, "packs", `${pack}.pack`)).subarray(offset, offset + length)) as { tables: { pairs: { rows: number } } };
  const packs = readdirSync(resolve(out, "packs")).filter((f) => f.endsWith(".pack"));
  const manifestBytes = statSync(resolve(out, "manifest.json")).size;
  const packBytes = packs.reduce((n, f) => n + statSync(resolve(out, "packs", f)).size, 0);
  return { proteins: file.counts.proteins, pairRows: header.tables.pairs.rows, bytes: packBytes + manifestBytes, packs: packs.length, chunks: NaN, manifestBytes, headerBytes: length, maxDepth: NaN };
}

/**
 * A format-3 release from its files: the manifest (JSON listing every table's shards, with the
 * counts) and one file per blob. Its chunks are its blobs; it has no header and no trees.
 */
function format3Size(out: string) {
  const file = JSON.parse(readFileSync(resolve(out, "manifest.json"), "utf8")) as { counts: { proteins: number }; tables: { pairs: { rows: number } } };
  const blobs = readdirSync(resolve(out, "blobs"));
  const manifestBytes = statSync(resolve(out, "manifest.json")).size;
  const blobBytes = blobs.reduce((n, f) => n + statSync(resolve(out, "blobs", f)).size, 0);
  return { proteins: file.counts.proteins, pairRows: file.tables.pairs.rows, bytes: blobBytes + manifestBytes, packs: 0, chunks: blobs.length, manifestBytes, headerBytes: 0, maxDepth: NaN };
}

/** Two release folders hold the same release: the same manifest bytes (which name the header by its hash, and so every chunk). */
function sameRelease(a: string, b: string): boolean {
  return readFileSync(resolve(a, "manifest.json")).equals(readFileSync(resolve(b, "manifest.json")));
}

function report(results: Measurement[], sideBySide: Measurement[], same: boolean[], cores: CoreScaling[]): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  const row = (m: Measurement) =>
    `| ${m.proteins.toLocaleString("en-US")} (${m.label}) | ${m.compiler} | ${m.seconds.toFixed(0)} s | ${(m.proteins / m.seconds).toFixed(0)} | ` +
    `${m.peakRssMb.toFixed(0)} MB | ${mb(m.tempBytes)} MB | ${mb(m.bytes)} MB | ${m.packs ? m.packs.toLocaleString("en-US") : "–"} | ${Number.isNaN(m.chunks) ? "–" : m.chunks.toLocaleString("en-US")} | ${m.manifestBytes.toLocaleString("en-US")} B | ${m.headerBytes ? `${(m.headerBytes / 1e3).toFixed(1)} kB` : "–"} | ${Number.isNaN(m.maxDepth) ? "–" : m.maxDepth} |`;
  const header = ["| proteins | compiler | wall | proteins/s | peak RSS | temp disk | output | packs | chunks | manifest | header | depth |", "|---|---|---|---|---|---|---|---|---|---|---|---|"];
  const [engine2, engine1, ample, before, atFiling] = sideBySide;
  const lines = [
    `Simulated releases of ${GENOMES} genomes (seed ${SEED}), each compiled by \`npm run compile -- --jobs 2 --memory ${MEMORY}\` in a child process with \`node --max-old-space-size=${HEAP_MB}\`;`,
    "peak RSS is the resident sets of the compile's processes together (the compile and its tasks), sampled every 100 ms, or a process's own high-water mark (VmHWM) if higher; temp disk the largest its scratch folder grew (the row engine's database and spill files). Inputs are simulated once and reused; times include reading them.",
    "",
    "Output: the release folder (packs and manifest); chunks: every msgpack chunk of the packs (data chunks, directory pages, the header); depth: the deepest table or index tree (1 = its root page in the header lists its chunks).",
    "",
    ...header,
    ...results.map(row),
    "",
    `The largest side by side, one after the other: \`--jobs 2\`, \`--jobs 1\`, \`--jobs 2\` with \`--memory ${AMPLE_MEMORY}\`, the compiler before the row engine (\`${ENGINE_BEFORE.slice(0, 7)}\` in a git worktree: one thread, hand-written spill files, each family's pairs held in a list; no budget), and the compiler as it was when the compile-at-scale issue was filed (\`${AT_FILING.slice(0, 7)}\`, format 3: whole blobs listed in the manifest, one thread; chunks here are its blobs). ` +
      `\`--jobs 1\` gives ${same[0] ? "a byte-identical release (the same manifest, which names every chunk by its hash)" : "a release that is NOT byte-identical"}, \`--memory ${AMPLE_MEMORY}\` ${same[1] ? "one byte-identical too" : "one that is NOT byte-identical"}; the compiler before the engine ${same[2] ? "one byte-identical too" : "one that differs (expected where the layout changed since: relations and pairs chunks end at each genome)"}, the one at filing another format.`,
    "",
    ...header,
    ...sideBySide.map(row),
    "",
    `Throughput against the compiler at the issue's filing (the baseline its 3× goal names): ×${(atFiling.seconds / engine2.seconds).toFixed(2)} with 2 jobs, ×${(atFiling.seconds / engine1.seconds).toFixed(2)} with 1, ×${(atFiling.seconds / ample.seconds).toFixed(2)} with 2 jobs and ${AMPLE_MEMORY}. ` +
      `Against the compiler before the engine: ×${(before.seconds / engine2.seconds).toFixed(2)} with 2 jobs, ×${(before.seconds / engine1.seconds).toFixed(2)} with 1, ×${(before.seconds / ample.seconds).toFixed(2)} with 2 jobs and ${AMPLE_MEMORY}; 2 jobs against 1: ×${(engine1.seconds / engine2.seconds).toFixed(2)} within ${MEMORY}, ×${(engine1.seconds / ample.seconds).toFixed(2)} within ${AMPLE_MEMORY}, where this machine's two threads gave ${cores.map((c) => `×${c.median.toFixed(2)} (${c.kernel})`).join(" and ")} over fixed work in the same run (Two cores). Peak RSS against the budget: ${sideBySide.filter((m) => m.memory).map((m) => `${m.compiler} ${((m.peakRssMb * 2 ** 20) / (parseInt(m.memory!, 10) * 2 ** 30)).toFixed(2)}`).join(", ")}.`,
  ];
  if (results.length >= 2) {
    const metrics: Array<[string, (m: Measurement) => number]> = [
      ["wall time", (m) => m.seconds],
      ["peak RSS", (m) => m.peakRssMb],
      ["output bytes", (m) => m.bytes],
      ["packs", (m) => m.packs],
      ["chunks", (m) => m.chunks],
      ["manifest bytes", (m) => m.manifestBytes],
      ["header bytes", (m) => m.headerBytes],
    ];
    const steps = results.slice(1).map((m, i) => [results[i], m] as const);
    lines.push(
      "",
      "Growth with size: the ratio between consecutive sizes (proteins ratio in the header) and the exponent b of a",
      "least-squares fit metric ∝ proteins^b (1 = linear, 0 = flat).",
      "",
      `| metric | ${steps.map(([a, b]) => `${b.label}/${a.label} (×${(b.proteins / a.proteins).toFixed(2)})`).join(" | ")} | exponent b |`,
      `|---|${steps.map(() => "---|").join("")}---|`,
      ...metrics.map(([name, value]) => {
        const ratios = steps.map(([a, b]) => `×${(value(b) / value(a)).toFixed(2)}`);
        return `| ${name} | ${ratios.join(" | ")} | ${exponent(results.map((m) => m.proteins), results.map(value)).toFixed(2)} |`;
      }),
    );
  }
  return lines.join("\n");
}

/** Slope of log(y) against log(x), least squares. */
function exponent(x: number[], y: number[]): number {
  const lx = x.map(Math.log);
  const ly = y.map(Math.log);
  const mx = lx.reduce((a, b) => a + b, 0) / lx.length;
  const my = ly.reduce((a, b) => a + b, 0) / ly.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < lx.length; i++) {
    num += (lx[i] - mx) * (ly[i] - my);
    den += (lx[i] - mx) ** 2;
  }
  return den ? num / den : 0;
}
