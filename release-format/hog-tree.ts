import { SPECIATION, type FamilyRow, type Taxonomy } from "./format.js";
import { impliedHogs, mostAncientFirst, type ImpliedHog } from "./hog-levels.js";

/**
 * Queries on a HOG family tree. A HOG id may stand on several nodes (a chain of speciations
 * with no duplication between them) and each node on several levels; (id, level) names at
 * most one node. The worker answers HOG routes with them, and the compiler makes the HOG cards
 * of wide families with them (release-compiler/derive/hog-cards.ts), so both say the same.
 */

/** A family's tree: a family row, or the compiler's family as it builds one. */
type Tree = Pick<FamilyRow, "nodes">;

/** Per family: each HOG id's nodes (top first) and levels (most ancient first). */
const idIndexes = new WeakMap<Tree, Map<string, { nodes: number[]; levels: number[] }>>();

/**
 * The id index of a family, built once per decoded family row: rows are immutable and kept
 * in the isolate's chunk cache, so requests on the same family do not rescan its nodes.
 */
function idIndex(f: Tree): Map<string, { nodes: number[]; levels: number[] }> {
  let index = idIndexes.get(f);
  if (!index) {
    index = new Map();
    f.nodes.forEach((n, i) => {
      if (n.kind !== SPECIATION) return;
      const entry = index!.get(n.id) ?? { nodes: [], levels: [] };
      entry.nodes.push(i);
      entry.levels.push(...n.levels);
      index!.set(n.id, entry);
    });
    idIndexes.set(f, index);
  }
  return index;
}

/** The family's HOG ids, in the order of their first nodes (its root's first). */
export function hogIdsOf(f: Tree): string[] {
  return [...idIndex(f).keys()];
}

/** Speciation nodes carrying `id`, top first. */
export function nodesWithId(f: FamilyRow, id: string): number[] {
  return idIndex(f).get(id)?.nodes ?? [];
}

/**
 * Every level on which a node stands for the id, most ancient first (see mostAncientFirst: an
 * id's nodes may lie on several lineages, so their levels are ordered over the taxonomy).
 */
export function levelsOfId(f: FamilyRow, id: string, taxonomy: Pick<Taxonomy, "parents">): number[] {
  return mostAncientFirst(idIndex(f).get(id)?.levels ?? [], taxonomy);
}

/** What implied HOGs need of the release: its taxonomy and each entry's genome. */
export interface HogLevelsContext {
  manifest: { taxonomy: Pick<Taxonomy, "parents" | "genomes"> };
  genomeOfEntry(entry: number): { level: number };
}

/** Per family: its implied HOGs (release-format/hog-levels.ts) and an index by (level, id). */
const impliedIndexes = new WeakMap<FamilyRow, { all: ImpliedHog[]; byKey: Map<string, ImpliedHog> }>();

function impliedIndex(f: FamilyRow, release: HogLevelsContext) {
  let index = impliedIndexes.get(f);
  if (!index) {
    const speciesLevels = f.entries.map((e) => release.genomeOfEntry(e).level);
    const all = impliedHogs(f.nodes, speciesLevels, release.manifest.taxonomy);
    index = { all, byKey: new Map(all.map((h) => [`${h.level} ${h.id}`, h])) };
    impliedIndexes.set(f, index);
  }
  return index;
}

/**
 * The HOGs of a family on the levels between a gene's own node and its species (the species
 * level included), where no node stands: by anchor node, then level.
 */
export function impliedHogsOf(f: FamilyRow, release: HogLevelsContext): ImpliedHog[] {
  return impliedIndex(f, release).all;
}

/** The implied HOG of `id` on `level`, if the id has one there. */
export function impliedHog(f: FamilyRow, release: HogLevelsContext, id: string, level: number): ImpliedHog | undefined {
  return impliedIndex(f, release).byKey.get(`${level} ${id}`);
}

