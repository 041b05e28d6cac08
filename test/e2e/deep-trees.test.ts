/**
 * Deep trees and the chunks beside a protein (FORMAT.md, "Chunks beside a protein"): at public
 * scale the tables have directory pages below their roots (proteins at depth 2, sequences and
 * relations at depth 3 at 20 million proteins), and a protein's answer would pay a page per
 * table and level. Its proteins chunk names the chunks of its sequence, annotations, relations
 * and family instead. The simulated release compiled with pages of 8 entries and roots of 8
 * has those depths at a few thousand proteins: it must answer exactly as the release of the
 * usual layout, answer by answer, and read the proteins chunk and one chunk per other table,
 * whatever those tables' depths: the proteins and the id indexes are slotted trees, whose
 * chunks are found by arithmetic in runs of several slots each (release-format/slots.ts).
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { runChunks } from "../../release-format/directory.js";
import { BESIDE_TABLES, MEMBER_SLICE, type FamilyRow, type ProteinRow, type Relation } from "../../release-format/format.js";
import { isPrefixId } from "../../release-format/hog-tree.js";
import type { Release } from "../../src/release/release.js";
import { answerSample, appOver, expectSameAnswers, sample } from "../answer-comparison.js";
import { TEST_BUILD } from "../build-dir.js";
import { compileSimulatedWith } from "../layout-variant.js";
import { allRows } from "../release-folder.js";

const DEEP = resolve(TEST_BUILD, "sim-deep");
const SIM = resolve(TEST_BUILD, "sim");

describe("deep trees: a protein's other rows found beside its proteins chunk", () => {
  let usual: Release;
  let deep: Release;

  beforeAll(async () => {
    // HOG cards for families of more than 20 nodes, in chunks of 1 kB: card tables deep enough to have pages.
    await compileSimulatedWith({ pageEntries: 8, rootEntries: 8, slottedRootRuns: 8, hogCardsFromNodes: 20, hogCardsChunkBytes: 1024 }, DEEP);
    [usual, deep] = await Promise.all([openReleaseFolder(SIM), openReleaseFolder(DEEP)]);
  }, 120_000);
  afterAll(() => rmSync(DEEP, { recursive: true, force: true }));

  it("has the depths of a public release: pages below the roots of every table a protein needs", () => {
    const { tables } = deep.manifest;
    const depths = Object.fromEntries(BESIDE_TABLES.map((name) => [name, tables[name].tree.depth]));
    // The proteins and the id indexes are slotted (no pages whatever their size), in runs of several slots each.
    for (const [name, tree] of [["proteins", tables.proteins.tree], ...Object.entries(deep.manifest.indexes).map(([n, index]) => [n, index.tree] as const)] as const) {
      expect(tree.depth, name).toBe(1);
      expect(tree.slotted, name).toBeDefined();
      expect(tree.root.starts.length, name).toBeLessThanOrEqual(8);
    }
    expect(runChunks(tables.proteins.tree, 0)).toBeGreaterThan(4);
    expect(runChunks(deep.manifest.indexes.entryIds.tree, 0)).toBeGreaterThan(1);
    for (const name of BESIDE_TABLES) expect(depths[name], name).toBeGreaterThanOrEqual(2);
    expect(Math.max(...Object.values(depths))).toBeGreaterThanOrEqual(3);
    for (const [name, table] of Object.entries(usual.manifest.tables)) expect(table.tree.depth, name).toBe(1);
  });

  it("answers as the release of the usual layout, answer by answer", async () => {
    const probes = await answerSample(usual, { proteins: 12, groups: 12, families: 4 });
    expect(probes.length).toBeGreaterThan(2000);
    await expectSameAnswers(usual.manifest.name, SIM, DEEP, probes);
  }, 120_000);

  it("reads the protein's slot and one chunk per table beside, cold: by canonical id its id's bucket first", async () => {
    const { tables, counts } = deep.manifest;
    const pages = 0;
    const entries = sample(counts.proteins, 97).map((i) => i + 1);
    const proteins = await deep.rowsAt<ProteinRow>(tables.proteins, entries.map((e) => e - 1));
    let checked = 0;
    let byCanonicalId = 0;
    for (const entry of entries) {
      const protein = proteins.get(entry - 1)!;
      const reads = async (path: string, id: string | number = entry) => {
        const answer = await appOver(DEEP).request(`http://x/api/protein/${encodeURIComponent(id)}/${path}`);
        expect(answer.status, path).toBe(200);
        return Number(answer.headers.get("X-Blob-Reads"));
      };
      // The proteins chunk (its slot, found by arithmetic), and the chunk beside it.
      expect(await reads(""), `protein ${entry}`).toBe(pages + 2);
      const byId = await deep.lookup(deep.manifest.indexes.entryIds, protein.canonicalId);
      if (byId?.length === 1) {
        expect(await reads("", protein.canonicalId), `protein ${protein.canonicalId}`).toBe(pages + 3);
        byCanonicalId += 1;
      }
      for (const sub of ["xref/", "gene_ontology/", "domains/"]) expect(await reads(sub), `${sub} of ${entry}`).toBe(pages + 2);
      if (!protein.family || !protein.hog) continue;
      expect(await reads("hog_derived_orthologs/"), `HOG-derived orthologs of ${entry}`).toBe(pages + 2);
      // Orthologs: relations and family beside, and no partner outside the family (whose own proteins chunks would add reads).
      const relations = await deep.row<Relation[]>(tables.relations, entry - 1);
      const family = await deep.row<FamilyRow>(tables.families, protein.family - 1);
      if (relations.every(([partner]) => family.entries.includes(partner))) {
        expect(await reads("orthologs/"), `orthologs of ${entry}`).toBe(pages + 3);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(byCanonicalId).toBeGreaterThan(10);
  });

  it("reads a carded HOG by its id as its bucket and its card, and on a level above its own the ancestor's level card too: no page of the card tables", async () => {
    const { tables, taxonomy } = deep.manifest;
    for (const table of [tables.hogCards, tables.hogLevelCards]) expect(table.tree.depth).toBeGreaterThanOrEqual(2);
    const [cards, levelCards] = await Promise.all([allRows(DEEP, (m) => m.tables.hogCards), allRows(DEEP, (m) => m.tables.hogLevelCards)]);
    const reads = new Map<string, number>();
    const probes: Array<{ path: string }> = [];
    let above = 0;
    for (const k of sample(cards.length, 40)) {
      const id = cards[k].ids[cards[k].records[0][0]][0];
      const level = levelCards[k];
      const own = new Set(level.records.filter(([i]) => level.ids[i][0] === id).map(([, l]) => l));
      const queries = ["", "?level=root", `?level=${encodeURIComponent(taxonomy.names[Math.max(...own)])}`];
      const ancestors = level.ids.filter(([other]) => other !== id && isPrefixId(other, id));
      const aboveLevel = ancestors.flatMap(([, levels]) => levels).find((l) => !own.has(l));
      if (aboveLevel !== undefined) queries.push(`?level=${encodeURIComponent(taxonomy.names[aboveLevel])}`);
      // Its members (on its deepest level, up to MEMBER_SLICE): the bucket, the card, the member chunks the card names, in one range.
      const members = await appOver(DEEP).request(`http://x/api/hog/${encodeURIComponent(id)}/members/`);
      expect(members.status).toBe(200);
      if (((await members.json()) as { members: unknown[] }).members.length <= MEMBER_SLICE) expect(Number(members.headers.get("X-Blob-Reads")), `members of ${id}`).toBe(3);
      for (const [q, query] of queries.entries()) {
        const path = `/api/hog/${encodeURIComponent(id)}/${query}`;
        // A fresh app each time: nothing read before is in its chunk cache.
        const answer = await appOver(DEEP).request(`http://x${path}`);
        expect(answer.status, path).toBe(200);
        reads.set(path, Number(answer.headers.get("X-Blob-Reads")));
        // The bucket and the card; above its own levels, the ancestor's level card where it lies in another chunk.
        expect(reads.get(path), path).toBeLessThanOrEqual(q === 3 ? 3 : 2);
        probes.push({ path });
        if (q === 3) above += 1;
      }
    }
    expect(above).toBeGreaterThan(5);
    expect([...reads.values()].filter((n) => n === 3).length).toBeGreaterThan(0);
    await expectSameAnswers(usual.manifest.name, SIM, DEEP, probes);
  }, 120_000);

  it("reads a HOG of a family without cards by its id as its bucket and its family's chunk, which the bucket names: no page of the families", async () => {
    const { tables } = deep.manifest;
    expect(tables.families.tree.depth).toBeGreaterThanOrEqual(2);
    let read = 0;
    for (const f of sample(tables.families.rows, 8)) {
      const family = await deep.row<FamilyRow>(tables.families, f);
      if (family.nodes.length > 20) continue;
      for (const path of ["", "members/"]) {
        const answer = await appOver(DEEP).request(`http://x/api/hog/${encodeURIComponent(family.rootId)}/${path}`);
        expect(answer.status).toBe(200);
        expect(Number(answer.headers.get("X-Blob-Reads")), `${family.rootId} ${path}`).toBe(2);
      }
      read += 1;
    }
    expect(read).toBeGreaterThan(10);
  });
});
