/**
 * The compile's tasks and their ledger: a work folder where each finished task leaves its
 * outputs, so that a compile killed part-way and started again redoes only what did not
 * finish, and so that a workflow engine (Snakemake, workflow/Snakefile) can run each task as a
 * job of its own, here or on other machines sharing the folder.
 *
 * A task's outputs are named by its inputs (input-addressed, as Nix and Bazel name theirs):
 * the key of a task hashes the bytes of every input file the config names, the config
 * itself, the compiler's own source and Node's version, the options that change the release,
 * and the keys of the tasks it needs. So every key is known before anything runs (the
 * workflow's plan), a finished task is never redone, and a change anywhere upstream gives
 * new keys downstream.
 *
 * work/
 *   tasks/<name>-<key>/   a finished task: output.v8 (snapshot.ts) and any files it keeps
 *   done/<name>-<key>     written last, once the folder above is in place: the task is finished
 *   packs/                packs of every task, named by the hash of their bytes
 *   tmp/<name>-<pid>/     a running task's scratch files (row engine spill files, …)
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, openSync, closeSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { Manifest } from "../release-format/format.js";
import type { ReleaseConfig } from "./config.js";
import { ANNOTATION_FILE } from "./derive/annotation-file.js";
import { EXON_FILE, LOCUS_FILES, MD5_FILE } from "./derive/proteins.js";
import { SEQUENCE_FILE } from "./derive/sequence-file.js";
import { entryFileNames } from "./derive/entry-file.js";
import { oneRangeBytes } from "./write/sequence-index.js";
import { loadSnapshot, saveSnapshot } from "./snapshot.js";

/** A finished task's output, in its folder (snapshot.ts). */
const OUTPUT = "output.v8";

/**
 * Parts the relations and pairs are written in, each a task over a run of genomes (of the first
 * protein) holding about an equal share of the relations: their own packs, so on a cluster each
 * is a job of its own, and a compile on one machine runs as many side by side as its jobs allow.
 * A fixed number, not one drawn from the jobs or the machines, so every compile of a release
 * cuts its packs in the same places and gives the same bytes.
 */
export const RELATION_PARTS = 8;

/** The name of part `i` (1-based) of the relations and pairs. */
export const relationPart = (i: number): RelationPartName => `relations-${i}`;
export type RelationPartName = `relations-${number}`;
const RELATION_PART_NAMES = Array.from({ length: RELATION_PARTS }, (_, i) => relationPart(i + 1));

/** The part number (1-based) of a relations part's task name, else undefined. */
export function partOf(name: string): number | undefined {
  const part = /^relations-(\d+)$/.exec(name);
  return part && Number(part[1]) >= 1 && Number(part[1]) <= RELATION_PARTS ? Number(part[1]) : undefined;
}

/**
 * The tasks of a compile in the order one process runs them, each after the tasks it needs,
 * and the threads each keeps busy: `all` for those with worker threads and the row engine's
 * sorts (derive's family pairs, the k-mers, the similar profiles), a number for those with a
 * few (a relations part packs its chunks on worker threads, and several parts run side by
 * side), 1 for those that build rows on the main thread alone. `relations` puts the parts together: their chunks under
 * directory pages, the pair directory, the close groups.
 */
export type TaskName = "derive" | RelationPartName | "relations" | "family-tables" | "annotation-tables" | "protein-tables" | "sequence-index" | "xref-search" | "hog-lists" | "indexes" | "hog-index" | "profiles";
interface TaskSpec {
  needs: readonly TaskName[];
  threads: "all" | number;
  /** What the task holds resident (TaskMemory); derive's is not known before it runs, and it runs alone. */
  memory?: TaskMemory;
}