/** The speciation node at or above `node` that stands on `level`. */
export function nodeOnLevel(f: FamilyRow, node: number, level: number): number | undefined {
  for (let i = node; i >= 0; i = f.nodes[i].parent) {
    const n = f.nodes[i];
    if (n.kind === SPECIATION && n.levels.includes(level)) return i;
  }
  return undefined;
}

/** True when `a` equals `b` or `b` extends `a` at a `.` boundary. */
export function isPrefixId(a: string, b: string): boolean {
  return a === b || b.startsWith(`${a}.`);
}

/** Ids of the HOGs above a node across duplications, the root first. */
export function parentIds(f: FamilyRow, node: number): string[] {
  const own = f.nodes[node].id;
  const out: string[] = [];
  for (let i = f.nodes[node].parent; i >= 0; i = f.nodes[i].parent) {
    const n = f.nodes[i];
    if (n.kind === SPECIATION && n.id !== own && !out.includes(n.id)) out.unshift(n.id);
  }
  return out;
}

/** Ids of the nearest HOGs below a node across a duplication, in tree order. */
export function childIds(f: FamilyRow, node: number): string[] {
  const own = f.nodes[node].id;
  const out: string[] = [];
  // Preorder: the subtree of `node` is the run of nodes after it whose members lie inside its range.
  for (let i = node + 1; i < f.nodes.length && f.nodes[i].lo < f.nodes[node].hi; i++) {
    const n = f.nodes[i];
    if (n.kind !== SPECIATION || n.id === own || out.includes(n.id)) continue;
    let nearest = true;
    for (let j = n.parent; j !== node && j >= 0; j = f.nodes[j].parent) {
      if (f.nodes[j].kind === SPECIATION && f.nodes[j].id !== own) nearest = false;
    }
    if (nearest) out.push(n.id);
  }
  return out;
}

/**
 * What a HOG record says of one HOG (a node seen on a level, or an implied HOG anchored at it:
 * the same id and parents, no children, its own completeness), its links and family aside.
 */
export interface HogRecordData {
  id: string;
  level: number;
  completeness: number;
  parents: string[];
  children: string[];
}

export function hogRecordData(f: FamilyRow, node: number, level: number, implied?: ImpliedHog): HogRecordData {
  const n = f.nodes[node];
  return {
    id: n.id,
    level,
    completeness: implied ? implied.completeness : n.completeness,
    parents: parentIds(f, node),
    children: implied ? [] : childIds(f, node),
  };
}

/** A HOG on one level: a speciation node standing on it, or an implied HOG anchored at `node`. */
export interface OnLevel {
  id: string;
  node: number;
  implied?: ImpliedHog;
}

const byLevelIndexes = new WeakMap<FamilyRow, Map<number, OnLevel[]>>();

/**
 * Every HOG of a family by level, in tree order: on each level, each node standing on it
 * followed by the implied HOGs anchored at that node (the order of the HOG list and of a
 * level query's answer).
 */
export function hogsByLevel(f: FamilyRow, release: HogLevelsContext): Map<number, OnLevel[]> {
  let index = byLevelIndexes.get(f);
  if (!index) {
    index = new Map();
    const add = (level: number, hog: OnLevel) => {
      const list = index!.get(level);
      if (list) list.push(hog);
      else index!.set(level, [hog]);
    };
    const implied = impliedHogsOf(f, release);
    let k = 0;
    f.nodes.forEach((n, i) => {
      if (n.kind === SPECIATION) for (const level of n.levels) add(level, { id: n.id, node: i });
      for (; k < implied.length && implied[k].node === i; k++) add(implied[k].level, { id: implied[k].id, node: i, implied: implied[k] });
    });
    byLevelIndexes.set(f, index);
  }
  return index;
}

/**
 * The HOGs a level query of `id` lists (`/api/hog/{id}/?level=…`): those on `level` whose id
 * is `id`, one it extends or one extending it, in tree order.
 */
export function relatedOnLevel(f: FamilyRow, release: HogLevelsContext, id: string, level: number): OnLevel[] {
  return (hogsByLevel(f, release).get(level) ?? []).filter((h) => isPrefixId(h.id, id) || isPrefixId(id, h.id));
}
