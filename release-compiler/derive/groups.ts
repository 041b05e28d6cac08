import { DUPLICATION, SPECIATION } from "../../src/release/format.js";
import type { FamilyBuild } from "./hogs.js";

/**
 * Single-copy orthologous groups from the HOGs: the largest speciation subtrees that hold at
 * most one protein per genome and no duplication, so every pair in a group is orthologous.
 * Groups are numbered in family order, then tree order; members sorted by entry number.
 */
export function deriveGroups(families: FamilyBuild[], genomeOf: (entry: number) => number): number[][] {
  const groups: number[][] = [];
  for (const family of families) {
    const { nodes, members } = family;
    // A node qualifies when no duplication with two or more copies lies in its subtree.
    const hasDuplication = new Array<boolean>(nodes.length).fill(false);
    const childCount = new Array<number>(nodes.length).fill(0);
    for (let i = 1; i < nodes.length; i++) childCount[nodes[i].parent]++;
    for (let i = nodes.length - 1; i >= 0; i--) {
      if (nodes[i].kind === DUPLICATION && childCount[i] >= 2) hasDuplication[i] = true;
      if (hasDuplication[i] && nodes[i].parent >= 0) hasDuplication[nodes[i].parent] = true;
    }
    const children = nodes.map(() => [] as number[]);
    nodes.forEach((n, i) => n.parent >= 0 && children[n.parent].push(i));

    const visit = (i: number): void => {
      const node = nodes[i];
      const slice = members.slice(node.lo, node.hi);
      const genomes = new Set(slice.map(genomeOf));
      if (node.kind === SPECIATION && !hasDuplication[i] && genomes.size === slice.length) {
        if (slice.length >= 2) groups.push(slice.sort((a, b) => a - b));
        return;
      }
      children[i].forEach(visit);
    };
    visit(0);
  }
  return groups;
}

const FINGERPRINT_LENGTH = 7;
const CANDIDATES_PER_GROUP = 64;
const PEPTIDE = /^[ACDEFGHIKLMNPQRSTVWY]{7}$/;

/**
 * A 7-letter fingerprint per group: the first peptide of its first member's sequence that
 * every member contains and no other protein does. When none is unique, the first peptide
 * common to all members (which then resolves to several groups); "n/a" when there is none.
 * Peptide counting streams once over all sequences, looking up only the candidates.
 */
export function fingerprintGroups(groups: number[][], sequenceOf: (entry: number) => string, entries: number): string[] {
  const candidates: string[][] = groups.map((members) => {
    const [first, ...rest] = members.map(sequenceOf);
    const out: string[] = [];
    const seen = new Set<string>();
    for (let p = 0; p + FINGERPRINT_LENGTH <= first.length && out.length < CANDIDATES_PER_GROUP; p++) {
      const peptide = first.slice(p, p + FINGERPRINT_LENGTH);
      if (seen.has(peptide) || !PEPTIDE.test(peptide)) continue;
      seen.add(peptide);
      if (rest.every((s) => s.includes(peptide))) out.push(peptide);
    }
    return out;
  });

  // How many proteins contain each candidate peptide.
  const containing = new Map<string, number>();
  for (const list of candidates) for (const c of list) containing.set(c, 0);
  const lastSeen = new Map<string, number>();
  for (let entry = 1; entry <= entries; entry++) {
    const seq = sequenceOf(entry);
    for (let p = 0; p + FINGERPRINT_LENGTH <= seq.length; p++) {
      const peptide = seq.slice(p, p + FINGERPRINT_LENGTH);
      const n = containing.get(peptide);
      if (n === undefined || lastSeen.get(peptide) === entry) continue;
      lastSeen.set(peptide, entry);
      containing.set(peptide, n + 1);
    }
  }
  return groups.map((members, g) => {
    const list = candidates[g];
    return list.find((c) => containing.get(c) === members.length) ?? list[0] ?? "n/a";
  });
}