/**
 * The resident set a task after derive reaches, from the size of the derived release it reads
 * (the bytes of derive's output.v8 and its files of sequences, exons and annotations, D:
 * derivedFiles) and its genome pairs (G², which the pair directory and the per-genome-pair rows
 * grow with): `base + perDerived × D + perGenomePair × G²`. The one-thread tasks' fits solve
 * their peak RSS at 305,029 and 1,022,299 proteins over 100 genomes (D = 282 and 943 MiB) and
 * 1,044,536 proteins over 2,500 genomes (D = 948 MiB), each compiled with `--jobs 2 --memory 4g`
 * on 2026-11-28 once the annotations and exons had left the snapshot (the relations parts' are
 * solved below; the sequence index's is older, over a D of 291, 976 and 975 MiB); they are taken
 * RESIDENT_MARGIN times over for what the fit misses (a heap collected later beside other
 * tasks). A task reads only the fields of the derived release it uses, and the annotations and
 * peptides are a task apart from the proteins table, so that one-thread tasks fit side by side
 * in 4 GB at a million proteins: the family tables hold 1.2 GB there, the cross-reference search
 * 1.7, the HOG lists 1.1, the protein table 1.2, the indexes 0.8 and the annotation tables 0.2
 * (which read their annotations in order from their file). A task that sorts out of
 * core (`working`) also holds a share of the working memory it is given: a relations part's
 * row engine all of it and more once its rows outgrow it (ENGINE_RESIDENT), the sequence index all of it
 * (PLACING_RESIDENT: one array of a range's postings, as long as the working memory allows).
 */
export interface TaskMemory {
  base: number;
  perDerived: number;
  perGenomePair: number;
  /** The share of its working memory that shows in its resident set, for a task that sorts out of core. */
  working?: number;
  /**
   * The working memory that places all it sorts in one range, when the derived release's scale
   * tells: it starts beside other tasks only with that much (or MOST_WORKING), as each range
   * more reads its input again; else it starts with LEAST_WORKING and spills the rest to disk.
   */
  oneRange?: (scale: DerivedScale) => number | undefined;
}
const MB = 2 ** 20;
/** `base` in MiB, `perDerived` in bytes a byte of the derived release, `perGenomePair` in bytes. */
const fitted = (base: number, perDerived: number, perGenomePair: number, working?: number): TaskMemory => ({ base: base * MB, perDerived, perGenomePair, ...(working ? { working } : {}) });

/**
 * The share of its working memory that shows in a relations part's resident set (TaskMemory):
 * DuckDB's buffers fill what they are given once the part's rows outgrow it, and the part grew
 * by more than that (what its sort holds outside them). Over a million proteins and 2,500
 * genomes, part 1 alone (`--task`) peaked at 1,054–1,133 MB with 256 MB of working memory and
 * at 2,389 with 1,512 MB; in whole compiles the parts peaked at up to 2,960 MB with 1,512 MB
 * each (run one at a time), 2,487 with 1,057 (two side by side) and 1,734 with 705. Over 100
 * genomes, with fewer rows, part 1 peaked at 1,030 MB with 256 MB and 1,463 with 2 GB.
 */
const ENGINE_RESIDENT = 1.5;
/**
 * and the sequence index's: all of it, as the array its postings are placed in, a range of
 * codes at a time. Its resident set besides (its fit) is the k-mer finders' tables and threads,
 * nearly the same at any size (it reads the sequences afresh at each pass): peaks of 892 MiB
 * at 305,029 proteins with two ranges of at most 256 MiB, and at 1,022,299 proteins 2,176 MiB
 * with one range of 1,526 MiB and 1,561 MiB with two of at most 935 MiB.
 */
const PLACING_RESIDENT = 1;

/**
 * What the memory of the tasks after derive grows with: the derived release's size and its
 * genomes; and the k-mer windows of its sequences, whose postings the sequence index places.
 */
export interface DerivedScale {
  bytes: number;
  genomes: number;
  kmerWindows?: number;
}
/** The file derive leaves beside its output with the release's counts (its genomes among them) and its k-mer windows (kmerWindows). */
export const DERIVED_COUNTS = "counts.json";
export type DerivedCounts = Manifest["counts"] & { kmerWindows: number };

/**
 * The files of the derived release whose size is its scale: its snapshot, and its sequences,
 * exons and annotations with their offsets, MD5s and loci, which were fields of the snapshot
 * when the fits below were measured and now lie beside it (derive/entry-file.ts,
 * derive/column-file.ts), read by the tasks that need them.
 */
export const derivedFiles = (ledger: TaskLedger): string[] => [
  ledger.output("derive"),
  ...[...[SEQUENCE_FILE, EXON_FILE, ANNOTATION_FILE].flatMap(entryFileNames), MD5_FILE, ...Object.values(LOCUS_FILES)].map((file) => join(ledger.folder("derive"), file)),
];

