/**
 * The pairs of the HOG families derived on `jobs` worker threads (pair-worker.ts), with
 * `--align-pairs` aligned there too, and appended there as relation rows (each once)
 * into a database file of each worker's own (workerFile): appending to the row engine is
 * most of this work, DuckDB appends on the thread that calls it, and one engine per worker on
 * one thread of its own appends side by side (measured: two workers append 50 M rows in half
 * the time of one). The families go out in batches of about BATCH_WORK member pairs, to
 * whichever worker is free; which worker takes a batch changes which file its rows are in, not
 * the release: the files are read back as one table sorted by (entry1, entry2), and each
 * relation is one row.
 */
import { join } from "node:path";
import type { Worker } from "node:worker_threads";
import { startWorker } from "../workers.js";
import { familyAt, ownFamily, type FamilyTable } from "./family-table.js";
import type { FamilyBuild } from "./hogs.js";

/** Worker `w`'s database file (0-based), in the folder it is given: the deriving task's, which keeps it. */
const workerFile = (w: number) => `relations-${w + 1}.duckdb`;

/** Member pairs (the sum of each family's members squared) a batch of families holds, about. */
const BATCH_WORK = 4_000_000;

/**
 * Member pairs below which the families' pairs are derived on the calling thread: starting a
 * worker costs ~0.5 s (tsx compiles its modules, DuckDB opens its file), about what appending
 * two million rows here does.
 */
export const WORKER_PAIRS_FROM = 2_000_000;

/**
 * The same with `--align-pairs`: aligning a pair (a fraction of a millisecond) costs what
 * appending a thousand rows does, so the workers pay off a thousand times sooner.
 */
export const WORKER_ALIGNED_PAIRS_FROM = 2_000;

/** Family `index`'s member pairs: the work of deriving its pairs. */
const pairsOf = (t: FamilyTable, index: number) => (t.memberStarts[index] - t.memberStarts[index - 1]) ** 2;

/** The member pairs of the families. */
export function memberPairs(families: FamilyTable): number {
  let n = 0;
  for (let f = 1; f <= families.count; f++) n += pairsOf(families, f);
  return n;
}

export interface PairWorkerData {
  /** Genome index per entry − 1. */
  genome: Int32Array;
  /** Subgenome letter's char code per entry − 1, 0 for none. */
  subgenome: Uint8Array;
  /** 1 for a main isoform, per entry − 1 (the rows between main isoforms are counted per genome). */
  isMain: Uint8Array;
  genomes: number;
  /** Keep pairs within one genome (close paralogs, homoeologs) / between genomes (orthologs). */
  keepWithin: boolean;
  keepBetween: boolean;
  /** Rows carry distance and score (a pairs file gave some, or --align-pairs). */
  measured: boolean;
  /** This worker's database file and the scratch folder its engine spills to. */
  database: string;
  spill: string;
  memoryBytes: number;
}

/** What the main thread sends a worker: a batch of families, or `finish` once there are no more. */
export type PairMessage =
  | {
      families: FamilyBuild[];
      /** With --align-pairs: the sequence of each member, `[entry, sequence]`. */
      sequences?: Array<[number, string]>;
    }
  | { finish: true };

/** What a worker posts back: a batch done, or (after `finish`) what its database file holds. */
export type PairAnswer = { families: number } | ({ finished: true } & WorkerRows);

/** The relation rows one worker appended, in its database file (a name in the folder it was given). */
export interface WorkerRows {
  file: string;
  rows: number;
  perGenome: Float64Array;
  mainPerGenome: Float64Array;
}

export interface PairWorkOptions extends Omit<PairWorkerData, "database" | "spill" | "memoryBytes"> {
  jobs: number;
  /** Where each worker keeps its database file, the scratch folder its spill folders go in, and each worker's engine memory. */
  rows: { folder: string; scratch: string; memoryBytes: number };
  /** With --align-pairs: a protein's sequence, for the workers to align each pair. */
  sequenceOf?: (entry: number) => string;
  /** Families done so far. */
  progress?: (families: number) => void;
}

/** Derives, measures and appends the families' relation rows on the workers; returns each worker's file and counts, by worker. */
export async function deriveFamilyPairsInWorkers(families: FamilyTable, options: PairWorkOptions): Promise<WorkerRows[]> {
  const batches = batchesOf(families, options.jobs);
  const count = Math.min(options.jobs, batches.length);
  const workers = Array.from({ length: count }, (_, w) =>
    startWorker(new URL("./pair-worker.ts", import.meta.url), {
      genome: options.genome,
      subgenome: options.subgenome,
      isMain: options.isMain,
      genomes: options.genomes,
      keepWithin: options.keepWithin,
      keepBetween: options.keepBetween,
      measured: options.measured,
      database: join(options.rows.folder, workerFile(w)),
      spill: join(options.rows.scratch, `pair-worker-${w + 1}`),
      memoryBytes: Math.floor(options.rows.memoryBytes / count),
    } satisfies PairWorkerData),
  );
  let next = 0;
  let familiesDone = 0;
  const send = (worker: Worker) => {
    if (next === batches.length) {
      worker.postMessage({ finish: true } satisfies PairMessage);
      return;
    }
    const [from, to] = batches[next++];
    // Each family copied out of the table: a view would post the table's whole arrays.
    const batch = Array.from({ length: to - from }, (_, k) => ownFamily(familyAt(families, from + k)));
    worker.postMessage({
      families: batch,
      ...(options.sequenceOf ? { sequences: batch.flatMap((f) => Array.from(f.members, (e): [number, string] => [e, options.sequenceOf!(e)])) } : {}),
    } satisfies PairMessage);
  };
  try {
    return await Promise.all(
      workers.map(
        (worker) =>
          new Promise<WorkerRows>((done, fail) => {
            let finished = false;
            worker.on("error", fail);
            worker.on("exit", (code) => finished || fail(new Error(`a pair worker stopped (exit code ${code})`)));
            worker.on("message", (answer: PairAnswer) => {
              if ("finished" in answer) {
                finished = true;
                const { file, rows, perGenome, mainPerGenome } = answer;
                done({ file, rows, perGenome, mainPerGenome });
                return;
              }
              familiesDone += answer.families;
              options.progress?.(familiesDone);
              send(worker);
            });
            send(worker);
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Consecutive families in batches of about BATCH_WORK member pairs, and at least 8 batches a
 * job so that a small release keeps every worker busy too (a wider family is a batch alone):
 * each the family indexes [from, to).
 */
function batchesOf(families: FamilyTable, jobs: number): Array<[number, number]> {
  const total = memberPairs(families);
  const limit = Math.max(1, Math.min(BATCH_WORK, Math.ceil(total / (8 * jobs))));
  const batches: Array<[number, number]> = [];
  let from = 1;
  let work = 0;
  for (let f = 1; f <= families.count; f++) {
    const cost = pairsOf(families, f);
    if (f > from && work + cost > limit) {
      batches.push([from, f]);
      from = f;
      work = 0;
    }
    work += cost;
  }
  if (families.count >= from) batches.push([from, families.count + 1]);
  return batches;
}
