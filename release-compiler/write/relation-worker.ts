/**
 * A worker thread of writeRelationTables (relations.ts): packs the chunks of each genome it is
 * sent, and posts them back with the genome's counts.
 */
import { workerData } from "node:worker_threads";
import { serveTasks } from "../workers.js";
import { genomeRelationChunks, type GenomeRelationChunks, type GenomeRelationTask, type RelationLayout, type RelationProteins } from "./relations.js";

const { proteins, layout } = workerData as { proteins: RelationProteins; layout: RelationLayout };

serveTasks<GenomeRelationTask, GenomeRelationChunks>((task) => {
  const part = genomeRelationChunks(task, proteins, layout);
  return { result: part, transfer: [part.relations.bytes, part.pairs.bytes, part.pairCounts, part.withRelations, part.hits].map((a) => a.buffer as ArrayBuffer) };
});