/** The scale of a finished derive: the size of its output, and the genomes and k-mer windows its counts name. */
export function derivedScale(ledger: TaskLedger): DerivedScale {
  const { genomes, kmerWindows } = JSON.parse(readFileSync(join(ledger.folder("derive"), DERIVED_COUNTS), "utf8")) as DerivedCounts;
  return { bytes: derivedFiles(ledger).reduce((n, file) => n + statSync(file).size, 0), genomes, kmerWindows };
}

export const TASKS: Record<TaskName, TaskSpec> = {
  derive: { needs: [], threads: "all" },
  // Solved over part 1's peaks run alone less the working memory it was given (at most 256 MB
  // there, its engine's, taken whole): 656 MB at 305,029 proteins over 100 genomes, 1,030 at
  // 1,022,299 over 100 and 1,054–1,133 at 1,044,536 over 2,500. Nothing it holds grows with
  // the genome pairs (its counts per genome pair are its own genomes' rows: 6 MB at 2,500
  // genomes); the fit before (300 MiB, 1.2, 256 bytes a genome pair, half the working memory)
  // took its engine filling 1.5 GB at 2,500 genomes for the genome pairs, so that within 4 GB
  // the parts ran one at a time on two threads, where two side by side on one thread each
  // took 15% less time (37–41 s a pair, against ~21 s each one after the other).
  ...Object.fromEntries(RELATION_PART_NAMES.map((name) => [name, { needs: ["derive"], threads: 4, memory: fitted(370, 0.56, 0, ENGINE_RESIDENT) }])),
  // The longest task after the parts, so it comes first after them, beside the chain of the
  // relations, rather than alone at the end (26 s of 1.6 cores at a million proteins). A pass
  // more over the sequences finds every k-mer again: ~10 s of CPU at a million proteins.
  "sequence-index": { needs: ["derive"], threads: "all", memory: { ...fitted(620, 0.03, 0, PLACING_RESIDENT), oneRange: ({ kmerWindows }) => (kmerWindows === undefined ? undefined : oneRangeBytes(kmerWindows)) } },
  relations: { needs: ["derive", ...RELATION_PART_NAMES], threads: 1, memory: fitted(141, 0.21, 129) },
  "family-tables": { needs: ["derive", "relations"], threads: 1, memory: fitted(369, 0.83, 138) },
  "annotation-tables": { needs: ["derive"], threads: 1, memory: fitted(131, 0.1, 0) },
  "protein-tables": { needs: ["derive", "relations", "family-tables", "annotation-tables"], threads: 1, memory: fitted(223, 1.07, 11) },
  // Its sources numbered rather than a string a row, and its rows' strings let go before the
  // grams are built (xref-search.ts): at 1,022,299 proteins over 100 genomes (D = 848 MiB) its
  // peak fell from 1,667 to 1,507 MiB, then to 1,444–1,460 (2026-11-29), the rows' share solved
  // again from the larger over the same base: 1.54 → 1.39.
  "xref-search": { needs: ["derive"], threads: 1, memory: fitted(283, 1.39, 14) },
  "hog-lists": { needs: ["derive"], threads: 1, memory: fitted(234, 0.97, 6) },
  indexes: { needs: ["derive"], threads: 1, memory: fitted(244, 0.55, 0) },
  // The HOG id index and the HOG cards name the chunks of the families and their members.
  "hog-index": { needs: ["derive", "family-tables"], threads: 1, memory: fitted(244, 0.93, 88) },
  profiles: { needs: ["derive"], threads: "all", memory: fitted(271, 0.76, 27) },
};

export const TASK_NAMES = Object.keys(TASKS) as TaskName[];

/** The threads task `name` keeps busy in a compile of `jobs`. */
export function threadsOf(name: TaskName, jobs: number): number {
  const { threads } = TASKS[name];
  return threads === "all" ? jobs : Math.min(threads, jobs);
}

/** The share of a task's working memory that shows in its resident set (TaskMemory); the engine's for a task that does not sort. */
const workingResident = (name: TaskName): number => TASKS[name].memory?.working ?? ENGINE_RESIDENT;
/**
 * The expected resident sets are the fit's this many times over. The fits held within 3% of
 * every one-thread task's measured peak at a million proteins over 100 and over 2,500 genomes
 * (the benchmark of 2026-11-28, before they were solved again), and 1.25 kept apart pairs of tasks that fit in 4 GB together:
 * at 2,500 genomes the sequence index, the cross-reference search and the HOG index each ran
 * alone, one core idle, ~25 s.
 */
