import { SPECIATION, type FamilyRow } from "../../release-format/format.js";

export type OrthologType = "1:1" | "1:n" | "m:1" | "m:n";

export interface HogOrtholog {
  /** The partner's entry number and its position in the family's members. */
  entry: number;
  position: number;
  /** Seen from the query's side. */
  relType: OrthologType;
}

/** Per family: for each member position, the deepest node whose range holds it (the node it hangs from). */
const memberNodes = new WeakMap<FamilyRow, Int32Array>();

function memberNodeOf(f: FamilyRow): Int32Array {
  let out = memberNodes.get(f);
  if (!out) {
    out = new Int32Array(f.entries.length).fill(-1);
    // Preorder: a node comes after every node above it, so the last one to claim a position is the deepest.
    f.nodes.forEach((n, i) => out!.fill(i, n.lo, n.hi));
    memberNodes.set(f, out);
  }
  return out;
}

/**
 * The orthologs of one protein implied by its family's HOG tree, by partner entry number, as the
 * compiler derives pairs from HOGs (release-compiler/derive/pairs.ts, `familyPairs`): a and b of
 * different genomes are orthologs when their most recent common node is a speciation (no
 * duplication separates them below the level where their lineages split). The type counts
 * co-orthologs: n_A = genes of the query's genome orthologous to the partner, n_B = the
 * query's orthologs in the partner's genome; `1:1` (1, 1), `1:n` (1, >1), `m:1` (>1, 1), `m:n`.
 *
 * Cost: one walk up the tree from the query over its ancestors' member ranges, then one walk
 * up from each partner with prefix counts; no pair of the family is enumerated.
 */
export function hogOrthologs(f: FamilyRow, entry: number, genomeOf: (entry: number) => unknown): HogOrtholog[] {
  const position = f.entries.indexOf(entry);
  if (position < 0) return [];
  const nodeOf = memberNodeOf(f);
  const genomes = f.entries.map(genomeOf);
  const own = genomes[position];

  // Partners: at each speciation ancestor, the members outside the part the query came up through.
  const partners: number[] = [];
  let lo = position;
  let hi = position + 1;
  for (let i = nodeOf[position]; i >= 0; i = f.nodes[i].parent) {
    const n = f.nodes[i];
    if (n.kind === SPECIATION) {
      for (let k = n.lo; k < n.hi; k++) if ((k < lo || k >= hi) && genomes[k] !== own) partners.push(k);
    }
    lo = n.lo;
    hi = n.hi;
  }

  // n_B: the query's orthologs per genome.
  const perGenome = new Map<unknown, number>();
  for (const k of partners) perGenome.set(genomes[k], (perGenome.get(genomes[k]) ?? 0) + 1);
  // n_A of a partner: genes of the query's genome whose most recent common node with it is a speciation.
  const ownBefore = new Int32Array(genomes.length + 1);
  genomes.forEach((g, k) => (ownBefore[k + 1] = ownBefore[k] + (g === own ? 1 : 0)));
  const ownIn = (from: number, to: number) => ownBefore[to] - ownBefore[from];
  const coOrthologs = (k: number): number => {
    let count = 0;
    let from = k;
    let to = k + 1;
    for (let i = nodeOf[k]; i >= 0; i = f.nodes[i].parent) {
      const n = f.nodes[i];
      if (n.kind === SPECIATION) count += ownIn(n.lo, n.hi) - ownIn(from, to);
      from = n.lo;
      to = n.hi;
    }
    return count;
  };

  return partners
    .map((k) => {
      const nA = coOrthologs(k);
      const nB = perGenome.get(genomes[k])!;
      const relType: OrthologType = nA === 1 ? (nB === 1 ? "1:1" : "1:n") : nB === 1 ? "m:1" : "m:n";
      return { entry: f.entries[k], position: k, relType };
    })
    .sort((a, b) => a.entry - b.entry);
}
