import { DUPLICATION, SPECIATION } from "../../release-format/format.js";
import type { Problems } from "../problems.js";
import { BigMap } from "../collections.js";
import { readGroupsTsv } from "../readers/groups.js";
import { GrowingInts } from "../write/growing.js";
import { hogNodes } from "./hog-columns.js";
import type { FamilyBuild } from "./hogs.js";
import type { ProteinTable } from "./proteins.js";

/**
 * The orthologous groups of a release (ReleaseBuild `groups`): group g's members (g from 0,
 * by entry number) are `members[starts[g], starts[g + 1])`, one array for all groups where a
 * number[] a group held ~150 bytes more than its members (20.5 MiB of groups at 1M: 2.5).
 */
export interface GroupTable {
  count: number;
  starts: Int32Array;
  members: Int32Array;
}

/** The table of `groups`, in order. */
export function groupTable(groups: ArrayLike<number>[]): GroupTable {
  const starts = new Int32Array(groups.length + 1);
  for (let g = 0; g < groups.length; g++) starts[g + 1] = starts[g] + groups[g].length;
  const members = new Int32Array(starts[groups.length]);
  for (let g = 0; g < groups.length; g++) members.set(groups[g], starts[g]);
  return { count: groups.length, starts, members };
}

/** Group g's members (g from 0). */
export const groupMembers = (t: GroupTable, g: number): Int32Array => t.members.subarray(t.starts[g], t.starts[g + 1]);

/**
 * Single-copy orthologous groups from the HOGs: the largest speciation subtrees that hold at
 * most one protein per genome and no duplication, so every pair in a group is orthologous.
 * Groups are numbered in family order, then tree order; members sorted by entry number.
 */
export function deriveGroups(families: Iterable<FamilyBuild>, genomeOf: (entry: number) => number): GroupTable {
  // Appended as found: groups come in order.
  const starts = new GrowingInts();
  starts.push(0);
  const grouped = new GrowingInts();
  for (const family of families) {
    const { members } = family;
    const nodes = hogNodes(family.tree);
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
        if (slice.length >= 2) {
          grouped.append(slice.sort((a, b) => a - b));
          starts.push(grouped.length);
        }
        return;
      }
      children[i].forEach(visit);
    };
    visit(0);
  }
  return { count: starts.length - 1, starts: starts.done(), members: grouped.done() };
}

/**
 * Groups as the groups file gives them, in order of first appearance, members sorted by entry
 * number; an unknown protein, a protein in two groups or two of one genome in a group are problems.
 */
export async function readGroups(file: string, proteins: ProteinTable, problems: Problems): Promise<GroupTable> {
  // Groups in order of first appearance, and each group name's place in it (a BigMap, which keeps no order past a Map's size).
  const groups: number[][] = [];
  const groupIndex = new BigMap<string, number>();
  // The group each protein is in, by entry - 1 (a Map holds fewer than a public release's proteins).
  const groupOf = new Array<string | undefined>(proteins.count);
  for await (const row of readGroupsTsv(file, problems)) {
    const entry = proteins.inputIds.numberOf(row.protein);
    if (entry === undefined) {
      problems.report(file, row.line, `unknown protein ${row.protein}`);
      continue;
    }
    const other = groupOf[entry - 1];
    if (other !== undefined) {
      problems.report(file, row.line, `protein ${row.protein} is already in group ${other}`);
      continue;
    }
    const index = groupIndex.get(row.group);
    const members = index === undefined ? [] : groups[index];
    if (members.some((m) => proteins.genome[m - 1] === proteins.genome[entry - 1])) {
      problems.report(file, row.line, `group ${row.group} already has a protein of this genome`);
      continue;
    }
    members.push(entry);
    if (index === undefined) groupIndex.set(row.group, groups.push(members) - 1);
    groupOf[entry - 1] = row.group;
  }
  return groupTable(groups.map((m) => m.sort((a, b) => a - b)));
}

/** Per entry - 1: the group number (0 = none). */
export function groupOfEntries(groups: GroupTable, entries: number): Int32Array {
  const group = new Int32Array(entries);
  for (let g = 0; g < groups.count; g++) for (const e of groupMembers(groups, g)) group[e - 1] = g + 1;
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