const RESIDENT_MARGIN = 1.1;
/** and at least what a task process holds over the smallest release (Node, its modules, a task's buffers: 180–250 MB measured). */
const LEAST_RESIDENT = 320 * MB;
/** Working memory of a task that sorts out of core: at least this (below it, it waits for room beside others), */
export const LEAST_WORKING = 256 * MB;
/** and at most this (measured at 1M proteins: a relations part with 512 MB took 3% longer than with 2 GB). */
export const MOST_WORKING = 2048 * MB;

/** The most working memory task `name` uses: what places all it sorts in one range, when known (TaskMemory.oneRange), within LEAST_WORKING and MOST_WORKING; else MOST_WORKING. */
function usefulWorking(name: TaskName, scale: DerivedScale): number {
  const oneRange = TASKS[name].memory?.oneRange?.(scale);
  return oneRange === undefined ? MOST_WORKING : Math.min(MOST_WORKING, Math.max(LEAST_WORKING, oneRange));
}

/** The least working memory task `name` starts with beside other tasks: all it uses, for one whose range is known; else LEAST_WORKING. */
function leastWorking(name: TaskName, scale: DerivedScale): number {
  return TASKS[name].memory?.oneRange?.(scale) === undefined ? LEAST_WORKING : usefulWorking(name, scale);
}

/** A task's expected resident set, besides its working memory, as terms: its fit (TaskMemory) `margin` times over. */
function residentTerms(memory: TaskMemory, margin = RESIDENT_MARGIN): { fixed: number; perDerived: number; perGenomePair: number } {
  return { fixed: margin * memory.base, perDerived: margin * memory.perDerived, perGenomePair: margin * memory.perGenomePair };
}

/** Terms `fixed + perDerived × D + perGenomePair × G²` at a derived release of this scale. */
const termsAt = (terms: { fixed: number; perDerived: number; perGenomePair: number }, scale: DerivedScale): number =>
  terms.fixed + terms.perDerived * scale.bytes + terms.perGenomePair * scale.genomes ** 2;

/** The resident set task `name` is expected to reach over a derived release of this scale, besides its working memory. */
export function residentOf(name: TaskName, scale: DerivedScale): number {
  const memory = TASKS[name].memory;
  if (!memory) return 0;
  return Math.max(LEAST_RESIDENT, Math.ceil(termsAt(residentTerms(memory), scale)));
}

/**
 * The memory a workflow's job of task `name` asks for, as `max(least, fixed + perDerived × D +
 * perGenomePair × G²)` bytes (D the size of the derived release, `derived` in the plan, and G
 * its genomes, in `counts`): its expected resident set, with all the
 * working memory it can use for a task that sorts out of core. Derive's is the budget's (none
 * here: it runs alone), the release's a small fixed amount.
 */
export function plannedMemory(name: TaskName): { least: number; fixed: number; perDerived: number; perGenomePair: number } | undefined {
  const memory = TASKS[name].memory;
  if (!memory) return undefined;
  const working = memory.working ? memory.working * MOST_WORKING : 0;
  const terms = residentTerms(memory);
  return { least: LEAST_RESIDENT + working, fixed: Math.ceil(terms.fixed + working), perDerived: terms.perDerived, perGenomePair: terms.perGenomePair };
}

/**
 * The share of the budget, less its row engines' memory, that derive's V8 heap may grow to (its
 * `--max-old-space-size`); the rest is the young generation (3 × 64 MB semi-spaces), Node and its
 * modules, its worker threads, typed arrays. Derive runs alone with the whole budget, but
 * without a limit of its own its heap grew to that of the process that started it (3.5 GB in a
 * compile, 20 GB in the benchmark's), holding garbage the collector had no reason to free: at
 * 2,500 genomes within 4 GB it peaked at 4,117 MiB with a 20 GB heap, 3,414 with 3,000 MB, in
 * the same 123 s. At a million proteins, 0.75 of it (2,880 MB) cost its stages 3% more time.
 */
export const DERIVE_HEAP_SHARE = 0.8;

