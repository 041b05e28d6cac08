/**
 * The pairs of OrthoFinder's `Orthologues/` files as the release's given orthologs. Every row
 * relates each of its X genes to each of its Y genes, typed by the counts on each side
 * (seen from the X gene: `1:1`, `1:n` when the row has several Y genes, `m:1` when it has
 * several X genes, `m:n`). OrthoFinder writes each species pair twice (`X__v__Y` and
 * `Y__v__X`, the same pairs mirrored): the file of the pair's first species in genome order is
 * read, the other only when the first is missing.
 */
import type { PairRow } from "../../inputs.js";
import type { Problems } from "../../problems.js";
import { readOrthologueBatches } from "../../readers/orthofinder/orthologues.js";
import type { ProteinTable } from "../proteins.js";
import type { OrthoFinderSpecies } from "./species.js";

/** The Orthologues files to read, `[species 1, species 2, path]`; none when the results have no `Orthologues/`. */
export function orthologueFiles(of: OrthoFinderSpecies, problems: Problems): Array<[string, string, string]> {
  const chosen = new Map<string, [string, string, string]>();
  for (const file of of.results.orthologues) {
    const [x, y, path] = file;
    const gx = of.genomeOfName.get(x);
    const gy = of.genomeOfName.get(y);
    if (gx === undefined || gy === undefined || gx === gy) {
      const unknown = gx === undefined ? x : gy === undefined ? y : undefined;
      problems.report(path, 0, unknown ? `${unknown} is not a species of the OrthoFinder results` : `${x} against itself`);
      continue;
    }
    const key = gx < gy ? `${gx}:${gy}` : `${gy}:${gx}`;
    const other = chosen.get(key);
    if (!other || (gx < gy && !forward(other))) chosen.set(key, file);
  }
  const pairKey = (f: [string, string, string]) => {
    const [a, b] = [of.genomeOfName.get(f[0])!, of.genomeOfName.get(f[1])!].sort((p, q) => p - q);
    return a * of.species.length + b;
  };
  return [...chosen.values()].sort((a, b) => pairKey(a) - pairKey(b));

  function forward(f: [string, string, string]): boolean {
    return of.genomeOfName.get(f[0])! < of.genomeOfName.get(f[1])!;
  }
}

/** Pairs handed on at once, at most: ~10 MB of rows. */
const MAX_PAIRS_A_BATCH = 1 << 16;

export async function* orthologuePairs(
  files: Array<[string, string, string]>,
  of: OrthoFinderSpecies,
  proteins: ProteinTable,
  problems: Problems,
  /** The file being read and its bytes read so far, after each chunk (readLines). */
  read?: (path: string, bytes: number) => void,
  batchPairs = MAX_PAIRS_A_BATCH,
): AsyncGenerator<PairRow[]> {
  for (const [x, y, path] of files) {
    const gx = of.genomeOfName.get(x)!;
    const gy = of.genomeOfName.get(y)!;
    const known = (gene: string, genome: number, line: number, species: string): boolean => {
      const entry = proteins.inputIds.numberOf(gene);
      if (entry === undefined) problems.report(path, line, `gene ${gene} (${species}) is not in any proteome`);
      else if (proteins.genome[entry - 1] !== genome) problems.report(path, line, `gene ${gene} is in the ${species} column but in the proteome of ${of.species[proteins.genome[entry - 1]].file}`);
      else return true;
      return false;
    };
    for await (const rows of readOrthologueBatches(path, x, y, problems, read && ((bytes) => read(path, bytes)))) {
      let pairs: PairRow[] = [];
      for (const row of rows) {
        const genes1 = row.genes1.filter((g) => known(g, gx, row.line, x));
        const genes2 = row.genes2.filter((g) => known(g, gy, row.line, y));
        const relType = `${row.genes1.length > 1 ? "m" : "1"}:${row.genes2.length > 1 ? "n" : "1"}`;
        for (const protein1 of genes1) {
          for (const protein2 of genes2) pairs.push({ protein1, protein2, relType, line: row.line, file: path });
          // A row of many genes on each side is the square of them in pairs: handed on in
          // batches of bounded size (the problems of such a chunk then come in line order
          // batch by batch, not across the whole chunk).
          if (pairs.length >= batchPairs) {
            yield pairs;
            pairs = [];
          }
        }
      }
      yield pairs;
    }
  }
}
