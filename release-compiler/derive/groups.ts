import { DUPLICATION, KMER_ALPHABET, SPECIATION } from "../../release-format/format.js";
import { forEachKmer } from "../../release-format/kmers.js";
import type { Problems } from "../problems.js";
import { readGroupsTsv } from "../readers/groups.js";
import type { FamilyBuild } from "./hogs.js";
import type { ProteinTable } from "./proteins.js";

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

/**
 * Groups as the groups file gives them, in order of first appearance, members sorted by entry
 * number; an unknown protein, a protein in two groups or two of one genome in a group are problems.
 */
export async function readGroups(file: string, proteins: ProteinTable, problems: Problems): Promise<number[][]> {
  const groups = new Map<string, number[]>();
  const groupOf = new Map<number, string>();
  for await (const row of readGroupsTsv(file, problems)) {
    const entry = proteins.byInputId.get(row.protein);
    if (entry === undefined) {
      problems.report(file, row.line, `unknown protein ${row.protein}`);
      continue;
    }
    const other = groupOf.get(entry);
    if (other !== undefined) {
      problems.report(file, row.line, `protein ${row.protein} is already in group ${other}`);
      continue;
    }
    const members = groups.get(row.group) ?? [];
    if (members.some((m) => proteins.genome[m - 1] === proteins.genome[entry - 1])) {
      problems.report(file, row.line, `group ${row.group} already has a protein of this genome`);
      continue;
    }
    members.push(entry);
    groups.set(row.group, members);
    groupOf.set(entry, row.group);
  }
  return [...groups.values()].map((m) => m.sort((a, b) => a - b));
}

/** Per entry - 1: the group number (0 = none). */
export function groupOfEntries(groups: number[][], entries: number): Int32Array {
  const group = new Int32Array(entries);
  groups.forEach((members, g) => members.forEach((e) => (group[e - 1] = g + 1)));
  return group;
}

/** Group numbers by fingerprint (several when no peptide is unique to one group); "n/a" is left out. */
export function groupsByFingerprint(fingerprints: string[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  fingerprints.forEach((fp, g) => {
    if (fp !== "n/a") index.set(fp, [...(index.get(fp) ?? []), g + 1]);
  });
  return index;
}

const FINGERPRINT_LENGTH = 7;
const CANDIDATES_PER_GROUP = 64;
/** Residues in code order: a 7-mer's code is its base-20 reading (below 2^31), X and odd letters never in one. */
const RESIDUES = KMER_ALPHABET;

/** Every 7-mer of standard residues, by its rolling base-20 code. */
function forEachPeptide(seq: string, visit: (code: number, position: number) => void): void {
  forEachKmer(seq, visit, FINGERPRINT_LENGTH);
}

function peptideOf(code: number): string {
  let s = "";
  for (let k = 0; k < FINGERPRINT_LENGTH; k++, code = Math.floor(code / 20)) s = RESIDUES[code % 20] + s;
  return s;
}

/**
 * A 7-letter fingerprint per group: the first peptide of its first member's sequence that
 * every member contains and no other protein does. When none is unique, the first peptide
 * common to all members (which then resolves to several groups); "n/a" when there is none.
 * Peptides are base-20 codes: a group's candidates are the intersection of its members'
 * peptide sets, then one pass over all sequences counts the proteins holding each candidate.
 */
export function fingerprintGroups(groups: number[][], sequenceOf: (entry: number) => string, entries: number): string[] {
  const candidates: number[][] = groups.map((members) => {
    const order: number[] = [];
    const common = new Set<number>();
    forEachPeptide(sequenceOf(members[0]), (code) => {
      if (!common.has(code)) {
        common.add(code);
        order.push(code);
      }
    });
    for (const other of members.slice(1)) {
      const present = new Set<number>();
      forEachPeptide(sequenceOf(other), (code) => common.has(code) && present.add(code));
      for (const code of common) if (!present.has(code)) common.delete(code);
      if (common.size === 0) break;
    }
    return order.filter((code) => common.has(code)).slice(0, CANDIDATES_PER_GROUP);
  });

  // How many proteins contain each candidate; a bitset skips the lookups of other peptides.
  const containing = new CandidateCounts(candidates.reduce((n, list) => n + list.length, 0));
  const FILTER_BITS = 1 << 26;
  const filter = new Uint8Array(FILTER_BITS / 8);
  for (const list of candidates) {
    for (const code of list) {
      containing.add(code);
      const bit = code & (FILTER_BITS - 1);
      filter[bit >> 3] |= 1 << (bit & 7);
    }
  }
  for (let entry = 1; entry <= entries; entry++) {
    forEachPeptide(sequenceOf(entry), (code) => {
      const bit = code & (FILTER_BITS - 1);
      if (filter[bit >> 3] & (1 << (bit & 7))) containing.count(code, entry);
    });
  }
  return groups.map((members, g) => {
    const list = candidates[g];
    const unique = list.find((code) => containing.get(code) === members.length);
    return unique !== undefined ? peptideOf(unique) : list.length ? peptideOf(list[0]) : "n/a";
  });
}

/**
 * Proteins per candidate peptide code: an open-addressing hash table in typed arrays (a
 * large release has millions of candidates; two Maps of them cost ten times as much).
 */
class CandidateCounts {
  private readonly codes: Int32Array;
  private readonly counts: Int32Array;
  private readonly lastEntry: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 1024;
    while (size < capacity * 2) size *= 2;
    this.mask = size - 1;
    this.codes = new Int32Array(size).fill(-1);
    this.counts = new Int32Array(size);
    this.lastEntry = new Int32Array(size);
  }

  /** The slot of a code (codes are below 20^7 < 2^31), or the empty slot where it would go. */
  private slot(code: number): number {
    let i = Math.imul(code, 0x9e3779b1) & this.mask;
    while (this.codes[i] !== -1 && this.codes[i] !== code) i = (i + 1) & this.mask;
    return i;
  }

  add(code: number): void {
    this.codes[this.slot(code)] = code;
  }

  /** Counts `entry` once for `code`, if it is a candidate. */
  count(code: number, entry: number): void {
    const i = this.slot(code);
    if (this.codes[i] !== code || this.lastEntry[i] === entry) return;
    this.lastEntry[i] = entry;
    this.counts[i]++;
  }

  get(code: number): number | undefined {
    const i = this.slot(code);
    return this.codes[i] === code ? this.counts[i] : undefined;
  }
}