/**
 * The heap a task's process is started with (`--max-old-space-size`, in bytes), as
 * `max(least, fixed + perDerived × D + perGenomePair × G² + ofMemory × M)`, D and G as in
 * plannedMemory and M the memory the task is given (`--memory`): a task after derive, its fit
 * HEAP_MARGIN times over (its working memory left out), so that its heap does not outgrow what
 * the budget holds for it, whatever share of the budget it runs in (a task expected beyond the
 * budget runs alone, as before); derive, whose resident set is not
 * known before it runs, DERIVE_HEAP_SHARE of the budget less its row engines' memory
 * (APPEND_WORKING). The workflow computes the same from the plan (`heap`).
 */
/**
 * A task's heap limit is its fit this many times over, where the budget holds it RESIDENT_MARGIN
 * times over: V8 collects the harder the nearer its limit, even far below it (at a million
 * proteins the indexes took 11.7 s with a limit of 1.1 times their fit and 11.35 s with 1.25,
 * two runs each; with three quarters of the budget, they and the protein table took a quarter
 * longer), and the fits held within 3% of the peaks measured with this limit.
 */
const HEAP_MARGIN = 1.25;

export function plannedHeap(name: TaskName): { least: number; fixed: number; perDerived: number; perGenomePair: number; ofMemory: number } {
  const memory = TASKS[name].memory;
  if (!memory) return { least: LEAST_RESIDENT, fixed: -DERIVE_HEAP_SHARE * APPEND_WORKING, perDerived: 0, perGenomePair: 0, ofMemory: DERIVE_HEAP_SHARE };
  return { least: LEAST_RESIDENT, ...residentTerms(memory, HEAP_MARGIN), ofMemory: 0 };
}

/** The heap (bytes) task `name` is started with when given `memory` bytes over a derived release of this scale (plannedHeap). */
export function heapOf(name: TaskName, memory: number, scale: DerivedScale): number {
  const heap = plannedHeap(name);
  return Math.ceil(Math.max(heap.least, termsAt(heap, scale) + heap.ofMemory * memory));
}

/**
 * The working memory of derive's row engine, and of its pair workers' engines together when it
 * has them (its own then appends only a pairs file's rows): they append rows and sort none, so
 * they need only the blocks they are filling. Their memory is what derive's resident set holds beside its heap, and they
 * fill what they are given: at 2,500 genomes, two pair workers appended as fast with 100 MB
 * each as with 500 MB, and derive's peak RSS fell from 4.8 to 3.9 GB.
 */
export const APPEND_WORKING = LEAST_WORKING;

/**
 * The working memory of the engine derive checks and types given pairs in (a pairs file,
 * OrthoFinder's orthologues: derive/given-pairs.ts), which groups and joins them rather than
 * only appending: a quarter of the budget (M), at least APPEND_WORKING. With 256 MB, DuckDB
 * stopped grouping the simulated million proteins' 66.8 M orthologs ("failed to pin block");
 * derive's heap then holds the release without its relations (1.3–1.7 GB at a million proteins).
 */
export const givenPairsMemory = (memory: number): number => Math.floor(Math.max(Math.min(APPEND_WORKING, memory), memory / 4));

/**
 * The working memory of task `name` run within `memory` bytes (the compile's budget in one
 * process, a task's share of it side by side, a workflow job's own): what its expected resident
 * set leaves, between LEAST_WORKING (or all of `memory`, when less) and MOST_WORKING; derive's
 * APPEND_WORKING (or all of `memory`, when less).
 */
export function workingMemory(name: TaskName, memory: number, scale: DerivedScale): number {
  if (name === "derive") return Math.floor(Math.min(APPEND_WORKING, memory));
  const left = (memory - residentOf(name, scale)) / workingResident(name);
  return Math.floor(Math.max(Math.min(LEAST_WORKING, memory), Math.min(MOST_WORKING, left)));
}

/**
 * A task starting side by side: the threads it runs with, the threads it holds of the jobs while
 * it runs, and the memory it holds of the budget (its expected resident set, with the working
 * memory this leaves it: workingMemory).
 */
export interface TaskStart {
  name: TaskName;
  threads: number;
  holds: number;
  memory: number;
}

