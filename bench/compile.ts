/**
 * Compile benchmark: simulated releases of about 10^5, 3·10^5 and 10^6 proteins over 100
 * genomes, each compiled by the CLI in a child process (`node --max-old-space-size=3584`)
 * with `--jobs 2 --memory 4g` (the 4 GB budget) while the peak resident set of its processes
 * together and its scratch disk are measured (measured-run.ts); the largest also with `--jobs 1`,
 * with `--jobs 2` and twice the budget (what the budget costs), and with the compiler before
 * the row engine (commit ENGINE_BEFORE, one thread and hand-written spill files, checked out in
 * a git worktree), side by side. Reports wall time, proteins per second, peak RSS, temp disk,
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
const BEFORE_CHECKOUT = resolve(ROOT, "build/bench/before-engine");

/** Who compiles: this checkout with `--jobs N`, or the commit before the engine. */
type Compiler = { jobs: number; memory?: string } | "before";

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
  /** `jobs 2`, `jobs 1`, `jobs 2, 8g` or `before`. */
  compiler: string;
  /** The `--memory` it compiled within (none for the compiler before the engine). */
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
  // The largest again, side by side: one job, and the compiler before the engine (each into its own folder, compared, removed).
  const sideBySide: Measurement[] = [largest];
  const same: boolean[] = [];
  for (const compiler of [{ jobs: 1 }, { jobs: 2, memory: AMPLE_MEMORY }, "before"] as const) {
    const m = await measureCompile(largestSize, input, compiler, log);
    same.push(sameRelease(largest.dir, m.dir));
    rmSync(m.dir, { recursive: true, force: true });
    sideBySide.push(m);
  }
  return { markdown: `${report(results, sideBySide, same)}\n\n${await alignJobsBenchmark(log)}`, largest };
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
  const name = compiler === "before" ? "before" : `jobs ${compiler.jobs}${compiler.memory ? `, ${compiler.memory}` : ""}`;
  const out = resolve(OUT, compiler === "before" || compiler.jobs !== 2 || compiler.memory ? `${size.label}-${name.replace(/[ ,]/g, "")}` : size.label);
  rmSync(out, { recursive: true, force: true });
  log(`compiling ${size.label} (${input}), ${name}…`);
  const cwd = compiler === "before" ? beforeCheckout(log) : ROOT;
  // The compiler before the engine had no budget: `--memory` was what its spill files held.
  const flags = compiler === "before" ? [] : ["--jobs", String(compiler.jobs), "--memory", compiler.memory ?? MEMORY];
  const cli = [resolve(cwd, "release-compiler/cli.ts"), "--config", resolve(input, "release.json"), "--out", out, "--verbose", ...flags];
  const run = await runMeasured(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", ...cli], { cwd, tree: true, scratchOf: (pid) => compileScratch(out, pid) });
  // The compile's own log: time, heap and RSS after each stage.
  writeFileSync(`${out}.log`, run.output);
  if (run.code !== 0) throw new Error(`compile of ${size.label} (${name}) failed (${run.code}):\n${run.output}`);
  // The compiler before the engine writes an older format, which this code's reader refuses: sized from its files alone.
  const { proteins, pairRows, ...folder } = compiler === "before" ? formatFreeSize(out) : await currentSize(out);
  const m: Measurement = {
    label: size.label,
    compiler: name,
    ...(compiler === "before" ? {} : { memory: compiler.memory ?? MEMORY }),
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

/** A worktree of ENGINE_BEFORE sharing this checkout's node_modules (it needs none that this one lacks). */
function beforeCheckout(log: (line: string) => void): string {
  if (!existsSync(resolve(BEFORE_CHECKOUT, "release-compiler/cli.ts"))) {
    log(`checking out the compiler before the engine (${ENGINE_BEFORE.slice(0, 7)}) in ${BEFORE_CHECKOUT}…`);
    mkdirSync(resolve(BEFORE_CHECKOUT, ".."), { recursive: true });
    execFileSync("git", ["worktree", "add", "--force", "--detach", BEFORE_CHECKOUT, ENGINE_BEFORE], { cwd: ROOT, stdio: "pipe" });
  }
  if (!existsSync(resolve(BEFORE_CHECKOUT, "node_modules"))) symlinkSync(resolve(ROOT, "node_modules"), resolve(BEFORE_CHECKOUT, "node_modules"));
  return BEFORE_CHECKOUT;
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

/** Two release folders hold the same release: the same manifest bytes (which name the header by its hash, and so every chunk). */
function sameRelease(a: string, b: string): boolean {
  return readFileSync(resolve(a, "manifest.json")).equals(readFileSync(resolve(b, "manifest.json")));
}

function report(results: Measurement[], sideBySide: Measurement[], same: boolean[]): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  const row = (m: Measurement) =>
    `| ${m.proteins.toLocaleString("en-US")} (${m.label}) | ${m.compiler} | ${m.seconds.toFixed(0)} s | ${(m.proteins / m.seconds).toFixed(0)} | ` +
    `${m.peakRssMb.toFixed(0)} MB | ${mb(m.tempBytes)} MB | ${mb(m.bytes)} MB | ${m.packs.toLocaleString("en-US")} | ${Number.isNaN(m.chunks) ? "–" : m.chunks.toLocaleString("en-US")} | ${m.manifestBytes} B | ${(m.headerBytes / 1e3).toFixed(1)} kB | ${Number.isNaN(m.maxDepth) ? "–" : m.maxDepth} |`;
  const header = ["| proteins | compiler | wall | proteins/s | peak RSS | temp disk | output | packs | chunks | manifest | header | depth |", "|---|---|---|---|---|---|---|---|---|---|---|---|"];
  const [engine2, engine1, ample, before] = sideBySide;
  const lines = [
    `Simulated releases of ${GENOMES} genomes (seed ${SEED}), each compiled by \`npm run compile -- --jobs 2 --memory ${MEMORY}\` in a child process with \`node --max-old-space-size=${HEAP_MB}\`;`,
    "peak RSS is the resident sets of the compile's processes together (the compile and its tasks), sampled every 100 ms, or a process's own high-water mark (VmHWM) if higher; temp disk the largest its scratch folder grew (the row engine's database and spill files). Inputs are simulated once and reused; times include reading them.",
    "",
    "Output: the release folder (packs and manifest); chunks: every msgpack chunk of the packs (data chunks, directory pages, the header); depth: the deepest table or index tree (1 = its root page in the header lists its chunks).",
    "",
    ...header,
    ...results.map(row),
    "",
    `The largest side by side, one after the other: \`--jobs 2\`, \`--jobs 1\`, \`--jobs 2\` with \`--memory ${AMPLE_MEMORY}\`, and the compiler before the row engine (\`${ENGINE_BEFORE.slice(0, 7)}\` in a git worktree: one thread, hand-written spill files, each family's pairs held in a list; no budget). ` +
      `\`--jobs 1\` gives ${same[0] ? "a byte-identical release (the same manifest, which names every chunk by its hash)" : "a release that is NOT byte-identical"}, \`--memory ${AMPLE_MEMORY}\` ${same[1] ? "one byte-identical too" : "one that is NOT byte-identical"}; the compiler before the engine ${same[2] ? "one byte-identical too" : "one that differs (expected where the layout changed since: relations and pairs chunks end at each genome)"}.`,
    "",
    ...header,
    ...sideBySide.map(row),
    "",
    `Throughput against the compiler before the engine: ×${(before.seconds / engine2.seconds).toFixed(2)} with 2 jobs, ×${(before.seconds / engine1.seconds).toFixed(2)} with 1, ×${(before.seconds / ample.seconds).toFixed(2)} with 2 jobs and ${AMPLE_MEMORY}; 2 jobs against 1: ×${(engine1.seconds / engine2.seconds).toFixed(2)} within ${MEMORY}, ×${(engine1.seconds / ample.seconds).toFixed(2)} within ${AMPLE_MEMORY}. Peak RSS against the budget: ${sideBySide.filter((m) => m.memory).map((m) => `${m.compiler} ${((m.peakRssMb * 2 ** 20) / (parseInt(m.memory!, 10) * 2 ** 30)).toFixed(2)}`).join(", ")}.`,
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
