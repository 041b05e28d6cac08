import { DUPLICATION, SPECIATION } from "../../release-format/format.js";
import type { FamilyBuild } from "./hogs.js";

export type OrthologType = "1:1" | "1:n" | "m:1" | "m:n";

interface DerivedPair {
  entry1: number;
  entry2: number;
  /** Seen from entry1's side (the reverse pair has the mirrored type). */
  relType: OrthologType | "close paralog" | "homeolog";
}

/**
 * Pairwise relations implied by one HOG family. Two proteins of different genomes are
 * orthologs when their most recent common node is a speciation; the type counts how many
 * co-orthologs each has in the other's genome. Two proteins of one genome are close
 * paralogs when their most recent common node is a duplication whose whole subtree lies
 * in that genome (it happened after the genome's last speciation). Two proteins of a
 * polyploid genome on different subgenomes are homoeologs when their most recent common
 * node is a speciation (the split of the subgenomes' progenitors).
 * Pairs come once each, entry1 < entry2.
 */
export function familyPairs(
  family: FamilyBuild,
  genomeOf: (entry: number) => number,
  subgenomeOf: (entry: number) => string = () => "",
): DerivedPair[] {
  const { nodes, members } = family;
  const children = nodes.map(() => [] as number[]);
  nodes.forEach((n, i) => n.parent >= 0 && children[n.parent].push(i));

  const orthologs: Array<[number, number]> = [];
  const paralogs: Array<[number, number]> = [];
  const homeologs: Array<[number, number]> = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i];
    // The parts below this node: each child subtree, and each gene attached directly.
    const parts: number[][] = children[i].map((c) => members.slice(nodes[c].lo, nodes[c].hi));
    const covered = new Set(parts.flat());
    for (const m of members.slice(node.lo, node.hi)) if (!covered.has(m)) parts.push([m]);
    const speciesOnly =
      node.kind === DUPLICATION && new Set(members.slice(node.lo, node.hi).map(genomeOf)).size === 1 &&
      noSpeciationAboveSpecies(family, i, children);
    for (let a = 0; a < parts.length; a++) {
      for (let b = a + 1; b < parts.length; b++) {
        for (const x of parts[a]) {
          for (const y of parts[b]) {
            const pair: [number, number] = x < y ? [x, y] : [y, x];
            if (genomeOf(x) !== genomeOf(y)) {
              if (node.kind === SPECIATION) orthologs.push(pair);
            } else if (node.kind === SPECIATION) {
              const sx = subgenomeOf(x);
              const sy = subgenomeOf(y);
              if (sx && sy && sx !== sy) homeologs.push(pair);
            } else if (speciesOnly) paralogs.push(pair);
          }
        }
      }
    }
  }

  // Co-ortholog counts: for each protein, how many orthologs it has in each other genome.
  const counts = new Map<number, Map<number, number>>();
  const bump = (entry: number, genome: number): void => {
    const m = counts.get(entry) ?? new Map<number, number>();
    m.set(genome, (m.get(genome) ?? 0) + 1);
    counts.set(entry, m);
  };
  for (const [x, y] of orthologs) {
    bump(x, genomeOf(y));
    bump(y, genomeOf(x));
  }
  const out: DerivedPair[] = orthologs.map(([x, y]) => {
    const n1 = counts.get(y)!.get(genomeOf(x))!; // genes of x's genome orthologous to y
    const n2 = counts.get(x)!.get(genomeOf(y))!; // genes of y's genome orthologous to x
    const relType: OrthologType = n1 === 1 ? (n2 === 1 ? "1:1" : "1:n") : n2 === 1 ? "m:1" : "m:n";
    return { entry1: x, entry2: y, relType };
  });
  for (const [x, y] of paralogs) out.push({ entry1: x, entry2: y, relType: "close paralog" });
  for (const [x, y] of homeologs) out.push({ entry1: x, entry2: y, relType: "homeolog" });
  return out.sort((p, q) => p.entry1 - q.entry1 || p.entry2 - q.entry2);
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
