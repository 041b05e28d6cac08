/**
 * A command run as a child process while its peak resident set and its scratch disk are
 * measured: the kernel's high-water mark (VmHWM) of the process, read every 100 ms, and the
 * process's own report of its peak (the compile CLI prints it last), whichever is larger; the
 * largest the compile's scratch folder (`<out>.scratch-<pid>`, the row engine's database and
 * spill files) grew, in bytes allocated on disk, read every second.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface MeasuredRun {
  code: number;
  /** stdout and stderr, interleaved. */
  output: string;
  seconds: number;
  peakKb: number;
  /** Largest size of the scratch folder, when `scratchOf` was given. */
  peakScratchBytes: number;
}

export function runMeasured(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; scratchOf?: (pid: number) => string; echo?: (line: string) => void },
): Promise<MeasuredRun> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    let peakKb = 0;
    let peakScratchBytes = 0;
    const take = (d: Buffer) => {
      output += d;
      if (options.echo) for (const line of String(d).split("\n")) if (line.trim()) options.echo(line.replace(/^.*\r/, ""));
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const memory = setInterval(() => {
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // the process has just ended
      }
    }, 100);
    const disk = options.scratchOf
      ? setInterval(() => {
          peakScratchBytes = Math.max(peakScratchBytes, allocatedBytes(options.scratchOf!(child.pid!)));
        }, 1000)
      : undefined;
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(memory);
      clearInterval(disk);
      const reported = /peak RSS (\d+) MB/.exec(output);
      if (reported) peakKb = Math.max(peakKb, Number(reported[1]) * 1024);
      done({ code: code ?? 1, output, seconds: (performance.now() - started) / 1000, peakKb, peakScratchBytes });
    });
  });
}

/** Bytes a folder's files take on disk (allocated blocks, so sparse files count what they use). */
function allocatedBytes(path: string): number {
  if (!existsSync(path)) return 0;
  let total = 0;
  try {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      const full = join(path, entry.name);
      total += entry.isDirectory() ? allocatedBytes(full) : statSync(full).blocks * 512;
    }
  } catch {
    // a file went away while it was counted
  }
  return total;
}
