/**
 * Everything written from the pairwise relations, in one pass over them a genome at a time
 * (see derive/relations.ts): the relations table (per protein), the pairs table and its
 * directory (per ordered genome pair), the genes of each genome with a relation into each
 * other, and each group's close groups.
 */
import { isOrthologType, type PairRow, type Relation, type TableRef } from "../../release-format/format.js";
import type { GenomeRelations, RelationsBuild } from "../derive/relations.js";
import type { PackWriter } from "./packs.js";
import { tableWriter } from "./tables.js";

interface RelationTables {
  relations: TableRef<Relation[]>;
  pairs: TableRef<PairRow>;
  /** Per ordered genome pair (genome 1 · genomes + genome 2): `[first pairs row, count]`. */
  directory: Array<[number, number]>;
  /** Per ordered genome pair: genes of genome 1 with a relation to a gene of genome 2. */
  withRelations: Int32Array;
  /** Per group (number − 1): `[group, hits]`, most hits first, ties by group number. */
  closeGroups: Array<Array<[number, number]>>;
}

interface RelationLayout {
  relationsChunkBytes: number;
  pairsChunkBytes: number;
}

interface RelationProteins {
  genomes: number;
  genomeOf(entry: number): number;
  isMain(entry: number): boolean;
  /** Group number of an entry, 0 for none. */
  groupOf(entry: number): number;
  groupCount: number;
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** Packed sizes, estimated: a relation or pair is a short array of small numbers (and nulls). */
const RELATION_BYTES = 10;
const PAIR_BYTES = 14;

export async function writeRelationTables(
  packs: PackWriter,
  relations: RelationsBuild,
  p: RelationProteins,
  layout: RelationLayout,
  progress?: (genomesDone: number) => void,
): Promise<RelationTables> {
  const genomes = p.genomes;
  const relationRows = tableWriter<Relation[]>(packs, layout.relationsChunkBytes, (row) => 2 + row.length * RELATION_BYTES);
  const pairRows = tableWriter<PairRow>(packs, layout.pairsChunkBytes, () => PAIR_BYTES);
  const directory: Array<[number, number]> = [];
  const withRelations = new Int32Array(genomes * genomes);
  const hits = new Map<number, Map<number, number>>();
  let g = 0;
  for await (const rel of relations.genomes()) {
    const size = rel.first.length - 1;
    const seen = new Set<number>();
    for (let k = 0; k < size; k++) {
      const entry = rel.firstEntry + k;
      const row: Relation[] = [];
      const group = p.groupOf(entry);
      seen.clear();
      for (let r = rel.first[k]; r < rel.first[k + 1]; r++) {
        row.push([rel.entry2[r], rel.code[r], nullIfNaN(rel.distance[r]), nullIfNaN(rel.score[r])]);
        seen.add(p.genomeOf(rel.entry2[r]));
        if (group && isOrthologType(rel.code[r])) {
          // A pairwise ortholog in another group is a hit of that group.
          const other = p.groupOf(rel.entry2[r]);
          if (other === 0 || other === group) continue;
          let counts = hits.get(group);
          if (!counts) hits.set(group, (counts = new Map()));
          counts.set(other, (counts.get(other) ?? 0) + 1);
        }
      }
      relationRows.push(row);
      for (const other of seen) withRelations[g * genomes + other]++;
    }
    writeGenomePairs(rel, g, p, pairRows, directory);
    progress?.(++g);
  }
  const closeGroups = Array.from({ length: p.groupCount }, (_, i) =>
    [...(hits.get(i + 1) ?? [])].sort((x, y) => y[1] - x[1] || x[0] - y[0]),
  );
  return { relations: relationRows.finish(), pairs: pairRows.finish(), directory, withRelations, closeGroups };
}

/**
 * The pairs rows of genome g1 with every genome g2, in g2 order: relations between main
 * isoforms, each genome pair's rows in (entry 1, entry 2) order, which a stable split of
 * g1's relations by partner genome keeps.
 */
function writeGenomePairs(
  rel: GenomeRelations,
  g1: number,
  p: RelationProteins,
  pairRows: { push(row: PairRow): void; readonly rows: number },
  directory: Array<[number, number]>,
): void {
  const size = rel.first.length - 1;
  const byGenome: number[][] = Array.from({ length: p.genomes }, () => []);
  const entry1 = new Int32Array(rel.entry2.length);
  for (let k = 0; k < size; k++) {
    if (!p.isMain(rel.firstEntry + k)) continue;
    for (let r = rel.first[k]; r < rel.first[k + 1]; r++) {
      entry1[r] = rel.firstEntry + k;
      if (p.isMain(rel.entry2[r])) byGenome[p.genomeOf(rel.entry2[r])].push(r);
    }
  }
  for (let g2 = 0; g2 < p.genomes; g2++) {
    directory[g1 * p.genomes + g2] = [pairRows.rows, byGenome[g2].length];
    for (const r of byGenome[g2]) pairRows.push([entry1[r], rel.entry2[r], rel.code[r], nullIfNaN(rel.distance[r]), nullIfNaN(rel.score[r])]);
  }
}
