/**
 * Compile benchmark: simulated releases of about 10^5, 3·10^5 and 10^6 proteins over 100
 * genomes, each compiled by the CLI in a child process (`node --max-old-space-size=3584`, the
 * 4 GB budget) while its peak resident set is measured. Reports wall time, proteins per
 * second, peak RSS, output bytes (packs and manifest), packs, chunks (data chunks, directory
 * pages, the header), manifest and header bytes, the deepest tree, and how each grows with size.
 *
 * Simulated inputs are kept under build/bench/compile-input/ and reused when their settings
 * match; compiled releases go to build/bench/compile/ (with the compile's per-stage log beside
 * each), only the largest is kept (the scale projection reads it). `BENCH_COMPILE_QUICK=1` runs 20k and 60k proteins instead, to try it fast.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import { releaseSize } from "./release-size.js";

const ROOT = resolve(import.meta.dirname, "..");
const INPUTS = resolve(ROOT, "build/bench/compile-input");
const OUT = resolve(ROOT, "build/bench/compile");
const GENOMES = 100;
const SEED = 1;
/** The heap limit of the compile: the release must compile within 4 GB. */
const HEAP_MB = 3584;

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
  /** The compiled release. */
  dir: string;
  proteins: number;
  pairRows: number;
  seconds: number;
  peakRssMb: number;
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
  for (const size of sizes) {
    const input = await simulatedInput(size, log);
    if (results.length) rmSync(results[results.length - 1].dir, { recursive: true, force: true });
    results.push(await measureCompile(size, input, log));
  }
  const largest = { ...results[results.length - 1], peakBytes: results[results.length - 1].peakRssMb * 2 ** 20 };
  // What `npm run bench -- --only scale` projects from without compiling again.
  writeFileSync(LARGEST, `${JSON.stringify(largest, null, 1)}\n`);
  return { markdown: report(results), largest };
}

/** The simulated input of a size, simulated unless a folder with the same settings exists. */
async function simulatedInput(size: Size, log: (line: string) => void): Promise<string> {
  const settings = { genomes: GENOMES, families: size.families, seed: SEED };
  const dir = resolve(INPUTS, `g${GENOMES}-f${size.families}-s${SEED}`);
  const stamp = resolve(dir, "bench-settings.json");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === JSON.stringify(settings)) {
    log(`reusing ${dir}`);
    return dir;
  }
  log(`simulating ${GENOMES} genomes × ${size.families} families into ${dir}…`);
  rmSync(dir, { recursive: true, force: true });
  const args = ["--out", dir, "--genomes", String(GENOMES), "--families", String(size.families), "--seed", String(SEED)];
  const { code, output } = await run(process.execPath, ["--import", "tsx", resolve(ROOT, "release-compiler/simulate/cli.ts"), ...args]);
  if (code !== 0) throw new Error(`simulate failed (${code}):\n${output}`);
  writeFileSync(stamp, JSON.stringify(settings));
  return dir;
}

async function measureCompile(size: Size, input: string, log: (line: string) => void): Promise<Measurement> {
  const out = resolve(OUT, size.label);
  rmSync(out, { recursive: true, force: true });
  log(`compiling ${size.label} (${input})…`);
  const started = performance.now();
  const cli = [resolve(ROOT, "release-compiler/cli.ts"), "--config", resolve(input, "release.json"), "--out", out, "--verbose"];
  const { code, output, peakKb } = await run(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", ...cli], { measurePeak: true });
  const seconds = (performance.now() - started) / 1000;
  // The compile's own log: time, heap and RSS after each stage.
  writeFileSync(`${out}.log`, output);
  if (code !== 0) throw new Error(`compile of ${size.label} failed (${code}):\n${output}`);
  const release = await openReleaseFolder(out);
  const { manifest } = release;
  const folder = await releaseSize(out, release);
  const m: Measurement = {
    label: size.label,
    dir: out,
    proteins: manifest.counts.proteins,
    pairRows: manifest.tables.pairs.rows,
    seconds,
    peakRssMb: peakKb / 1024,
    bytes: folder.bytes,
    packs: folder.packs,
    chunks: folder.chunks,
    manifestBytes: folder.manifestBytes,
    headerBytes: folder.headerBytes,
    maxDepth: folder.maxDepth,
  };
  log(
    `${size.label}: ${m.proteins} proteins in ${seconds.toFixed(0)} s, peak RSS ${m.peakRssMb.toFixed(0)} MB, ${(m.bytes / 1e6).toFixed(0)} MB in ${m.packs} packs (${m.chunks} chunks, trees up to depth ${m.maxDepth})`,
  );
  return m;
}

/**
 * Runs a command; with `measurePeak`, its peak resident set in kB: the kernel's high-water
 * mark (VmHWM) of the process, read every 100 ms while it runs, and the process's own
 * report of its peak (the compile CLI prints it last), whichever is larger.
 */
function run(command: string, args: string[], options: { measurePeak?: boolean } = {}): Promise<{ code: number; output: string; peakKb: number }> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let peakKb = 0;
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const poll = options.measurePeak
      ? setInterval(() => {
          try {
            const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
            if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
          } catch {
            // the process has just ended
          }
        }, 100)
      : undefined;
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(poll);
      const reported = /peak RSS (\d+) MB/.exec(output);
      if (reported) peakKb = Math.max(peakKb, Number(reported[1]) * 1024);
      done({ code: code ?? 1, output, peakKb });
    });
  });
}

function report(results: Measurement[]): string {
  const mb = (bytes: number) => (bytes / 1e6).toFixed(1);
  const lines = [
    `Simulated releases of ${GENOMES} genomes (seed ${SEED}), each compiled by \`npm run compile\` in a child process with \`node --max-old-space-size=${HEAP_MB}\`;`,
    "peak RSS is the child's resident high-water mark (VmHWM). Inputs are simulated once and reused; times include reading them.",
    "",
    "Output: the release folder (packs and manifest); chunks: every msgpack chunk of the packs (data chunks, directory pages, the header); depth: the deepest table or index tree (1 = its root page in the header lists its chunks).",
    "",
    "| proteins | wall | proteins/s | peak RSS | output | packs | chunks | manifest | header | depth |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...results.map(
      (m) =>
        `| ${m.proteins.toLocaleString("en-US")} (${m.label}) | ${m.seconds.toFixed(0)} s | ${(m.proteins / m.seconds).toFixed(0)} | ` +
        `${m.peakRssMb.toFixed(0)} MB | ${mb(m.bytes)} MB | ${m.packs.toLocaleString("en-US")} | ${m.chunks.toLocaleString("en-US")} | ${m.manifestBytes} B | ${(m.headerBytes / 1e3).toFixed(1)} kB | ${m.maxDepth} |`,
    ),
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
