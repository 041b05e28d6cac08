/**
 * The machine's own speed-up with two threads: what any program's `--jobs 2` can reach here.
 * The same fixed work is run on one worker thread alone and on two at once (each thread the
 * whole work), rounds alternating which goes first; the speed-up is 2 × alone / two at once
 * (2 where two threads each run as fast as one alone). A virtual machine's two vCPUs may be two
 * hyperthreads of one core, or share their core with other machines' work, so the compile's
 * speed-up with jobs (Compile) is read against this, measured in the same run.
 *
 * Two kernels, each a few seconds of one thread: `table`, integer hashing into an 8 MB table
 * (arithmetic and cache misses, as the k-mer and gram tables); `text`, lines cut into fields and
 * looked up in a Map of 200,000 ids, allocating strings the collector frees (as the readers).
 */
import { Worker } from "node:worker_threads";
import { performance } from "node:perf_hooks";
import { quantile } from "./load.js";

const KERNELS = {
  table: `
    const a = new Int32Array(2 << 20);
    let h = 1;
    for (let i = 0; i < 2e8; i++) { h = Math.imul(h ^ i, 0x9e3779b1); a[h >>> 11] += 1; }
    return a[5];`,
  text: `
    const ids = new Map();
    for (let i = 0; i < 200000; i++) ids.set("SIMHUMANP" + String(i).padStart(6, "0"), i);
    let found = 0;
    for (let i = 0; i < 1.5e6; i++) {
      const line = "SIMHUMANP" + String((i * 7919) % 400000).padStart(6, "0") + "\\tGene Name\\tSIMF" + i;
      const cols = line.split("\\t");
      if (ids.has(cols[0])) found += cols[2].length;
    }
    return found;`,
} as const;
export type Kernel = keyof typeof KERNELS;

/** Runs `kernel` on `threads` worker threads at once; resolves with the wall time until the last finishes (ms). */
async function runAtOnce(kernel: Kernel, threads: number): Promise<number> {
  const body = `const { parentPort } = require("node:worker_threads"); parentPort.once("message", () => { const run = () => {${KERNELS[kernel]}}; parentPort.postMessage(run()); });`;
  const workers = Array.from({ length: threads }, () => new Worker(body, { eval: true }));
  try {
    // Started, then told to go together, so thread start-up is not timed.
    await Promise.all(workers.map((w) => new Promise((ready) => w.once("online", ready))));
    const started = performance.now();
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((done, fail) => {
            w.once("message", () => done());
            w.once("error", fail);
            w.postMessage("go");
          }),
      ),
    );
    return performance.now() - started;
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

export interface CoreScaling {
  kernel: Kernel;
  /** Wall time of the work on one thread alone, and on each of two at once, per round (ms). */
  alone: number[];
  two: number[];
  /** 2 × alone / two of each round, and their median (the lower middle one of an even count). */
  speedups: number[];
  median: number;
}

/** The two-thread speed-up of each kernel over `rounds` rounds. */
export async function coreScaling(rounds = 7, log: (line: string) => void = () => {}): Promise<CoreScaling[]> {
  const out: CoreScaling[] = [];
  for (const kernel of Object.keys(KERNELS) as Kernel[]) {
    const alone: number[] = [];
    const two: number[] = [];
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        alone.push(await runAtOnce(kernel, 1));
        two.push(await runAtOnce(kernel, 2));
      } else {
        two.push(await runAtOnce(kernel, 2));
        alone.push(await runAtOnce(kernel, 1));
      }
      log(`two cores, ${kernel} round ${r + 1}/${rounds}: alone ${alone[r].toFixed(0)} ms, two at once ${two[r].toFixed(0)} ms`);
    }
    const speedups = alone.map((a, r) => (2 * a) / two[r]);
    out.push({ kernel, alone, two, speedups, median: quantile(speedups, 0.5) });
  }
  return out;
}

/** The figures as a markdown table, one row a kernel. */
export function coreScalingTable(figures: CoreScaling[]): string {
  const ms = (xs: number[]) => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
  return [
    "| kernel | rounds | one thread alone, ms | each of two at once, ms | speed-up, median (range) |",
    "|---|---|---|---|---|",
    ...figures.map((f) => `| ${f.kernel} | ${f.alone.length} | ${ms(f.alone)} | ${ms(f.two)} | ×${f.median.toFixed(2)} (${Math.min(...f.speedups).toFixed(2)}–${Math.max(...f.speedups).toFixed(2)}) |`),
  ].join("\n");
}

/** The section `npm run bench -- --only cores` writes. */
export async function coresBenchmark(log: (line: string) => void): Promise<string> {
  const figures = await coreScaling(7, log);
  return [
    "What two threads of this machine give against one, the same fixed work on one worker thread alone and on two at once (bench/cores.ts), rounds alternating which goes first. ×2.00 would be two cores that each run as fast as one alone; the compile's speed-up with `--jobs 2` (Compile) is bounded by what this machine's two threads give the kinds of work it does, between these.",
    "",
    coreScalingTable(figures),
    "",
    "`table`: integer hashing into an 8 MB table; `text`: lines cut into fields and looked up in a Map of 200,000 ids, allocating strings for the collector.",
  ].join("\n");
}
