/**
 * The pairs of the HOG families derived on `jobs` worker threads (pair-worker.ts), with
 * `--align-pairs` aligned there too: the families go out in batches of about BATCH_WORK
 * member pairs, the pairs come back as typed columns in parts, and the main thread hands each
 * to `pair` as it arrives. Which worker finishes first changes the order pairs arrive in, not
 * the release: the row engine sorts every relation by (entry1, entry2), and each pair is one row.
 */
import type { Worker } from "node:worker_threads";
import { startWorker } from "../workers.js";
import type { FamilyBuild } from "./hogs.js";

/** Pairs per part a worker posts back. */
export const PART_PAIRS = 1 << 20;
/** Member pairs (the sum of each family's members squared) a batch of families holds, about. */
const BATCH_WORK = 4_000_000;

export interface PairWorkerData {
  /** Genome index per entry − 1. */
  genome: Int32Array;
  /** Subgenome letter's char code per entry − 1, 0 for none. */
  subgenome: Uint8Array;
  /** Keep pairs within one genome (close paralogs, homoeologs) / between genomes (orthologs). */
  keepWithin: boolean;
  keepBetween: boolean;
  /** Parts the main thread has taken from this worker (shared; the worker waits on it). */
  acked: Int32Array;
  /** Pairs per part (PART_PAIRS; smaller in tests). */
  partPairs: number;
}

export interface PairBatch {
  families: FamilyBuild[];
  /** With --align-pairs: the sequence of each member, `[entry, sequence]`. */
  sequences?: Array<[number, string]>;
}

export interface PairPart {
  count: number;
  entry1: Int32Array;
  entry2: Int32Array;
  code: Uint8Array;
  distance?: Float64Array;
  score?: Float64Array;
  /** The batch's last part; `families` is then how many families it held. */
  last: boolean;
  families: number;
}

export interface PairWorkOptions extends Omit<PairWorkerData, "acked" | "partPairs"> {
  partPairs?: number;
  jobs: number;
  /** With --align-pairs: a protein's sequence, for the workers to align each pair. */
  sequenceOf?: (entry: number) => string;
  /** Each pair: entries (entry1 < entry2), type code, and with --align-pairs distance and score. */
  pair: (entry1: number, entry2: number, code: number, distance: number, score: number) => void;
  /** Families done so far. */
  progress?: (families: number) => void;
}

export async function deriveFamilyPairsInWorkers(families: FamilyBuild[], options: PairWorkOptions): Promise<void> {
  const batches = batchesOf(families, options.jobs);
  const acks = Array.from({ length: Math.min(options.jobs, batches.length) }, () => new Int32Array(new SharedArrayBuffer(4)));
  const workers = acks.map(
    (acked) =>
      startWorker(new URL("./pair-worker.ts", import.meta.url), {
        genome: options.genome,
        subgenome: options.subgenome,
        keepWithin: options.keepWithin,
        keepBetween: options.keepBetween,
        acked,
        partPairs: options.partPairs ?? PART_PAIRS,
      } satisfies PairWorkerData),
  );
  let next = 0;
  let familiesDone = 0;
  const send = (worker: Worker) => {
    const batch = batches[next++];
    const sent: PairBatch = {
      families: batch,
      ...(options.sequenceOf ? { sequences: batch.flatMap((f) => f.members.map((e): [number, string] => [e, options.sequenceOf!(e)])) } : {}),
    };
    worker.postMessage(sent);
  };
  try {
    await Promise.all(
      workers.map(
        (worker, w) =>
          new Promise<void>((done, fail) => {
            let finished = false;
            const finish = () => {
              finished = true;
              void worker.terminate();
              done();
            };
            worker.on("error", fail);
            worker.on("exit", (code) => finished || fail(new Error(`a pair worker stopped (exit code ${code})`)));
            worker.on("message", (part: PairPart) => {
              for (let i = 0; i < part.count; i++) {
                options.pair(part.entry1[i], part.entry2[i], part.code[i], part.distance ? part.distance[i] : NaN, part.score ? part.score[i] : NaN);
              }
              Atomics.add(acks[w], 0, 1);
              Atomics.notify(acks[w], 0);
              if (!part.last) return;
              familiesDone += part.families;
              options.progress?.(familiesDone);
              if (next < batches.length) send(worker);
              else finish();
            });
            if (next < batches.length) send(worker);
            else finish();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Consecutive families in batches of about BATCH_WORK member pairs, and at least 8 batches a
 * job so that a small release keeps every worker busy too (a wider family is a batch alone).
 */
function batchesOf(families: FamilyBuild[], jobs: number): FamilyBuild[][] {
  const total = families.reduce((n, f) => n + f.members.length ** 2, 0);
  const limit = Math.max(1, Math.min(BATCH_WORK, Math.ceil(total / (8 * jobs))));
  const batches: FamilyBuild[][] = [];
  let batch: FamilyBuild[] = [];
  let work = 0;
  for (const family of families) {
    const cost = family.members.length ** 2;
    if (batch.length && work + cost > limit) {
      batches.push(batch);
      batch = [];
      work = 0;
    }
    batch.push(family);
    work += cost;
  }
  if (batch.length) batches.push(batch);
  return batches;
}
