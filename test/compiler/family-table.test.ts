/**
 * The HOG families in one set of columns (release-compiler/derive/family-table.ts): each family
 * read back from the table is the family added, field by field and node by node; every HOG id
 * finds its family; an id two families give stays the first's and is told; a family copied out
 * for another thread holds nothing of the table; a snapshot gives the table back.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SPECIATION } from "../../release-format/format.js";
import {
  familiesOf,
  familyAt,
  familyMembers,
  familyOfHogId,
  FamilyTableBuilder,
  familyTable,
  hogIdFamilies,
  ownFamily,
  rootIdOf,
  type FamilyTable,
} from "../../release-compiler/derive/family-table.js";
import { hogNodes, hogTree, NODE_FIELDS, nodeLevels } from "../../release-compiler/derive/hog-columns.js";
import type { FamilyBuild } from "../../release-compiler/derive/hogs.js";
import { loadSnapshot, saveSnapshot } from "../../release-compiler/snapshot.js";
import { syntheticFamily } from "../synthetic-family.js";

/** Families of the synthetic generator, renumbered: HOG ids of their own, entries apart, trees of different shapes and sizes. */
function families(count: number): FamilyBuild[] {
  let firstEntry = 0;
  return Array.from({ length: count }, (_, k) => {
    const { family } = syntheticFamily(4 + ((k * 7) % 29), 0.25, 0.05, k + 1);
    const rename = (id: string) => id.replace(/^HOG:[A-Z]*\d+/, `HOG:${String(k + 1).padStart(7, "0")}`);
    const nodes = family.nodes.map((n) => ({ ...n, id: n.kind === SPECIATION ? rename(n.id) : "" }));
    const members = Int32Array.from(family.entries, (e) => e + firstEntry);
    firstEntry += family.entries.length;
    // Each member's own node: the deepest node covering it (what buildFamily gives).
    const memberNode = Int32Array.from(members, (_, m) => nodes.reduce((own, n, i) => (n.lo <= m && m < n.hi ? i : own), 0));
    return { index: k + 1, rootId: nodes[0].id, rootHog: k + 1, tree: hogTree(nodes), members, memberNode };
  });
}

/** What a family is, in plain values: the same for a family built and one read from a table. */
const plain = (f: FamilyBuild) => ({
  index: f.index,
  rootId: f.rootId,
  rootHog: f.rootHog,
  members: Array.from(f.members),
  memberNode: Array.from(f.memberNode),
  ids: [...f.tree.ids],
  nodes: hogNodes(f.tree),
  levels: hogNodes(f.tree).map((_, i) => Array.from(nodeLevels(f.tree, i))),
});

describe("the family table", () => {
  const built = families(60);
  const table = familyTable(built);

  it("gives back every family as added, its members, nodes, levels and ids", () => {
    expect(table.count).toBe(60);
    expect([...familiesOf(table)].map(plain)).toEqual(built.map(plain));
    for (const f of built) {
      expect(rootIdOf(table, f.index)).toBe(f.rootId);
      expect(Array.from(familyMembers(table, f.index))).toEqual(Array.from(f.members));
    }
    expect(() => familyAt(table, 0)).toThrow(RangeError);
    expect(() => familyAt(table, 61)).toThrow(RangeError);
  });

  it("holds one array of each kind for all families, as long as they need", () => {
    const nodes = built.reduce((n, f) => n + f.tree.completeness.length, 0);
    expect(table.members.length).toBe(built.reduce((n, f) => n + f.members.length, 0));
    expect(table.nodes.length).toBe(nodes * NODE_FIELDS);
    expect(table.levelStarts.length).toBe(nodes + 1);
    expect(table.memberStarts.length).toBe(61);
    // A family's arrays are views into the table's.
    expect(familyAt(table, 30).members.buffer).toBe(table.members.buffer);
  });

  it("finds every HOG id's family, and lists them in the order of the families", () => {
    const expected = built.flatMap((f) => f.tree.ids.map((id): [string, number] => [id, f.index]));
    expect(table.hogIds.count).toBe(expected.length);
    expect([...hogIdFamilies(table)]).toEqual(expected);
    for (const [id, family] of expected) expect(familyOfHogId(table, id)).toBe(family);
    expect(familyOfHogId(table, "HOG:9999999")).toBeUndefined();
  });

  it("tells an id that an earlier family has, which keeps it, and reads the later family whole", () => {
    const builder = new FamilyTableBuilder();
    const [a, b] = families(2);
    expect(builder.add(a)).toEqual([]);
    // b gives a's root id to one of its own nodes.
    const clash = b.tree.ids[1];
    const nodes = hogNodes(b.tree).map((n) => (n.id === clash ? { ...n, id: a.rootId } : n));
    const c: FamilyBuild = { ...b, tree: hogTree(nodes) };
    expect(builder.add(c)).toEqual([[a.rootId, 1]]);
    expect(builder.rootIdOf(2)).toBe(b.rootId);
    expect(() => builder.add(a)).toThrow(/family 1 added as family 3/);
    const t = builder.finish();
    expect(familyOfHogId(t, a.rootId)).toBe(1);
    expect(plain(familyAt(t, 2))).toEqual(plain(c));
  });

  it("copies a family out with arrays of its own, which another thread reads as the family", () => {
    const view = familyAt(table, 17);
    const own = ownFamily(view);
    for (const a of [own.members, own.memberNode, own.tree.nodes, own.tree.levelStarts, own.tree.levels, own.tree.completeness]) expect(a.byteLength).toBe(a.buffer.byteLength);
    expect(own.tree.levelStarts[0]).toBe(0);
    const posted = structuredClone(own);
    expect(plain(posted)).toEqual(plain(built[16]));
  });

  it("comes back from a snapshot as itself", () => {
    const folder = mkdtempSync(join(tmpdir(), "orth-family-table-"));
    try {
      saveSnapshot(join(folder, "output.v8"), { families: table });
      const back = loadSnapshot<{ families: FamilyTable }>(join(folder, "output.v8")).families;
      expect([...familiesOf(back)].map(plain)).toEqual(built.map(plain));
      expect(familyOfHogId(back, built[41].tree.ids.at(-1)!)).toBe(42);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
