/**
 * A HOG family's history on the species tree, as a HOG drawing shows it (OMA's iHam): the HOGs
 * on every level of the family's clade (the nodes standing on it and the implied HOGs of
 * release-format/hog-levels.ts, in the HOG list's tree order), and on each branch of the
 * taxonomy how many HOGs were lost and how many copies duplications added.
 *
 * Each HOG on a level lies in exactly one HOG on its parent level, so on the branch from P to
 * its child level C: losses = HOGs of P with no gene below C; duplications = HOGs of C minus
 * the HOGs of P that reach C (each extra copy is one duplication). Computed in time linear in
 * members × levels with typed arrays, from the family row alone.
 */
import { SPECIATION, type FamilyRow, type Taxonomy } from "../../release-format/format.js";
import { impliedHogs, type ImpliedHog } from "../../release-format/hog-levels.js";
import { impliedHogsOf, type HogLevelsContext } from "../../release-format/hog-tree.js";

type Tree = Pick<Taxonomy, "parents" | "genomes">;

/**
 * One HOG of the family on one level. Its members (positions in the family's member list,
 * ascending) are the node's range `[lo, hi)`, or `list` for an implied HOG.
 */
export interface LevelHogOf {
  id: string;
  level: number;
  /** The node standing on the level, or the node an implied HOG is anchored at. */
  node: number;
  lo: number;
  hi: number;
  list?: number[];
  /** An implied HOG's completeness (a node's is the node's). */
  completeness?: number;
}

export const hogSize = (h: LevelHogOf): number => (h.list ? h.list.length : h.hi - h.lo);
export const hogFirst = (h: LevelHogOf): number => (h.list ? h.list[0] : h.lo);

/** Whether member position `m` is in the HOG. */
export function hogHas(h: LevelHogOf, m: number): boolean {
  if (!h.list) return m >= h.lo && m < h.hi;
  let lo = 0;
  let hi = h.list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h.list[mid] < m) lo = mid + 1;
    else hi = mid;
  }
  return h.list[lo] === m;
}

/** Calls `visit` with each member position of the HOG, ascending. */
export function eachMember(h: LevelHogOf, visit: (m: number) => void): void {
  if (h.list) for (const m of h.list) visit(m);
  else for (let m = h.lo; m < h.hi; m++) visit(m);
}

export interface FamilyHistory {
  /** The most ancient level of the family (its root node's first level). */
  root: number;
  /** HOGs by level, in tree order; levels of the clade without a HOG are absent. */
  hogsAt: Map<number, LevelHogOf[]>;
  /** Species level of each member. */
  speciesOf: Int32Array;
  /** Per level below the root: duplications on the branch from its parent level (0 elsewhere). */
  duplications: Int32Array;
  /** Per level below the root: HOGs of the parent level lost on the branch to it (0 elsewhere). */
  losses: Int32Array;
  /** Genes of the family per level: of its own genome. */
  genesOwn: Int32Array;
  /** Genes of the family per level: in its whole clade. */
  genesBelow: Int32Array;
}

interface TreeIndex {
  children: number[][];
  /** Each level's position among its parent's children. */
  childAt: Int32Array;
  depth: Int32Array;
}
const treeIndexes = new WeakMap<Tree, TreeIndex>();

function treeIndex(taxonomy: Tree): TreeIndex {
  let index = treeIndexes.get(taxonomy);
  if (!index) {
    const n = taxonomy.parents.length;
    const children: number[][] = taxonomy.parents.map(() => []);
    const childAt = new Int32Array(n);
    const depth = new Int32Array(n);
    taxonomy.parents.forEach((p, i) => {
      if (p < 0) return;
      childAt[i] = children[p].length;
      children[p].push(i);
    });
    for (let i = 0; i < n; i++) for (let l = taxonomy.parents[i]; l >= 0; l = taxonomy.parents[l]) depth[i]++;
    treeIndexes.set(taxonomy, (index = { children, childAt, depth }));
  }
  return index;
}

/** Child levels of every level, in level order (preorder of the tree). */
export const childLevels = (taxonomy: Tree): number[][] => treeIndex(taxonomy).children;

