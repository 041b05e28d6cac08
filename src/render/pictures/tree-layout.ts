/**
 * A taxonomy subtree laid out as an outline for drawing: one row per shown level, children
 * indented below their parent, within a number of rows. Past that size clades are folded
 * (drawn as one row); the clades on the way to the focus and the focus open first, then the heaviest
 * (most genes, most genomes) while they fit; a level with more children than fit shows the
 * heaviest of them and a row standing for the rest.
 */
import type { Taxonomy } from "../../../release-format/format.js";
import { childLevels } from "../../release/family-history.js";

type Tree = Pick<Taxonomy, "parents" | "genomes">;

export interface OutlineRow {
  /** The level of the row; for a row standing for hidden siblings, their parent level. */
  level: number;
  /** Depth below the outline's root (0 for the root). */
  depth: number;
  /** Row index of the parent row; -1 for the root. */
  parent: number;
  /** Children shown below it. */
  open: boolean;
  /** An internal level whose clade is folded into this row. */
  folded: boolean;
  /** Hidden sibling levels this row stands for (0: a row of its own level). */
  more: number;
  /** The last row below its parent (for the outline's connectors). */
  last: boolean;
}

export interface OutlineOptions {
  maxRows: number;
  /** Levels to show: their ancestors open (within the budget), and they open first. */
  focus?: readonly number[];
  /** Opening priority of a level, and the order of children that cannot all be shown: heavier first. */
  weight(level: number): number;
}

/** The rows of the subtree below `root`, in preorder. */
export function outlineRows(taxonomy: Tree, root: number, options: OutlineOptions): OutlineRow[] {
  const children = childLevels(taxonomy);
  const maxRows = Math.max(1, options.maxRows);
  const weight = new Map<number, number>();
  const weightOf = (l: number) => {
    let w = weight.get(l);
    if (w === undefined) weight.set(l, (w = options.weight(l)));
    return w;
  };
  // The focus and its ancestors below the root.
  const onPath = new Set<number>();
  const focus = new Set<number>();
  for (const f of options.focus ?? []) {
    const path: number[] = [];
    let l = f;
    for (; l >= 0 && l !== root; l = taxonomy.parents[l]) path.push(l);
    if (l !== root) continue;
    focus.add(f);
    for (const p of path.slice(1)) onPath.add(p);
    onPath.add(root);
  }

  /** Shown children of each open level (a subset when not all fit). */
  const shown = new Map<number, number[]>();
  const hiddenCount = new Map<number, number>();
  let rows = 1;
  const open = (level: number, force: boolean): boolean => {
    const kids = children[level];
    if (!kids.length || shown.has(level)) return false;
    const budget = maxRows - rows;
    if (kids.length <= budget) {
      shown.set(level, kids);
      rows += kids.length;
      return true;
    }
    if (!force || budget < 2) return false;
    // Part of them: the ones on the way to the focus, then the heaviest, and one row for the rest.
    const ranked = [...kids].sort((a, b) => Number(onPath.has(b) || focus.has(b)) - Number(onPath.has(a) || focus.has(a)) || weightOf(b) - weightOf(a) || a - b);
    const kept = new Set(ranked.slice(0, budget - 1));
    shown.set(level, kids.filter((k) => kept.has(k)));
    hiddenCount.set(level, kids.length - kept.size);
    rows += budget;
    return true;
  };

  // The way to the focus first, top down (a parent is always open before its children).
  const pathTopDown = [...onPath].sort((a, b) => depthOf(taxonomy, a) - depthOf(taxonomy, b));
  open(root, true);
  for (const level of pathTopDown) if (shown.get(taxonomy.parents[level])?.includes(level)) open(level, true);
  // The focus itself opens next, in part when its children do not all fit.
  for (const level of focus) if (level === root || shown.get(taxonomy.parents[level])?.includes(level)) open(level, true);
  // Then the heaviest folded rows while their children fit.
  const refused = new Set<number>();
  for (;;) {
    let best = -1;
    for (const kids of shown.values()) {
      for (const k of kids) {
        if (shown.has(k) || refused.has(k) || !children[k].length) continue;
        if (best < 0 || rank(k) > rank(best) || (rank(k) === rank(best) && k < best)) best = k;
      }
    }
    if (best < 0) break;
    if (!open(best, false)) refused.add(best);
  }
  function rank(l: number): number {
    return focus.has(l) ? Number.MAX_SAFE_INTEGER : weightOf(l);
  }

  const out: OutlineRow[] = [];
  const emit = (level: number, depth: number, parent: number, last: boolean) => {
    const at = out.length;
    const kids = shown.get(level);
    out.push({ level, depth, parent, open: !!kids, folded: !kids && children[level].length > 0, more: 0, last });
    if (!kids) return;
    const hidden = hiddenCount.get(level) ?? 0;
    kids.forEach((k, i) => emit(k, depth + 1, at, i === kids.length - 1 && hidden === 0));
    if (hidden) out.push({ level, depth: depth + 1, parent: at, open: false, folded: false, more: hidden, last: true });
  };
  emit(root, 0, -1, true);
  return out;
}

function depthOf(taxonomy: Tree, level: number): number {
  let d = 0;
  for (let l = taxonomy.parents[level]; l >= 0; l = taxonomy.parents[l]) d++;
  return d;
}

/** Genomes at or below each level of a taxonomy. */
const genomeCounts = new WeakMap<Tree, Int32Array>();
export function genomesBelow(taxonomy: Tree): Int32Array {
  let counts = genomeCounts.get(taxonomy);
  if (!counts) {
    counts = new Int32Array(taxonomy.parents.length);
    taxonomy.genomes.forEach((g, level) => {
      if (g >= 0) for (let l = level; l >= 0; l = taxonomy.parents[l]) counts![l]++;
    });
    genomeCounts.set(taxonomy, counts);
  }
  return counts;
}
