/**
 * A command run as a child process while its peak resident set and its scratch disk are
 * measured: the kernel's high-water mark (VmHWM) of the process, read every 100 ms, and the
 * process's own report of its peak (the compile CLI prints it last), whichever is larger; the
 * largest the compile's scratch folders grew (`scratchOf`: its work folder's tasks and scratch,
 * the row engine's databases and spill files and the derived release, without the packs that
 * become the release), in bytes allocated on disk, read every second.
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
  /** Largest size of the scratch folders, when `scratchOf` was given. */
  peakScratchBytes: number;
}

export function runMeasured(
  command: string,
  args: string[],
  options: {
    cwd: string;
    env?: NodeJS.ProcessEnv;
    scratchOf?: (pid: number) => string[];
    echo?: (line: string) => void;
    /** Peak of the resident sets of the process and all its descendants together (a workflow's jobs, a compile's tasks side by side), sampled, or its own high-water mark if higher. */
    tree?: boolean;
  },
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
      // With `tree`, the process's own high-water mark too: it may peak between two samples.
      if (options.tree) peakKb = Math.max(peakKb, treeRssKb(child.pid!));
      try {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // the process has just ended
      }
    }, 100);
    const disk = options.scratchOf
      ? setInterval(() => {
          peakScratchBytes = Math.max(peakScratchBytes, options.scratchOf!(child.pid!).reduce((n, path) => n + allocatedBytes(path), 0));
        }, 1000)
      : undefined;
    child.on("error", fail);
    child.on("close", (code) => {
      clearInterval(memory);
      clearInterval(disk);
      const reported = /peak RSS (\d+) MB/.exec(output);
      if (reported && !options.tree) peakKb = Math.max(peakKb, Number(reported[1]) * 1024);
      done({ code: code ?? 1, output, seconds: (performance.now() - started) / 1000, peakKb, peakScratchBytes });
    });
  });
}

/** The resident set of a process and its descendants, in kB, now. */
function treeRssKb(root: number): number {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${name}/stat`, "utf8").split(") ")[1].split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // the process has just ended
    }
  }
  let total = 0;
  for (const pending = [root]; pending.length; ) {
    const pid = pending.pop()!;
    pending.push(...(children.get(pid) ?? []));
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {
      // the process has just ended
    }
  }
  return total;
}

/**
 * A compile's scratch beside its release `out`: the work folder's finished tasks and running
 * tasks' scratch (not its packs, which become the release), or, for compilers before the
 * work folder, the scratch folder of the process.
 */
export function compileScratch(out: string, pid: number): string[] {
  return [join(`${out}.work`, "tasks"), join(`${out}.work`, "tmp"), `${out}.scratch-${pid}`];
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
