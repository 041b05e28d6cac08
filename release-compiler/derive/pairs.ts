import { DUPLICATION, HOMEOLOG, REL_TYPES, SPECIATION, type RelType } from "../../release-format/format.js";
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
  const column = new Map<number, number>(); // genome → its column in `counts`
  for (const m of members) if (!column.has(genomeOf(m))) column.set(genomeOf(m), column.size);
  const row = new Map<number, number>(members.map((m, i) => [m, i]));
  const width = column.size;
  const counts = new Int32Array(members.length * width);
  const countOf = (entry: number, genome: number) => counts[row.get(entry)! * width + column.get(genome)!];

  forEachNodePair(family, genomeOf, subgenomeOf, (kind, x, y) => {
    if (kind !== ORTHOLOGS) return;
    counts[row.get(x)! * width + column.get(genomeOf(y))!]++;
    counts[row.get(y)! * width + column.get(genomeOf(x))!]++;
  });
  forEachNodePair(family, genomeOf, subgenomeOf, (kind, x, y) => {
    const [a, b] = x < y ? [x, y] : [y, x];
    if (kind === ORTHOLOGS) {
      const n1 = countOf(b, genomeOf(a)); // genes of a's genome orthologous to b
      const n2 = countOf(a, genomeOf(b)); // genes of b's genome orthologous to a
      pair(a, b, n1 === 1 ? (n2 === 1 ? 0 : 1) : n2 === 1 ? 2 : 3);
    } else pair(a, b, kind === PARALOGS ? CLOSE_PARALOG : HOMEOLOG);
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

/** Every related pair of members, by the kind their most recent common node makes them. */
function forEachNodePair(
  family: FamilyBuild,
  genomeOf: (entry: number) => number,
  subgenomeOf: (entry: number) => string,
  visit: (kind: number, x: number, y: number) => void,
): void {
  const { nodes, members } = family;
  const children = nodes.map(() => [] as number[]);
  nodes.forEach((n, i) => n.parent >= 0 && children[n.parent].push(i));
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    // The parts below this node: each child subtree, and each gene attached directly.
    const parts: number[][] = children[i].map((c) => members.slice(nodes[c].lo, nodes[c].hi));
    const covered = new Set(parts.flat());
    for (const m of members.slice(node.lo, node.hi)) if (!covered.has(m)) parts.push([m]);
    const speciesOnly =
      node.kind === DUPLICATION && new Set(members.slice(node.lo, node.hi).map(genomeOf)).size === 1 &&
      noSpeciationAboveSpecies(family, i, children);
    if (node.kind !== SPECIATION && !speciesOnly) continue;
    for (let a = 0; a < parts.length; a++) {
      for (let b = a + 1; b < parts.length; b++) {
        for (const x of parts[a]) {
          for (const y of parts[b]) {
            if (genomeOf(x) !== genomeOf(y)) {
              if (node.kind === SPECIATION) visit(ORTHOLOGS, x, y);
            } else if (node.kind === SPECIATION) {
              const sx = subgenomeOf(x);
              const sy = subgenomeOf(y);
              if (sx && sy && sx !== sy) visit(HOMEOLOGS, x, y);
            } else visit(PARALOGS, x, y);
          }
        }
      }
    }
  }
}

/** True when every speciation node below node i is at a species level (no lineage split below it). */
function noSpeciationAboveSpecies(family: FamilyBuild, i: number, children: number[][]): boolean {
  const stack = [...children[i]];
  while (stack.length) {
    const c = stack.pop()!;
    const n = family.nodes[c];
    if (n.kind === SPECIATION && n.levels.length > 1) return false;
    stack.push(...children[c]);
  }
  return true;
}
