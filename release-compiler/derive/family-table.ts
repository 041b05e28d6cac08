/**
 * Every HOG family of a release in one set of columns (ReleaseBuild `families`), where there
 * was a FamilyBuild object a family, with typed arrays of its own, and a map of every HOG id to
 * its family.
 *
 * Derive keeps the families for the whole compile, and each writing task that reads them loads
 * them all. At a million proteins (8,587 families, 1.06 M nodes, 299,323 HOG ids) the objects
 * held 122 MiB and the id map 25 MiB: the arrays' bytes are 51 MiB of that, the rest is what
 * 43,000 small typed arrays and their buffers, a number[] of members and a string a HOG id cost
 * beside them. Here the arrays are one of each for all families and the ids one IdIndex: 66 MiB.
 *
 * A family is read as a FamilyBuild whose arrays are views into the columns (`familyAt`,
 * `familiesOf`): made when asked for and dropped with the work on it. `ownFamily` copies one out
 * for another thread (posting a view would copy the whole column).
 */
import { IdIndex } from "../packed-strings.js";
import { GrowingFloats, GrowingInts } from "../write/growing.js";
import { NODE_FIELDS, type HogTree } from "./hog-columns.js";
import type { FamilyBuild } from "./hogs.js";

export interface FamilyTable {
  count: number;
  /** Per family − 1. */
  rootHog: Int32Array;
  /** Family f's members are `members[memberStarts[f − 1], memberStarts[f])`, and their nodes `memberNode` likewise. */
  memberStarts: Int32Array;
  members: Int32Array;
  memberNode: Int32Array;
  /** Family f's nodes are nodeStarts[f − 1] .. nodeStarts[f] − 1: HogTree's columns, `levelStarts` into all the `levels`. */
  nodeStarts: Int32Array;
  nodes: Int32Array;
  levelStarts: Int32Array;
  levels: Int32Array;
  completeness: Float64Array;
  /** Every HOG id, numbered in the order of the families. */
  hogIds: IdIndex;
  /** Family f's ids (its tree's `ids`) are the numbers `idNumbers[idStarts[f − 1], idStarts[f])` of `hogIds`. */
  idStarts: Int32Array;
  idNumbers: Int32Array;
  /** Per HOG id number − 1: its family (the first that has it). */
  idFamily: Int32Array;
}

/** The table, as families are added in order; `finish` gives it. */
export class FamilyTableBuilder {
  private rootHog = new GrowingInts();
  private memberStarts = startsAtZero();
  private members = new GrowingInts();
  private memberNode = new GrowingInts();
  private nodeStarts = startsAtZero();
  private nodes = new GrowingInts();
  private levelStarts = new GrowingInts();
  private levels = new GrowingInts();
  private completeness = new GrowingFloats();
  private hogIds = new IdIndex();
  private idStarts = startsAtZero();
  private idNumbers = new GrowingInts();
  private idFamily = new GrowingInts();

  get count(): number {
    return this.rootHog.length;
  }

  /**
   * Appends family `f`, whose index must be count + 1. Returns the ids of it that an earlier
   * family has, with that family's index (a problem of the input: the earlier keeps the id).
   */
  add(f: FamilyBuild): Array<[string, number]> {
    if (f.index !== this.count + 1) throw new Error(`family ${f.index} added as family ${this.count + 1}`);
    const t = f.tree;
    this.rootHog.push(f.rootHog);
    this.members.append(f.members);
    this.memberNode.append(f.memberNode);
    this.memberStarts.push(this.members.length);
    const levelBase = this.levels.length;
    const nodeCount = t.completeness.length;
    for (let i = 0; i < nodeCount; i++) this.levelStarts.push(levelBase + t.levelStarts[i]);
    this.levels.append(t.levels);
    this.nodes.append(t.nodes);
    this.completeness.append(t.completeness);
    this.nodeStarts.push(this.completeness.length);
    const taken: Array<[string, number]> = [];
    for (const id of t.ids) {
      const before = this.hogIds.count;
      const n = this.hogIds.add(id);
      if (n > before) this.idFamily.push(f.index);
      else taken.push([id, this.idFamily.values[n - 1]]);
      this.idNumbers.push(n);
    }
    this.idStarts.push(this.idNumbers.length);
    return taken;
  }

  /** Family `index`'s root HOG id (its first id), for a family added already. */
  rootIdOf(index: number): string {
    return this.hogIds.idOf(this.idNumbers.values[this.idStarts.values[index - 1]]);
  }

