/**
 * The worker's HOG-derived orthologs (src/release/hog-orthologs.ts), computed per protein from
 * its family row, against the compiler's pair derivation (`familyPairs`) over every member of
 * every family of the compiled simulated release, read back from disk as the worker reads it.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hogTree } from "../../release-compiler/derive/hog-columns.js";
import { familyPairs } from "../../release-compiler/derive/pairs.js";
import type { FamilyRow, Manifest } from "../../release-format/format.js";
import { hogOrthologs } from "../../src/release/hog-orthologs.js";
import { allRows, openedManifest } from "../release-folder.js";
import { hasSharedData } from "../shared-data.js";
import { TEST_BUILD } from "./serve.js";

async function families(name: string): Promise<{ manifest: Manifest; families: FamilyRow[] }> {
  const dir = join(TEST_BUILD, name);
  const manifest = await openedManifest(dir);
  const rows = await allRows(dir, (m) => m.tables.families);
  return { manifest, families: rows };
}

const MIRROR: Record<string, string> = { "1:1": "1:1", "1:n": "m:1", "m:1": "1:n", "m:n": "m:n" };

describe.each(["sim", ...(hasSharedData ? ["primates", "bacteria3"] : [])])("HOG-derived orthologs on %s", (name) => {
  it("equal the compiler's familyPairs for every member of every family, types seen from the query", async () => {
    const { manifest, families: rows } = await families(name);
    const genomeOf = (entry: number) => manifest.genomes.findIndex((g) => entry >= g.firstEntry && entry < g.firstEntry + g.nrEntries);
    let proteins = 0;
    let pairs = 0;
    const types = new Set<string>();
    for (const family of rows) {
      const build = { ...family, index: family.family, tree: hogTree(family.nodes), members: Int32Array.from(family.entries), memberNode: new Int32Array() };
      // Expected partners of each member, with the type from its side.
      const expected = new Map<number, Array<[number, string]>>();
      const add = (a: number, b: number, type: string) => expected.set(a, [...(expected.get(a) ?? []), [b, type]]);
      for (const p of familyPairs(build, genomeOf)) {
        if (!(p.relType in MIRROR)) continue; // close paralogs, homoeologs: not orthologs
        add(p.entry1, p.entry2, p.relType);
        add(p.entry2, p.entry1, MIRROR[p.relType]);
      }
      for (const entry of family.entries) {
        const got = hogOrthologs(family, entry, genomeOf).map((o): [number, string] => [o.entry, o.relType]);
        const want = (expected.get(entry) ?? []).sort((a, b) => a[0] - b[0]);
        expect(got, `${family.rootId}: entry ${entry}`).toEqual(want);
        proteins += 1;
        pairs += got.length;
        for (const [, t] of got) types.add(t);
      }
    }
    expect(proteins).toBeGreaterThan(name === "bacteria3" ? 10 : 1000);
    expect(pairs).toBeGreaterThan(proteins);
    if (name !== "bacteria3") expect([...types].sort()).toEqual(["1:1", "1:n", "m:1", "m:n"]);
  });

  it("gives nothing for a protein outside the family", async () => {
    const { families: rows } = await families(name);
    expect(hogOrthologs(rows[0], -1, () => 0)).toEqual([]);
  });
});