/** The compile's memory budget as tasks start: what is free of it, and whether any task holds some. */
export interface MemoryRoom {
  free: number;
  /** Whether a task is running: a task expected beyond what is free starts only when none is. */
  running: boolean;
  /** The derived release's scale (residentOf). */
  scale: DerivedScale;
}

/**
 * The tasks of `waiting` that start now when tasks run side by side on `jobs` threads of which
 * `free` are free, taken out of `waiting`: in the compile's order (so the chain of tasks that
 * need each other starts first), each once the tasks it needs have finished and its threads fit.
 * A task on every thread (`threads: "all"`) starts once one thread is free, unless another such
 * task runs (`allRunning`): it runs with every thread, sharing the cores with the tasks running,
 * and holds those free but one, so that a one-thread task may start beside it. Waiting for all of them
 * left a core idle for as long as the longest one-thread task ran on the other (30 of the 130 s
 * of a million proteins' tasks), and holding both left one ~40% idle while it ran, since none
 * keeps every core busy (the sequence index 1.6 of two, the profiles 1.1). Derive, which runs
 * alone, holds every thread.
 *
 * Tasks on a few threads (the relations parts) ready together, as many as the budget holds,
 * share the free threads, each on at least one and at most its own: with two jobs, two parts
 * side by side on one thread each rather than one on both. A part keeps its second thread
 * only ~45% busy (its main thread waits on the row engine's sort and its packing workers):
 * measured at a million proteins, two parts took 5.2 s each on two threads one after the
 * other, 9.5 s side by side on one.
 *
 * With a memory budget (`room`), a task also waits until its expected resident set fits in what
 * is free of it (with LEAST_WORKING for a task that sorts out of core), unless no task runs: a
 * task expected beyond the whole budget runs alone. A later, smaller task may start meanwhile.
 * A task that sorts takes what is free up to all it can use, shared equally with the tasks of
 * its kind starting beside it, so that each gets at least its least.
 */
export function tasksToStart(waiting: TaskName[], isDone: (name: TaskName) => boolean, free: number, jobs: number, allRunning = false, room?: MemoryRoom): TaskStart[] {
  const starting: TaskStart[] = [];
  let memoryFree = room?.free ?? 0;
  let running = room?.running ?? false;
  const ready = (name: TaskName) => TASKS[name].needs.every(isDone);
  const aFew = (name: TaskName) => typeof TASKS[name].threads === "number" && (TASKS[name].threads as number) > 1;
  /** The least memory a task starts with: its expected resident set, and the least working memory of one that sorts. */
  const leastOf = (name: TaskName, scale: DerivedScale) => residentOf(name, scale) + (TASKS[name].memory?.working ? workingResident(name) * leastWorking(name, scale) : 0);
  for (const name of [...waiting]) {
    if (!ready(name)) continue;
    // The tasks on a few threads ready now, this one among them, which share the free threads:
    // as many as what is free of the budget holds at their least (within 4 GB, two at a million
    // proteins over 100 or 2,500 genomes; where one only, it runs on two threads rather than one).
    const readyKin = aFew(name) ? waiting.filter((other) => aFew(other) && ready(other)).length : 1;
    const kin = room && aFew(name) ? Math.max(1, Math.min(readyKin, Math.floor(memoryFree / leastOf(name, room.scale)))) : readyKin;
    const threads = aFew(name) ? Math.min(threadsOf(name, jobs), Math.max(1, Math.floor(free / kin))) : threadsOf(name, jobs);
    const everyThread = TASKS[name].threads === "all";
    // Derive runs alone and holds every thread; any other task on every thread all but one (see above).
    const holds = everyThread ? (TASKS[name].memory ? Math.max(1, free - 1) : free) : threads;
    if (everyThread ? free < 1 || allRunning : threads > free) continue;
    let memory = 0;
    if (room && !TASKS[name].memory) {
      // Derive: what it holds is not known before it runs; it runs alone, with all of the budget.
      if (running) continue;
      memory = Math.max(memoryFree, 0);
    } else if (room) {
      const resident = residentOf(name, room.scale);
      const sorts = TASKS[name].memory?.working !== undefined;
      const least = leastOf(name, room.scale);
      if (least > memoryFree && running) continue;
      // It and those of its kind that get threads beside it (kin counts only those what is free holds at their least).
      const shares = 1 + Math.min(kin - 1, Math.floor((free - holds) / threads));
      memory = Math.ceil(sorts ? Math.min(Math.max(memoryFree / shares, least), resident + workingResident(name) * usefulWorking(name, room.scale)) : resident);
    }
    if (room) {
      memoryFree -= memory;
      running = true;
    }
    waiting.splice(waiting.indexOf(name), 1);
    free -= holds;
    allRunning ||= everyThread;
    starting.push({ name, threads, holds, memory });
  }
  return starting;
}

