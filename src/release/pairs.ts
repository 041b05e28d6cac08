import type { GenomeInfo, PairRow } from "../../release-format/format.js";
import type { Release } from "./release.js";

export interface PairSelection {
  /** Runs `[first, last]` of entry numbers that entry 1 / entry 2 must lie in (a chromosome). */
  chr1?: Array<[number, number]>;
  chr2?: Array<[number, number]>;
  /** Relation type code; -1 selects nothing. */
  relType?: number;
}

export interface Pairs {
  total: number;
  /** Pairs [from, to) of the selection, in (entry 1, entry 2) order. */
  rows(from: number, to: number): Promise<PairRow[]>;
}

/**
 * The pairs of two genomes (main isoforms, directed from genome 1). Without a filter a page
 * is found by arithmetic in the pairs table; a filter reads the genome pair's whole range
 * (bounded by the two genomes' sizes, not the release's) so that the total counts the
 * filtered result.
 */
export async function pairsBetween(release: Release, genome1: GenomeInfo, genome2: GenomeInfo, selection: PairSelection): Promise<Pairs> {
  const { genomes, tables } = release.manifest;
  const [first, count] = await release.row(tables.pairDirectory, genomes.indexOf(genome1) * genomes.length + genomes.indexOf(genome2));
  const readRange = async (from: number, to: number): Promise<PairRow[]> => {
    const out: PairRow[] = [];
    for await (const row of await release.rows(tables.pairs, first + from, first + to)) out.push(row);
    return out;
  };
  const { chr1, chr2, relType } = selection;
  if (!chr1 && !chr2 && relType === undefined) return { total: count, rows: readRange };
  if (relType === -1 || chr1?.length === 0 || chr2?.length === 0) return { total: 0, rows: async () => [] };

  const within = (ranges: Array<[number, number]> | undefined, entry: number) => !ranges || ranges.some(([lo, hi]) => lo <= entry && entry <= hi);
  const selected = (await readRange(0, count)).filter(
    (r) => (relType === undefined || r[2] === relType) && within(chr1, r[0]) && within(chr2, r[1]),
  );
  return { total: selected.length, rows: async (from, to) => selected.slice(from, to) };
}
