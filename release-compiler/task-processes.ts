/**
 * The compile's tasks side by side, each in a child process of its own running the compiler's
 * `--task NAME` over the same work folder, as a workflow's jobs do (workflow/Snakefile): so
 * `npm run compile -- --jobs N` keeps N cores busy with tasks that do not need each other (the
 * family tables beside the cross-reference search, say), where one process ran them one after
 * another. A task starts once the tasks it needs have finished and its threads are free: a task
 * with worker threads (`threads: "all"`) runs on every job once one is free, a part of the
 * relations takes a few, one that builds rows on its main thread takes one (tasks.ts,
 * tasksToStart), and its expected resident set fits in what is free of the memory budget: a
 * task runs with the memory it holds of the budget as its own (`--memory`), in which it sorts
 * out of core what its resident set leaves (tasks.ts, workingMemory).
 * Child processes rather than worker threads, because a task holds the columns of the derived
 * release it reads (gigabytes at scale) in a heap of its own, and is the same program a
 * workflow runs on another machine. Each child prints its stage lines, passed on as they come;
 * a child that fails stops the others and fails the compile with the end of what it printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { DERIVE_HEAP_SHARE, heapOf, TASKS, tasksToStart, type DerivedScale, type TaskName } from "./tasks.js";

const ROOT = resolve(import.meta.dirname, "..");
const CLI = resolve(ROOT, "release-compiler/cli.ts");

/**
 * Set in a task's environment, to the hash of the compile's inputs (TaskLedger.inputs), which
 * the task then need not compute again (gigabytes read at scale). And the CLI then stops when
 * its stdin closes, that is when the compile that started it has died (killed, say), rather
 * than going on as an orphan beside the compile started again.
 */
export const TASK_OF_PARENT = "ORTH_COMPILE_TASK_OF_PARENT";

/**
 * Node flags of every compiler process (`npm run compile`, these tasks, the workflow's jobs):
 * young-generation semi-spaces of 64 MB instead of 16. A writing task builds millions of rows
 * that live a few milliseconds beside a heap of gigabytes; with the default, scavenges took a
 * third of its time (1M proteins, protein tables: 781 scavenges, 9.8 s; with 64 MB 232, 5.0 s;
 * the task 28.3 / 25.5 s → 20.7 / 22.4 s, for ~100 MB more resident). And an old generation
 * that grows to twice what the last full collection kept, not V8's up to four times: derive
 * turns over gigabytes of strings (each genome's sequences and cDNA, come from its worker and
 * written out), and let grow its heap reached 1.3 GB where 0.36 GB was live (1M proteins:
 * derive's peak 2,049–2,120 → 1,687 MB, its stages 79 → 81 s).
 */
export const COMPILER_NODE_FLAGS = ["--max-semi-space-size=64", "--heap-growing-percent=100"];

/** Lines of a failed child's output kept for the error. */
const TAIL_LINES = 40;

export interface TaskProcessOptions {
  /** The compile's own arguments: `--config`, `--out`, `--work` (absolute), `--align-pairs`. */
  args: string[];
  jobs: number;
  /** The compile's memory budget. */
  memoryBytes: number;
  /** The derived release's scale once derive has finished, which the tasks' expected resident sets grow with (tasks.ts, residentOf). */
  scale: () => DerivedScale;
  /** The compile's TaskLedger.inputs. */
  inputsHash: string;
  isDone(name: TaskName): boolean;
  log?: (line: string) => void;
}

