import { DUPLICATION, SPECIATION } from "../../release-format/format.js";
import type { Problems } from "../problems.js";
import { BigMap } from "../collections.js";
import { readGroupsTsv } from "../readers/groups.js";
import { EntryListsBuilder, entryLists, listMembers, type EntryLists } from "./entry-lists.js";
import { hogNodes } from "./hog-columns.js";
import type { FamilyBuild } from "./hogs.js";
import type { ProteinTable } from "./proteins.js";

/**
 * Single-copy orthologous groups from the HOGs: the largest speciation subtrees that hold at
 * most one protein per genome and no duplication, so every pair in a group is orthologous.
 * Groups are numbered in family order, then tree order; members sorted by entry number.
 */
export function deriveGroups(families: Iterable<FamilyBuild>, genomeOf: (entry: number) => number): EntryLists {
  // Appended as found: groups come in order.
  const groups = new EntryListsBuilder();
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
        if (slice.length >= 2) groups.add(slice.sort((a, b) => a - b));
        return;
      }
      children[i].forEach(visit);
    };
    visit(0);
  }
  return groups.finish();
}

/**
 * Groups as the groups file gives them, in order of first appearance, members sorted by entry
 * number; an unknown protein, a protein in two groups or two of one genome in a group are problems.
 */
export async function readGroups(file: string, proteins: ProteinTable, problems: Problems): Promise<EntryLists> {
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
  return entryLists(groups.map((m) => m.sort((a, b) => a - b)));
}

/** Per entry - 1: the group number (0 = none). */
export function groupOfEntries(groups: EntryLists, entries: number): Int32Array {
  const group = new Int32Array(entries);
  for (let g = 0; g < groups.count; g++) for (const e of listMembers(groups, g)) group[e - 1] = g + 1;
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
