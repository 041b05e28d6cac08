import { DUPLICATION, HOMEOLOG, REL_TYPES, SPECIATION, type HogNode, type RelType } from "../../release-format/format.js";
import { hogNodes } from "./hog-columns.js";
import type { FamilyBuild } from "./hogs.js";

export type OrthologType = "1:1" | "1:n" | "m:1" | "m:n";

interface DerivedPair {
  entry1: number;
  entry2: number;
  /** Seen from entry1's side (the reverse pair has the mirrored type). */
  relType: OrthologType | "close paralog" | "homeolog";
}

const CLOSE_PARALOG = REL_TYPES.indexOf("close paralog");

/**
 * Pairwise relations implied by one HOG family. Two proteins of different genomes are
 * orthologs when their most recent common node is a speciation; the type counts how many
 * co-orthologs each has in the other's genome. Two proteins of one genome are close
 * paralogs when their most recent common node is a duplication whose whole subtree lies
 * in that genome (it happened after the genome's last speciation). Two proteins of a
 * polyploid genome on different subgenomes are homoeologs when their most recent common
 * node is a speciation (the split of the subgenomes' progenitors).
 *
 * Each pair is handed to `pair` once, entry1 < entry2, with its type code (an index into
 * REL_TYPES, seen from entry1), in no particular order. A family's pairs grow with the square
 * of its width, so none is kept: the pairs are walked twice, once to count every member's
 * orthologs per genome (a members × genomes-of-the-family array of counts), once to hand them on.
 */
export function forEachFamilyPair(
  family: FamilyBuild,
  genomeOf: (entry: number) => number,
  subgenomeOf: (entry: number) => string,
  pair: (entry1: number, entry2: number, type: number) => void,
): void {
  const { members } = family;
  // Members by their place in `members` (a protein is in a family once): each one's genome, and
  // that genome's column in `counts`, in arrays rather than looked up per pair in Maps.
  const genome = Int32Array.from(members, genomeOf);
  const columnOf = new Map<number, number>();
  const column = Int32Array.from(genome, (g) => {
    let c = columnOf.get(g);
    if (c === undefined) columnOf.set(g, (c = columnOf.size));
    return c;
  });
  const width = columnOf.size;
  const counts = new Int32Array(members.length * width);
  const nodes = hogNodes(family.tree);

  forEachNodePair(nodes, members, genome, subgenomeOf, (kind, x, y) => {
    if (kind !== ORTHOLOGS) return;
    counts[x * width + column[y]]++;
    counts[y * width + column[x]]++;
  });
  forEachNodePair(nodes, members, genome, subgenomeOf, (kind, x, y) => {
    const a = members[x] < members[y] ? x : y;
    const b = a === x ? y : x;
    if (kind === ORTHOLOGS) {
      const n1 = counts[b * width + column[a]]; // genes of a's genome orthologous to b
      const n2 = counts[a * width + column[b]]; // genes of b's genome orthologous to a
      pair(members[a], members[b], n1 === 1 ? (n2 === 1 ? 0 : 1) : n2 === 1 ? 2 : 3);
    } else pair(members[a], members[b], kind === PARALOGS ? CLOSE_PARALOG : HOMEOLOG);
  });
}

/** The family's pairs as a list sorted by (entry1, entry2): for tests and small families. */
export function familyPairs(family: FamilyBuild, genomeOf: (entry: number) => number, subgenomeOf: (entry: number) => string = () => ""): DerivedPair[] {
  const out: DerivedPair[] = [];
  forEachFamilyPair(family, genomeOf, subgenomeOf, (entry1, entry2, type) => out.push({ entry1, entry2, relType: REL_TYPES[type] as DerivedPair["relType"] & RelType }));
  return out.sort((p, q) => p.entry1 - q.entry1 || p.entry2 - q.entry2);
}

const ORTHOLOGS = 0;
const PARALOGS = 1;
const HOMEOLOGS = 2;

/**
 * Every related pair of members, by the kind their most recent common node makes them, as
 * places in `members` (`genome` of each). Node i covers the places [lo, hi); the parts below it
 * are its children's ranges, then each place no child covers (a gene attached directly).
 */
function forEachNodePair(
  nodes: readonly HogNode[],
  members: ArrayLike<number>,
  genome: Int32Array,
  subgenomeOf: (entry: number) => string,
  visit: (kind: number, x: number, y: number) => void,
): void {
  const children = nodes.map(() => [] as number[]);
  nodes.forEach((n, i) => n.parent >= 0 && children[n.parent].push(i));
  const covered = new Uint8Array(members.length);
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    const speciation = node.kind === SPECIATION;
    if (!speciation && !(node.kind === DUPLICATION && oneGenome(genome, node.lo, node.hi) && noSpeciationAboveSpecies(nodes, i, children))) continue;
    // The parts as ranges of places: [from[k], to[k]).
    const from: number[] = [];
    const to: number[] = [];
    for (const c of children[i]) {
      from.push(nodes[c].lo);
      to.push(nodes[c].hi);
      covered.fill(1, nodes[c].lo, nodes[c].hi);
    }
    for (let m = node.lo; m < node.hi; m++) {
      if (!covered[m]) {
        from.push(m);
        to.push(m + 1);
      }
    }
    covered.fill(0, node.lo, node.hi);
    for (let a = 0; a < from.length; a++) {
      for (let b = a + 1; b < from.length; b++) {
        for (let x = from[a]; x < to[a]; x++) {
          for (let y = from[b]; y < to[b]; y++) {
            if (genome[x] !== genome[y]) {
              if (speciation) visit(ORTHOLOGS, x, y);
            } else if (speciation) {
              const sx = subgenomeOf(members[x]);
              const sy = subgenomeOf(members[y]);
              if (sx && sy && sx !== sy) visit(HOMEOLOGS, x, y);
            } else visit(PARALOGS, x, y);
          }
        }
      }
    }
  }
}

/** Whether places [lo, hi) are all of one genome. */
function oneGenome(genome: Int32Array, lo: number, hi: number): boolean {
  for (let m = lo + 1; m < hi; m++) if (genome[m] !== genome[lo]) return false;
  return true;
}

/** True when every speciation node below node i is at a species level (no lineage split below it). */
function noSpeciationAboveSpecies(nodes: readonly HogNode[], i: number, children: number[][]): boolean {
  const stack = [...children[i]];
  while (stack.length) {
    const c = stack.pop()!;
    const n = nodes[c];
    if (n.kind === SPECIATION && n.levels.length > 1) return false;
    stack.push(...children[c]);
  }
  return true;
}