/** Runs every task of `names` that has not finished, side by side as their needs and the jobs allow. */
export async function runTasksSideBySide(names: readonly TaskName[], options: TaskProcessOptions): Promise<void> {
  const { jobs, isDone } = options;
  const waiting = names.filter((name) => !isDone(name));
  const running = new Map<TaskName, { child: ChildProcess; ended: Promise<TaskName>; holds: number; memory: number }>();
  let free = jobs;
  let memoryFree = options.memoryBytes;
  let scale: DerivedScale | undefined;
  try {
    while (waiting.length || running.size) {
      const allRunning = [...running.keys()].some((name) => TASKS[name].threads === "all");
      // Read once derive has finished (every other task needs it, so none starts before).
      scale ??= isDone("derive") ? options.scale() : undefined;
      // Before derive has finished only derive starts, which grows with none of it.
      const known = scale ?? { bytes: 0, genomes: 0 };
      const room = { free: memoryFree, running: running.size > 0, scale: known };
      for (const { name, threads, holds, memory } of tasksToStart(waiting, isDone, free, jobs, allRunning, room)) {
        free -= holds;
        memoryFree -= memory;
        if (memory > options.memoryBytes) options.log?.(`${name}: expected to hold ${mib(memory)} MB, more than the memory budget of ${mib(options.memoryBytes)} MB: it runs alone`);
        const given = Math.min(memory, options.memoryBytes);
        running.set(name, { ...startTask(name, threads, given, heapOf(name, given, known), options), holds, memory });
      }
      if (!running.size) throw new Error(`tasks ${waiting.join(", ")} cannot start: the tasks they need did not finish`);
      const ended = await Promise.race([...running.values()].map((r) => r.ended));
      free += running.get(ended)!.holds;
      memoryFree += running.get(ended)!.memory;
      running.delete(ended);
    }
  } finally {
    // A failure stops the tasks still running; what they finished stays finished.
    for (const { child, ended } of running.values()) {
      child.kill("SIGTERM");
      await ended.catch(() => {});
    }
  }
}

const mib = (bytes: number) => Math.round(bytes / 2 ** 20);

/** Starts task `name` in a child process, on `threads` threads, within `memory` bytes, its heap within `heap` (tasks.ts, heapOf). */
function startTask(name: TaskName, threads: number, memory: number, heap: number, options: TaskProcessOptions) {
  const heapMb = mib(heap);
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, ...COMPILER_NODE_FLAGS, "--import", "tsx", CLI, ...options.args, "--task", name, "--jobs", String(threads), "--memory", String(memory)],
    // Its stdin stays open and unwritten: when this process dies, the pipe closes and the task stops (cli.ts, TASK_OF_PARENT).
    { cwd: ROOT, stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, [TASK_OF_PARENT]: options.inputsHash } },
  );
  const tail: string[] = [];
  const keep = (line: string) => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
  };
  createInterface({ input: child.stdout! }).on("line", (line) => {
    keep(line);
    options.log?.(line);
  });
  createInterface({ input: child.stderr! }).on("line", keep);
  const ended = new Promise<TaskName>((done, fail) => {
    child.on("error", (error) => fail(new Error(`task ${name} could not start: ${error.message}`)));
    child.on("close", (code, signal) => {
      if (code === 0 && options.isDone(name)) done(name);
      else fail(new Error(taskFailure(name, heapMb, `${signal ?? `exit code ${code}`}`, tail)));
    });
  });
  return { child, ended };
}

/**
 * Why a task's process failed, from how it ended and the last lines it printed: a heap that ran
 * out (V8's fatal "JavaScript heap out of memory") says what to do, anything else is shown as is.
 */
export function taskFailure(name: TaskName, heapMb: number, ended: string, tail: string[]): string {
  if (!tail.some((line) => line.includes("heap out of memory"))) return `task ${name} failed (${ended}):\n${tail.join("\n")}`;
  return name === "derive"
    ? `task derive ran out of memory: its heap of ${heapMb} MB (${DERIVE_HEAP_SHARE * 100}% of --memory, less its row engines' share) is too small for this release, which derive holds whole; compile again with a larger --memory`
    : `task ${name} ran out of memory: its heap of ${heapMb} MB (the resident set it was expected to reach over this derived release, release-compiler/tasks.ts) is too small; the expectation is wrong for this release: please report it with the compile's log`;
}
