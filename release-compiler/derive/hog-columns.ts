/**
 * A HOG family's tree as columns (FamilyBuild `tree`) rather than a HogNode object a node.
 *
 * Derive keeps every family for the whole compile (all in one set of these columns:
 * family-table.ts), and each task that writes from them reads them all back: at a million
 * proteins 1.06 M nodes cost ~190 bytes each as objects (205 MiB of derive's heap, the largest
 * thing in it), ~45 as columns. Each HOG id is stored once a family: the V8 serializer that
 * carries families to and from worker threads writes a string out every time it meets it, so
 * ids repeated per node would come back as copies. A consumer reads fields by node, or takes
 * the family's nodes as objects (`hogNodes`, built afresh and dropped with the family's work)
 * for the release format's tree queries, which the worker shares.
 */
import { DUPLICATION, SPECIATION, type HogNode } from "../../release-format/format.js";

/**
 * Ints a node takes in `HogTree.nodes`, and where each field is. A node's kind is not one: a
 * speciation has a HOG id and a duplication none (ID -1), so it follows (nodeKind).
 */
export const NODE_FIELDS = 5;
const PARENT = 0;
const LO = 1;
const HI = 2;
const LEVEL = 3;
const ID = 4;

export interface HogTree {
  /** NODE_FIELDS ints a node, in preorder: parent, lo, hi, level, its HOG id's index in `ids` (-1 for a duplication). */
  nodes: Int32Array;
  /** Node i's levels (HogNode `levels`) are `levels[levelStarts[i], levelStarts[i + 1])`. */
  levelStarts: Int32Array;
  levels: Int32Array;
  completeness: Float64Array;
  /** The family's HOG ids, in the order of their first nodes (its root's first). */
  ids: string[];
}

/** The tree of `nodes` as columns. */
export function hogTree(nodes: readonly HogNode[]): HogTree {
  const n = nodes.length;
  const columns = new Int32Array(n * NODE_FIELDS);
  const levelStarts = new Int32Array(n + 1);
  const completeness = new Float64Array(n);
  const ids: string[] = [];
  const idIndex = new Map<string, number>();
  let levelCount = 0;
  nodes.forEach((node, i) => {
    const at = i * NODE_FIELDS;
    columns[at + PARENT] = node.parent;
    columns[at + LO] = node.lo;
    columns[at + HI] = node.hi;
    columns[at + LEVEL] = node.level;
    let id = -1;
    if (node.kind === SPECIATION) {
      id = idIndex.get(node.id) ?? -1;
      if (id < 0) idIndex.set(node.id, (id = ids.push(node.id) - 1));
    }
    columns[at + ID] = id;
    completeness[i] = node.completeness;
    levelStarts[i] = levelCount;
    levelCount += node.levels.length;
  });
  levelStarts[n] = levelCount;
  const levels = new Int32Array(levelCount);
  nodes.forEach((node, i) => levels.set(node.levels, levelStarts[i]));
  return { nodes: columns, levelStarts, levels, completeness, ids };
}

export const nodeCount = (t: HogTree): number => t.completeness.length;
export const nodeLevel = (t: HogTree, i: number): number => t.nodes[i * NODE_FIELDS + LEVEL];
/** Node i's members: positions `[lo, hi)` of its family's members. */
export const nodeMembers = (t: HogTree, i: number): [number, number] => [t.nodes[i * NODE_FIELDS + LO], t.nodes[i * NODE_FIELDS + HI]];
/** Node i's HOG id as its index in `ids` (-1 for a duplication). */
export const nodeIdIndex = (t: HogTree, i: number): number => t.nodes[i * NODE_FIELDS + ID];
/** Node i's kind: a duplication is the node without a HOG id. */
export const nodeKind = (t: HogTree, i: number): HogNode["kind"] => (nodeIdIndex(t, i) < 0 ? DUPLICATION : SPECIATION);
/** Node i's HOG id ("" for a duplication). */
export const nodeId = (t: HogTree, i: number): string => {
  const id = nodeIdIndex(t, i);
  return id < 0 ? "" : t.ids[id];
};
/** Node i's levels, most ancient first (none for a duplication). */
export const nodeLevels = (t: HogTree, i: number): Int32Array => t.levels.subarray(t.levelStarts[i], t.levelStarts[i + 1]);

/** The levels of the nodes that carry the family's root HOG id (`ids[0]`), in preorder. */
export function rootIdLevels(t: HogTree): number[] {
  const out: number[] = [];
  for (let i = 0; i < nodeCount(t); i++) if (t.nodes[i * NODE_FIELDS + ID] === 0) out.push(...nodeLevels(t, i));
  return out;
}

/** The tree's nodes as objects, fields in HogNode's order (a family row is encoded with them). */
export function hogNodes(t: HogTree): HogNode[] {
  return Array.from({ length: nodeCount(t) }, (_, i): HogNode => {
    const at = i * NODE_FIELDS;
    return {
      kind: nodeKind(t, i),
      parent: t.nodes[at + PARENT],
      lo: t.nodes[at + LO],
      hi: t.nodes[at + HI],
      id: nodeId(t, i),
      level: t.nodes[at + LEVEL],
      levels: Array.from(nodeLevels(t, i)),
      completeness: t.completeness[i],
    };
  });
}
