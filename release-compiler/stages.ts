/**
 * The compile's stage lines: each finished stage logs one line with its time (and, verbose, the
 * heap in use, the resident set and its peak so far, how busy the main thread was: its
 * event loop's utilization, the share of the stage that worker threads and the row engine's
 * threads cannot take over as it stands; and the CPU time the process spent on it, on all its
 * threads, which is what a stage costs on a machine whose cores are all busy); a long stage also draws a live progress
 * bar (progress.ts) on a terminal, cleared before its line is logged.
 */
import { statSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createProgress, silentProgress, type Stage } from "./progress.js";

export interface Stages {
  /** Ends the current stage with its line. */
  done(name: string): void;
  /** A bar for the current stage: `total` units of work; call the result with how many are done. */
  progress(label: string, total: number, unit: string): (done: number) => void;
}

export interface StageOptions {
  log?: (line: string) => void;
  /** Add heap and resident set figures to each line. */
  memory?: boolean;
  /** Where live bars go (when it is a TTY). */
  terminal?: NodeJS.WriteStream;
}

/** A stage line as `done` writes it; the figures in brackets come with `memory`. */
export interface StageLine {
  name: string;
  seconds: number;
  heapMb?: number;
  rssMb?: number;
  peakMb?: number;
  /** Share of the stage's time the main thread was busy (0–1). */
  mainBusy?: number;
  /** CPU seconds of the process (all its threads, user and system) during the stage. */
  cpuSeconds?: number;
}

const STAGE_LINE = /^(.+): (\d+\.\d) s(?: \(heap (\d+) MB, RSS (\d+) MB, peak (\d+) MB(?:, main thread (\d+)% busy)?(?:, CPU (\d+\.\d) s)?\))?$/gm;

/** The line derive's stages end with: what the tasks after it grow with (tasks.ts, derivedScale), for a projection to read back. */
export const derivedLine = ({ bytes, genomes }: { bytes: number; genomes: number }): string => `the derived release: ${bytes} bytes in its files, ${genomes} genomes`;
const DERIVED_LINE = /^the derived release: (\d+) bytes in its files, (\d+) genomes$/m;

/** The scale derivedLine gave in a compile's output or log, if it has one. */
export function readDerivedLine(output: string): { bytes: number; genomes: number } | undefined {
  const match = DERIVED_LINE.exec(output);
  return match ? { bytes: Number(match[1]), genomes: Number(match[2]) } : undefined;
}

/** The stage lines of a compile's output or log, in order (what benchmarks read back). */
export function readStageLines(output: string): StageLine[] {
  return [...output.matchAll(STAGE_LINE)].map(([, name, seconds, heap, rss, peak, busy, cpu]) => ({
    name,
    seconds: Number(seconds),
    ...(heap !== undefined ? { heapMb: Number(heap), rssMb: Number(rss), peakMb: Number(peak) } : {}),
    ...(busy !== undefined ? { mainBusy: Number(busy) / 100 } : {}),
    ...(cpu !== undefined ? { cpuSeconds: Number(cpu) } : {}),
  }));
}

export function stageReporter({ log, memory = false, terminal }: StageOptions): Stages {
  const bars = terminal ? createProgress(() => {}, terminal) : silentProgress;
  let bar: Stage | undefined;
  let last = performance.now();
  let loop = performance.eventLoopUtilization();
  let cpu = process.cpuUsage();
  return {
    done(name) {
      bar?.done("");
      bar = undefined;
      const now = performance.now();
      let line = `${name}: ${((now - last) / 1000).toFixed(1)} s`;
      if (memory) {
        const busy = performance.eventLoopUtilization(loop).utilization;
        // With `node --expose-gc`, the heap figure is what is live, not what awaits collection.
        (globalThis as { gc?: () => void }).gc?.();
        const { heapUsed, rss } = process.memoryUsage();
        const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
        const peak = process.resourceUsage().maxRSS * 1024;
        const used = process.cpuUsage(cpu);
        const cpuSeconds = (used.user + used.system) / 1e6;
        line += ` (heap ${mb(heapUsed)} MB, RSS ${mb(rss)} MB, peak ${mb(peak)} MB, main thread ${(busy * 100).toFixed(0)}% busy, CPU ${cpuSeconds.toFixed(1)} s)`; // as STAGE_LINE reads it
      }
      log?.(line);
      last = now;
      loop = performance.eventLoopUtilization();
      cpu = process.cpuUsage();
    },
    progress(label, total, unit) {
      bar?.done("");
      const current = bars.stage(label, { items: total, unit });
      bar = current;
      let reported = 0;
      return (done) => {
        current.advance(done - reported);
        reported = done;
      };
    },
  };
}

/**
 * A bar over the bytes of input files read one after the other (a pairs file, OrthoFinder's
 * orthologues: minutes at tens of millions of pairs), in MB: call the result with the file
 * being read and its bytes read so far.
 */
export function filesProgress(stages: Stages, label: string, paths: string[]): (path: string, bytes: number) => void {
  const sizes = new Map(paths.map((path) => [path, statSync(path, { throwIfNoEntry: false })?.size ?? 0]));
  const total = [...sizes.values()].reduce((sum, size) => sum + size, 0);
  const bar = stages.progress(label, Math.ceil(total / 1e6), "MB");
  let before = 0;
  let current: string | undefined;
  return (path, bytes) => {
    if (path !== current) {
      if (current !== undefined) before += sizes.get(current) ?? 0;
      current = path;
    }
    bar(Math.floor((before + bytes) / 1e6));
  };
}