  /** The table; the builder is not used after. */
  finish(): FamilyTable {
    this.levelStarts.push(this.levels.length);
    return {
      count: this.count,
      rootHog: this.rootHog.done(),
      memberStarts: this.memberStarts.done(),
      members: this.members.done(),
      memberNode: this.memberNode.done(),
      nodeStarts: this.nodeStarts.done(),
      nodes: this.nodes.done(),
      levelStarts: this.levelStarts.done(),
      levels: this.levels.done(),
      completeness: this.completeness.done(),
      hogIds: this.hogIds,
      idStarts: this.idStarts.done(),
      idNumbers: this.idNumbers.done(),
      idFamily: this.idFamily.done(),
    };
  }
}

/** The table of `families`, in order (index 1, 2, …); the ids an earlier family has stay its. */
export function familyTable(families: Iterable<FamilyBuild>): FamilyTable {
  const builder = new FamilyTableBuilder();
  for (const f of families) builder.add(f);
  return builder.finish();
}

function startsAtZero(): GrowingInts {
  const starts = new GrowingInts();
  starts.push(0);
  return starts;
}

/** Family `index` (1-based), its arrays views into the table's. */
export function familyAt(t: FamilyTable, index: number): FamilyBuild {
  if (!(index >= 1 && index <= t.count)) throw new RangeError(`family ${index} is not among the ${t.count}`);
  const [m0, m1] = [t.memberStarts[index - 1], t.memberStarts[index]];
  const [n0, n1] = [t.nodeStarts[index - 1], t.nodeStarts[index]];
  const [i0, i1] = [t.idStarts[index - 1], t.idStarts[index]];
  let ids: string[] | undefined;
  const tree: HogTree = {
    nodes: t.nodes.subarray(n0 * NODE_FIELDS, n1 * NODE_FIELDS),
    levelStarts: t.levelStarts.subarray(n0, n1 + 1),
    levels: t.levels,
    completeness: t.completeness.subarray(n0, n1),
    // Made when first read: most work on a family reads its ids through its nodes, if at all.
    get ids() {
      return (ids ??= Array.from(t.idNumbers.subarray(i0, i1), (n) => t.hogIds.idOf(n)));
    },
  };
  return {
    index,
    rootId: rootIdOf(t, index),
    rootHog: t.rootHog[index - 1],
    tree,
    members: t.members.subarray(m0, m1),
    memberNode: t.memberNode.subarray(m0, m1),
  };
}

/** The families in order, each made as it is reached (familyAt). */
export function* familiesOf(t: FamilyTable): Generator<FamilyBuild> {
  for (let f = 1; f <= t.count; f++) yield familyAt(t, f);
}

/** Family `index`'s root HOG id (its first id). */
export const rootIdOf = (t: FamilyTable, index: number): string => t.hogIds.idOf(t.idNumbers[t.idStarts[index - 1]]);

/** Family `index`'s members. */
export const familyMembers = (t: FamilyTable, index: number): Int32Array => t.members.subarray(t.memberStarts[index - 1], t.memberStarts[index]);

/** The family of HOG id `id`, or undefined. */
export function familyOfHogId(t: FamilyTable, id: string): number | undefined {
  const n = t.hogIds.numberOf(id);
  return n === undefined ? undefined : t.idFamily[n - 1];
}

/** Every HOG id with its family, in the order of the families. */
export function* hogIdFamilies(t: FamilyTable): Generator<[string, number]> {
  let n = 0;
  for (const id of t.hogIds) yield [id, t.idFamily[n++]];
}

/**
 * A copy of `f` that holds nothing of a table, to post to another thread: its arrays its own
 * (levels counted from 0) and its ids a plain array.
 */
export function ownFamily(f: FamilyBuild): FamilyBuild {
  const t = f.tree;
  const nodeCount = t.completeness.length;
  const [l0, l1] = [t.levelStarts[0], t.levelStarts[nodeCount]];
  return {
    index: f.index,
    rootId: f.rootId,
    rootHog: f.rootHog,
    tree: {
      nodes: t.nodes.slice(),
      levelStarts: t.levelStarts.map((s) => s - l0),
      levels: t.levels.slice(l0, l1),
      completeness: t.completeness.slice(),
      ids: [...t.ids],
    },
    members: f.members.slice(),
    memberNode: f.memberNode.slice(),
  };
}
