/**
 * A worker thread of pair-workers.ts: derives the pairs of the batches of families it is sent
 * (forEachFamilyPair), aligns them with `--align-pairs`, and appends each once as a row of
 * the relations table in its own database file (RelationRows). Once told to finish,
 * it closes the file and posts back how many rows it holds, per genome.
 */
import { basename } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { openEngine } from "../engine.js";
import type { FamilyBuild } from "./hogs.js";
import { measurePair } from "./pair-alignment.js";
import type { PairAnswer, PairMessage, PairWorkerData } from "./pair-workers.js";
import { forEachFamilyPair } from "./pairs.js";
import { RelationRows, relationColumns, RELATIONS_TABLE } from "./relations.js";

const data = workerData as PairWorkerData;
const { genome, subgenome, isMain, keepWithin, keepBetween } = data;
const genomeOf = (entry: number) => genome[entry - 1];
const subgenomeOf = (entry: number) => (subgenome[entry - 1] ? String.fromCharCode(subgenome[entry - 1]) : "");

// One thread of DuckDB's own: the workers side by side are the parallelism.
const engine = await openEngine({ database: data.database, spill: data.spill, memoryBytes: data.memoryBytes, threads: 1 });
const table = await engine.table(RELATIONS_TABLE, relationColumns(data.measured));
const rows = new RelationRows(table, data.genomes, genomeOf, (entry) => isMain[entry - 1] === 1);

parentPort!.on("message", (message: PairMessage) => {
  if ("finish" in message) {
    const stored = rows.finish(data.measured);
    engine.close();
    const answer: PairAnswer = { finished: true, file: basename(data.database), rows: stored.count, perGenome: stored.perGenome, mainPerGenome: stored.mainPerGenome };
    parentPort!.postMessage(answer);
    return;
  }
  const { families, sequences } = message;
  const sequenceOf = sequences ? new Map(sequences) : undefined;
  for (const family of families as FamilyBuild[]) {
    forEachFamilyPair(family, genomeOf, subgenomeOf, (a, b, code) => {
      if (!(genomeOf(a) === genomeOf(b) ? keepWithin : keepBetween)) return;
      if (!sequenceOf) return rows.add(a, b, code);
      const { score, distance } = measurePair(sequenceOf.get(a)!, sequenceOf.get(b)!);
      rows.add(a, b, code, distance, score);
    });
  }
  parentPort!.postMessage({ families: families.length } satisfies PairAnswer);
});