/** Every HOG of a family on every level, in tree order (`implied`: its implied HOGs, by anchor node then level). */
export function familyHogs(family: FamilyRow, implied: ImpliedHog[]): LevelHogOf[] {
  const out: LevelHogOf[] = [];
  let k = 0;
  family.nodes.forEach((n, i) => {
    if (n.kind === SPECIATION) for (const level of n.levels) out.push({ id: n.id, level, node: i, lo: n.lo, hi: n.hi });
    for (; k < implied.length && implied[k].node === i; k++) {
      const h = implied[k];
      out.push({ id: h.id, level: h.level, node: i, lo: 0, hi: 0, list: h.members, completeness: h.completeness });
    }
  });
  return out;
}

/**
 * The family's history. `speciesOf` gives each member's species level; `implied` its implied
 * HOGs when already at hand (they are computed otherwise).
 */
export function familyHistory(family: FamilyRow, speciesOf: Int32Array, taxonomy: Tree, implied?: ImpliedHog[]): FamilyHistory {
  const levels = taxonomy.parents.length;
  const { children, childAt, depth } = treeIndex(taxonomy);
  const root = family.nodes[0]?.levels[0] ?? family.nodes[0]?.level ?? -1;
  const hogsAt = new Map<number, LevelHogOf[]>();
  for (const hog of familyHogs(family, implied ?? impliedHogs(family.nodes, speciesOf, taxonomy))) {
    let list = hogsAt.get(hog.level);
    if (!list) hogsAt.set(hog.level, (list = []));
    list.push(hog);
  }

  // Each species' lineage, root first (species are few; members share them).
  const lineages: Array<Int32Array | undefined> = [];
  const lineageOf = (species: number): Int32Array => {
    let line = lineages[species];
    if (!line) {
      line = new Int32Array(depth[species] + 1);
      for (let l = species, d = depth[species]; l >= 0; l = taxonomy.parents[l], d--) line[d] = l;
      lineages[species] = line;
    }
    return line;
  };

  const genesOwn = new Int32Array(levels);
  const genesBelow = new Int32Array(levels);
  for (const species of speciesOf) {
    genesOwn[species]++;
    for (const l of lineageOf(species)) genesBelow[l]++;
  }

  const losses = new Int32Array(levels);
  const duplications = new Int32Array(levels);
  if (root >= 0) {
    // Every level of the clade with children: which of its HOGs reach each child.
    const stack = [root];
    while (stack.length) {
      const parent = stack.pop()!;
      const kids = children[parent];
      if (!kids.length) continue;
      stack.push(...kids);
      const parentHogs = hogsAt.get(parent) ?? [];
      const width = kids.length;
      const d = depth[parent] + 1;
      const reached = new Uint8Array(parentHogs.length * width);
      const reachedPerKid = new Int32Array(width);
      parentHogs.forEach((hog, j) => {
        const row = j * width;
        let seen = 0;
        eachMember(hog, (m) => {
          if (seen === width) return;
          const line = lineageOf(speciesOf[m]);
          if (line.length <= d) return;
          const at = row + childAt[line[d]];
          if (!reached[at]) {
            reached[at] = 1;
            reachedPerKid[at - row]++;
            seen++;
          }
        });
      });
      kids.forEach((k, i) => {
        losses[k] = parentHogs.length - reachedPerKid[i];
        duplications[k] = Math.max(0, (hogsAt.get(k)?.length ?? 0) - reachedPerKid[i]);
      });
    }
  }
  return { root, hogsAt, speciesOf, duplications, losses, genesOwn, genesBelow };
}

/** Per decoded family row (rows are immutable and kept in the isolate's chunk cache): its history. */
const histories = new WeakMap<FamilyRow, FamilyHistory>();

/** The history of a family of the release, computed once per decoded family row. */
export function historyOf(family: FamilyRow, release: HogLevelsContext): FamilyHistory {
  let history = histories.get(family);
  if (!history) {
    const speciesOf = Int32Array.from(family.entries, (e) => release.genomeOfEntry(e).level);
    // The implied HOGs of the HOG routes' own cache (release/hogs.ts): computed once for both.
    histories.set(family, (history = familyHistory(family, speciesOf, release.manifest.taxonomy, impliedHogsOf(family, release))));
  }
  return history;
}