/** What a task that writes packs hands on besides its own output: the packs the release must hold. */
export interface PackedOutput {
  packs: string[];
  chunks: number;
  largestChunk: number;
}

/** Options of a compile that change what it writes (jobs and memory never do). */
export interface ReleaseOptions {
  alignPairs: boolean;
}

export interface TaskLedger {
  readonly work: string;
  /** The hash of everything the release is made from (hashInputs), which every task's key holds. */
  readonly inputs: string;
  /** The folder of a finished task's outputs. */
  folder(name: TaskName): string;
  /** The file whose presence says the task finished. */
  marker(name: TaskName): string;
  isDone(name: TaskName): boolean;
  /**
   * Runs a task, unless a run before finished it, and gives its output as read from its
   * snapshot (lazily: see loadSnapshot), whether computed now or before: the tasks after read
   * only what they use, the output as computed can be collected, and a compile in one process
   * sees what a resumed one or a workflow's job sees. `compute` writes any files it keeps into
   * its folder and gets a scratch folder that is removed after.
   */
  run<T>(name: TaskName, compute: (folder: string, scratch: string) => Promise<T>, log?: (line: string) => void): Promise<T>;
  /** A finished task's output, read from its snapshot as it is used. */
  load<T>(name: TaskName): T;
  /** The file of a task's output (of derive's: the derived release, whose size the memory of the tasks after it grows with). */
  output(name: TaskName): string;
  /** Removes what killed runs left (unfinished task folders, scratch, packs being written) and finished tasks of other keys. */
  prune(): string[];
}

/**
 * The ledger of a release's tasks in `work`; hashes every input (a few seconds per GB), unless
 * given their hash as the compile that started this task computed it (`inputs`).
 */
