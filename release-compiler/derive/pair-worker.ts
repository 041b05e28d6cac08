/**
 * A worker thread of pair-workers.ts: derives the pairs of the batches of families it is sent
 * (forEachFamilyPair), aligns them with `--align-pairs`, and posts them back as columns of at
 * most `partPairs` pairs (PART_PAIRS), so a very wide family streams instead of arriving whole. It computes
 * the next part while the main thread takes one, and no further: the main thread's appends set
 * the pace, so parts never pile up in its queue.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FamilyBuild } from "./hogs.js";
import { measurePair } from "./pair-alignment.js";
import { forEachFamilyPair } from "./pairs.js";
import type { PairBatch, PairPart, PairWorkerData } from "./pair-workers.js";

const { genome, subgenome, keepWithin, keepBetween, acked, partPairs } = workerData as PairWorkerData;
let posted = 0;
const genomeOf = (entry: number) => genome[entry - 1];
const subgenomeOf = (entry: number) => (subgenome[entry - 1] ? String.fromCharCode(subgenome[entry - 1]) : "");

parentPort!.on("message", ({ families, sequences }: PairBatch) => {
  const sequenceOf = sequences ? new Map(sequences) : undefined;
  let part = newPart(sequenceOf !== undefined);
  const post = (last: boolean) => {
    // At most one part in flight: wait until the main thread has taken the one before.
    for (let seen = Atomics.load(acked, 0); seen < posted - 1; seen = Atomics.load(acked, 0)) Atomics.wait(acked, 0, seen);
    const done: PairPart = { ...part, last, families: last ? families.length : 0 };
    const columns = [done.entry1, done.entry2, done.code, done.distance, done.score].filter((c) => c !== undefined);
    parentPort!.postMessage(done, columns.map((c) => c!.buffer as ArrayBuffer));
    posted++;
  };
  for (const family of families as FamilyBuild[]) {
    forEachFamilyPair(family, genomeOf, subgenomeOf, (a, b, code) => {
      if (!(genomeOf(a) === genomeOf(b) ? keepWithin : keepBetween)) return;
      const at = part.count++;
      part.entry1[at] = a;
      part.entry2[at] = b;
      part.code[at] = code;
      if (sequenceOf) {
        const { score, distance } = measurePair(sequenceOf.get(a)!, sequenceOf.get(b)!);
        part.distance![at] = distance;
        part.score![at] = score;
      }
      if (part.count === partPairs) {
        post(false);
        part = newPart(sequenceOf !== undefined);
      }
    });
  }
  post(true);
});

function newPart(measured: boolean): Omit<PairPart, "last" | "families"> {
  return {
    count: 0,
    entry1: new Int32Array(partPairs),
    entry2: new Int32Array(partPairs),
    code: new Uint8Array(partPairs),
    ...(measured ? { distance: new Float64Array(partPairs), score: new Float64Array(partPairs) } : {}),
  };
}
