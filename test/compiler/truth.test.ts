/**
 * What the compiler derives from a simulated release, compared with the simulator's record
 * of the true evolution: HOG ids, ortholog pairs and their types, close paralogs, groups.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { hogTree } from "../../release-compiler/derive/hog-columns.js";
import { familyPairs } from "../../release-compiler/derive/pairs.js";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { folderFiles } from "../../release-compiler/local/r2-loader.js";
import { releasePacks } from "../../release-compiler/local/release-packs.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { releaseTrees, walkTree } from "../../release-format/directory.js";
import type { DirectoryPage, FamilyRow, GroupRow, ProteinRow, TableRef } from "../../release-format/format.js";

/** A compiled release read back from disk, the way the worker reads it (chunks checked against their hashes). */
async function openCompiled(dir: string) {
  const release = await openReleaseFolder(dir);
  const rows = async <Row>(table: TableRef<Row>): Promise<Row[]> => {
    const out: Row[] = [];
    for await (const row of await release.rows(table, 0, table.rows)) out.push(row);
    return out;
  };
  /** Data chunks of every tree of the release, by tree name. */
  const chunkCounts = async (): Promise<Record<string, number>> => {
    const counts: Record<string, number> = {};
    for (const [name, tree] of releaseTrees(release.manifest)) {
      counts[name] = 0;
      await walkTree(tree, (ref) => release.chunk<DirectoryPage>(ref), (_, isPage) => void (isPage || counts[name]++));
    }
    return counts;
  };
  const packs = async () => (await releasePacks(await folderFiles(dir))).packs;
  return { manifest: release.manifest, rows, chunkCounts, packs };
}

const tsv = (path: string) =>
  readFileSync(path, "utf8").trimEnd().split("\n").slice(1).map((l) => l.split("\t"));

describe("a simulated release against its truth", () => {
  let input: string;
  let release: Awaited<ReturnType<typeof openCompiled>>;
  let proteins: ProteinRow[];
  let entryOf: Map<string, number>;
  let idOf: (entry: number) => string;

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-truth-"));
    input = join(dir, "input");
    await simulateRelease({ out: input, genomes: 12, families: 250, seed: 3, name: "Truth.Test" });
    await compileRelease(join(input, "release.json"), join(dir, "release"));
    release = await openCompiled(join(dir, "release"));
    proteins = await release.rows(release.manifest.tables.proteins);
    entryOf = new Map(proteins.map((p) => [p.canonicalId, p.entry]));
    idOf = (e) => proteins[e - 1].canonicalId;
  });

  it("gives every protein its true HOG id, with the release letter", () => {
    const truth = tsv(join(input, "truth/hogs.tsv"));
    expect(truth.length).toBeGreaterThan(1000);
    for (const [protein, , hogId] of truth) {
      expect(proteins[entryOf.get(protein)! - 1].hog, protein).toBe(hogId.replace("HOG:", "HOG:S"));
    }
    const inHogs = new Set(truth.map(([p]) => p));
    for (const p of proteins) if (!inHogs.has(p.canonicalId)) expect(p.hog).toBe("");
  });

  it("derives exactly the true ortholog pairs with their relation types, and the true close paralogs", async () => {
    const genomeOf = (e: number) => release.manifest.genomes.findIndex((g) => e >= g.firstEntry && e < g.firstEntry + g.nrEntries);
    const derived = new Map<string, string>();
    for (const family of await release.rows(release.manifest.tables.families)) {
      const build = { ...family, index: family.family, tree: hogTree(family.nodes), members: Int32Array.from(family.entries), memberNode: new Int32Array() };
      for (const p of familyPairs(build, genomeOf)) derived.set(`${idOf(p.entry1)}\t${idOf(p.entry2)}`, p.relType);
    }
    const orthologs = tsv(join(input, "truth/orthologs.tsv"));
    expect(orthologs.length).toBeGreaterThan(10_000);
    const derivedOrthologs = [...derived].filter(([, t]) => t !== "close paralog");
    expect(derivedOrthologs.length).toBe(orthologs.length);
    for (const [a, b, relType] of orthologs) expect(derived.get(`${a}\t${b}`), `${a} ${b}`).toBe(relType);

    // Close paralogs are the true in-genome paralogs whose duplication is younger than the genome's last speciation.
    const paralogs = new Set(tsv(join(input, "truth/paralogs.tsv")).map(([a, b]) => `${a}\t${b}`));
    const close = [...derived].filter(([, t]) => t === "close paralog").map(([k]) => k);
    expect(close.length).toBeGreaterThan(0);
    for (const pair of close) expect(paralogs.has(pair), pair).toBe(true);
  });

  it("derives groups whose members are pairwise true orthologs, one per genome", async () => {
    const orthologs = new Set(tsv(join(input, "truth/orthologs.tsv")).map(([a, b]) => `${a}\t${b}`));
    const groups = await release.rows<GroupRow>(release.manifest.tables.groups);
    expect(groups.length).toBeGreaterThan(100);
    for (const g of groups) {
      const ids = g.members.map((m) => m.canonicalId);
      for (let i = 0; i < ids.length; i++) {
        for (let j = i + 1; j < ids.length; j++) {
          expect(orthologs.has(`${ids[i]}\t${ids[j]}`) || orthologs.has(`${ids[j]}\t${ids[i]}`), `${g.nr}: ${ids[i]} ${ids[j]}`).toBe(true);
        }
      }
      expect(new Set(g.members.map((m) => release.manifest.genomes.findIndex((x) => m.entry >= x.firstEntry && m.entry < x.firstEntry + x.nrEntries))).size).toBe(ids.length);
    }
  });

  it("generates the same HOG ids when the orthoXML carries none", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-noids-"));
    await simulateRelease({ out: join(dir, "input"), genomes: 12, families: 250, seed: 3, name: "Truth.Test", hogIds: false });
    expect(readFileSync(join(dir, "input/hogs.orthoxml"), "utf8")).not.toContain("HOG:");
    await compileRelease(join(dir, "input/release.json"), join(dir, "release"));
    const generated = await openCompiled(join(dir, "release"));
    const ids = async (r: typeof release) => (await r.rows<FamilyRow>(r.manifest.tables.families)).map((f) => f.nodes.map((n) => n.id));
    expect(await ids(generated)).toEqual(await ids(release));
    expect(await generated.chunkCounts()).toEqual(await release.chunkCounts());
    expect((await generated.packs()).length).toBe((await release.packs()).length);
  });
});
