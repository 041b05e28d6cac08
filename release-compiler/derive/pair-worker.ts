/**
 * A worker thread of pair-workers.ts: derives the pairs of the batches of families it is sent
 * (forEachFamilyPair), aligns them with `--align-pairs`, and posts them back as columns of at
 * most PART_PAIRS pairs, so a very wide family streams instead of arriving whole.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { FamilyBuild } from "./hogs.js";
import { measurePair } from "./pair-alignment.js";
import { forEachFamilyPair } from "./pairs.js";
import { PART_PAIRS, type PairBatch, type PairPart, type PairWorkerData } from "./pair-workers.js";

const { genome, subgenome, keepWithin, keepBetween } = workerData as PairWorkerData;
const genomeOf = (entry: number) => genome[entry - 1];
const subgenomeOf = (entry: number) => (subgenome[entry - 1] ? String.fromCharCode(subgenome[entry - 1]) : "");

parentPort!.on("message", ({ batch, families, sequences }: PairBatch) => {
  const sequenceOf = sequences ? new Map(sequences) : undefined;
  let part = newPart(batch, sequenceOf !== undefined);
  const post = (last: boolean) => {
    const done: PairPart = { ...part, last, families: last ? families.length : 0 };
    const columns = [done.entry1, done.entry2, done.code, done.distance, done.score].filter((c) => c !== undefined);
    parentPort!.postMessage(done, columns.map((c) => c!.buffer as ArrayBuffer));
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
      if (part.count === PART_PAIRS) {
        post(false);
        part = newPart(batch, sequenceOf !== undefined);
      }
    });
  }
  post(true);
});

function newPart(batch: number, measured: boolean): Omit<PairPart, "last" | "families"> {
  return {
    batch,
    count: 0,
    entry1: new Int32Array(PART_PAIRS),
    entry2: new Int32Array(PART_PAIRS),
    code: new Uint8Array(PART_PAIRS),
    ...(measured ? { distance: new Float64Array(PART_PAIRS), score: new Float64Array(PART_PAIRS) } : {}),
  };
}