export function taskLedger(work: string, config: ReleaseConfig, options: ReleaseOptions, inputs = hashInputs(config, options)): TaskLedger {
  const keys = {} as Record<TaskName, string>;
  for (const name of TASK_NAMES) {
    const hash = createHash("sha256").update(`${name}\n${inputs}\n`);
    for (const need of TASKS[name].needs) hash.update(`${need}=${keys[need as TaskName]}\n`);
    keys[name] = hash.digest("hex").slice(0, 24);
  }
  const id = (name: TaskName) => `${name}-${keys[name]}`;
  const folder = (name: TaskName) => join(work, "tasks", id(name));
  const marker = (name: TaskName) => join(work, "done", id(name));
  const packsFolder = join(work, "packs");
  for (const sub of ["tasks", "done", "packs", "tmp"]) mkdirSync(join(work, sub), { recursive: true });
  const output = (name: TaskName) => join(folder(name), OUTPUT);
  const load = <T>(name: TaskName): T => loadSnapshot<T>(output(name));
  // Finished: its marker says so and its output is there. A task folder removed by hand (to free
  // disk) left a marker whose output no run could load: the task is run again instead.
  const isDone = (name: TaskName) => existsSync(marker(name)) && existsSync(output(name));

  return {
    work,
    inputs,
    folder,
    marker,
    isDone,
    load,
    output,
    async run(name, compute, log) {
      if (isDone(name)) {
        log?.(`${name}: finished by an earlier run, loaded from ${folder(name)}`);
        return load(name);
      }
      if (existsSync(marker(name))) {
        log?.(`${name}: marked finished, but its output ${output(name)} is gone: run again`);
        rmSync(marker(name));
      }
      const partial = `${folder(name)}.partial-${process.pid}`;
      const scratch = join(work, "tmp", `${name}-${process.pid}`);
      rmSync(partial, { recursive: true, force: true });
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(partial);
      mkdirSync(scratch);
      try {
        const output = await compute(partial, scratch);
        saveSnapshot(join(partial, OUTPUT), output);
        rmSync(folder(name), { recursive: true, force: true });
        renameSync(partial, folder(name));
        closeSync(openSync(marker(name), "w"));
        return load(name);
      } catch (error) {
        rmSync(partial, { recursive: true, force: true });
        throw error;
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    },
    prune() {
      const removed: string[] = [];
      const current = new Set(TASK_NAMES.map(id));
      const remove = (path: string) => {
        rmSync(path, { recursive: true, force: true });
        removed.push(path);
      };
      for (const name of readdirSync(join(work, "tasks"))) {
        const partial = /\.partial-(\d+)$/.exec(name);
        if (partial ? !isRunning(Number(partial[1])) : !current.has(name)) remove(join(work, "tasks", name));
      }
      for (const name of readdirSync(join(work, "done"))) if (!current.has(name)) remove(join(work, "done", name));
      for (const name of readdirSync(join(work, "tmp"))) {
        if (!isRunning(Number(/-(\d+)$/.exec(name)?.[1]))) remove(join(work, "tmp", name));
      }
      for (const name of readdirSync(packsFolder)) {
        const writing = /^\.writing-(\d+)-/.exec(name);
        if (writing && !isRunning(Number(writing[1]))) remove(join(packsFolder, name));
      }
      return removed;
    },
  };
}

/**
 * One hash of everything a release is made from: the config (its resolved paths and values),
 * the bytes of every file it names (folders: every file under them, by relative path), the
 * compiler's source and Node's version, and the options that change the output.
 */
function hashInputs(config: ReleaseConfig, options: ReleaseOptions): string {
  const hash = createHash("sha256");
  hash.update(`node ${process.version}\n`);
  hash.update(`options ${JSON.stringify(options)}\n`);
  hash.update(`config ${JSON.stringify(config)}\n`);
  for (const path of inputPaths(config)) hashPath(hash, path, path);
  hashCompilerSource(hash);
  return hash.digest("hex");
}

/** The files and folders a config names that exist, each once, sorted. */
function inputPaths(config: ReleaseConfig): string[] {
  const paths = Object.values(config).flatMap((v) => (typeof v === "string" ? [v] : Array.isArray(v) ? v : []));
  return [...new Set(paths)].sort().filter((path) => existsSync(path));
}

/** The bytes of every input file a config names (folders: every file under them). */
export function inputBytes(config: ReleaseConfig): number {
  const size = (path: string): number => (statSync(path).isDirectory() ? readdirSync(path).reduce((n, name) => n + size(join(path, name)), 0) : statSync(path).size);
  return inputPaths(config).reduce((n, path) => n + size(path), 0);
}

/** A hash of the compiler's own source: what a kept compile's figures (a benchmark's) were measured with. */
export function compilerSourceHash(): string {
  const hash = createHash("sha256");
  hashCompilerSource(hash);
  return hash.digest("hex").slice(0, 24);
}

function hashCompilerSource(hash: ReturnType<typeof createHash>): void {
  for (const source of [COMPILER, FORMAT]) hashPath(hash, source, source, (file) => file.endsWith(".ts"));
}

const COMPILER = dirname(fileURLToPath(import.meta.url));
const FORMAT = join(COMPILER, "..", "release-format");

/**
 * The one buffer input files are read through to be hashed: allocated once, not once a file
 * (zeroing a fresh MiB for each of the ~8,000 files of 2,500 genomes took 1.0 s of the 3.5).
 */
let hashBuffer: Buffer | undefined;

function hashPath(hash: ReturnType<typeof createHash>, path: string, root: string, keep: (file: string) => boolean = () => true): void {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) hashPath(hash, join(path, name), root, keep);
    return;
  }
  if (!keep(path)) return;
  hash.update(`file ${relative(root, path)}\n`);
  const fd = openSync(path, "r");
  const buffer = (hashBuffer ??= Buffer.allocUnsafe(1 << 20));
  try {
    for (let n; (n = readSync(fd, buffer, 0, buffer.length, null)) > 0; ) hash.update(buffer.subarray(0, n));
  } finally {
    closeSync(fd);
  }
}

/** A task was asked to run (`--task`) before a task it needs had finished. */
export class UnfinishedTask extends Error {}

/** Whether process `pid` still runs (a zombie does not). */
export function isRunning(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // running, as another user
  }
  // A killed process whose parent died too may linger as a zombie where nothing reaps orphans (containers).
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true; // no /proc: trust the signal
  }
}
