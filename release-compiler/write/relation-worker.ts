/**
 * The worker side of writeRelationTables (relations.ts): packs the chunks of each genome it is
 * sent, and posts them back with the genome's counts.
 */
import type { TaskServer } from "../workers.js";
import { genomeRelationChunks, type GenomeRelationChunks, type GenomeRelationTask, type RelationLayout, type RelationProteins } from "./relations.js";

export const serve: TaskServer<GenomeRelationTask, GenomeRelationChunks, { proteins: RelationProteins; layout: RelationLayout }> =
  ({ proteins, layout }) =>
  (task) => {
    const part = genomeRelationChunks(task, proteins, layout);
    return { result: part, transfer: [part.relations.bytes, part.pairs.bytes, part.pairCounts, part.withRelations, part.hits].map((a) => a.buffer as ArrayBuffer) };
  };
