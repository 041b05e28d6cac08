/**
 * Wide families (FORMAT.md, "HOG families"): a family of more than `familyInlineMembers`
 * members keeps its member summaries in the `familyMembers` table, in tree order, instead of
 * in its row. The simulated release compiled with a limit of 2 members (and member chunks of
 * 1 kB, a few members each) puts nearly every family there. It must answer exactly as the
 * release that keeps them inline, answer by answer, pages and drawings included; and the
 * members of one HOG of a wide family read the run of member rows they are, not the family.
 * The same release gives every family of more than 20 tree nodes HOG cards (FORMAT.md, "HOG
 * cards"; at the usual layout, families of more than 800): its HOG reads must answer as the
 * tree does, reading a card and not the family.
 */
import { readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { SPECIATION, hogPlace, type ChunkRef, type FamilyRow, type RowChunk, type TableRef } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { answerSample, appOver, expectSameAnswers } from "../answer-comparison.js";
import { TEST_BUILD } from "../build-dir.js";
import { compileSimulatedWith, compileWithLayout } from "../layout-variant.js";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { bucketCovering } from "../../release-format/directory.js";
import { isPrefixId } from "../../release-format/hog-tree.js";

const INLINE_LIMIT = 2;
const CARDS_FROM_NODES = 20;
const WIDE = resolve(TEST_BUILD, "sim-wide");
const SIM = resolve(TEST_BUILD, "sim");

async function all<Row>(release: Release, table: TableRef<Row>): Promise<Row[]> {
  const out: Row[] = [];
  for await (const row of await release.rows(table, 0, table.rows)) out.push(row);
  return out;
}

describe("wide families: member summaries in their own table", () => {
  let inline: Release;
  let wide: Release;
  let inlineFamilies: FamilyRow[];
  let wideFamilies: FamilyRow[];

  beforeAll(async () => {
    // Pages of 8 entries and roots of 8: the member table has directory pages, which no HOG's members pay.
    await compileSimulatedWith({ familyInlineMembers: INLINE_LIMIT, familyMembersChunkBytes: 1024, hogCardsFromNodes: CARDS_FROM_NODES, pageEntries: 8, rootEntries: 8 }, WIDE);
    [inline, wide] = await Promise.all([openReleaseFolder(SIM), openReleaseFolder(WIDE)]);
    [inlineFamilies, wideFamilies] = await Promise.all([inline, wide].map((r) => all(r, r.manifest.tables.families)));
  }, 120_000);
  afterAll(() => rmSync(WIDE, { recursive: true, force: true }));

  /** The RowChunk of a row of a table, from its tree: its chunk's first row and ref. */
  const rowChunk = async (table: TableRef<unknown>, row: number): Promise<RowChunk> => {
    const { start, ref } = (await wide.locate(table.tree, row))!;
    const pack = table.packs!.indexOf(ref[0]);
    expect(pack).toBeGreaterThanOrEqual(0);
    return [start, pack, ref[1], ref[2], new Uint8Array(Buffer.from(ref[3], "hex"))];
  };

  it("keeps every family's entries in its row, and a wide family's summaries in tree order in familyMembers", async () => {
    const { tables } = wide.manifest;
    // The member table has pages below its root (test/e2e/deep-trees.test.ts has the families' and the cards').
    expect(tables.familyMembers.tree.depth).toBeGreaterThanOrEqual(2);
    const summaries = await all(wide, wide.manifest.tables.familyMembers);
    expect(inline.manifest.tables.familyMembers.rows).toBe(0);
    let wideCount = 0;
    let next = 0;
    for (const [i, f] of wideFamilies.entries()) {
      const original = inlineFamilies[i];
      expect(f.entries).toEqual(original.entries);
      expect(original.members!.map((m) => m.entry)).toEqual(original.entries);
      const { memberChunks, ...row } = f;
      expect({ ...row, members: null, firstMember: -1 }).toEqual({ ...original, members: null, firstMember: -1 });
      if (f.entries.length <= INLINE_LIMIT) {
        expect(f.members).toEqual(original.members);
        expect(f.firstMember).toBe(-1);
        expect(memberChunks).toBeUndefined();
        continue;
      }
      wideCount += 1;
      expect(f.members).toBeNull();
      expect(f.firstMember).toBe(next);
      // Its row names the chunks of its members, which start a chunk and hold no other family's.
      expect(memberChunks![0][0]).toBe(f.firstMember);
      for (const chunk of memberChunks!) expect(chunk).toEqual(await rowChunk(wide.manifest.tables.familyMembers, chunk[0]));
      const last = memberChunks!.at(-1)!;
      expect((await wide.chunkAt<{ rows: unknown[] }, number>(wide.manifest.tables.familyMembers.tree, last[0]))!.value.rows.length).toBe(f.firstMember + f.entries.length - last[0]);
      expect(summaries.slice(next, next + f.entries.length)).toEqual(original.members);
      next += f.entries.length;
    }
    expect(next).toBe(summaries.length);
    expect(wideCount).toBeGreaterThan(wideFamilies.length / 2);
  });

  it("answers as the release with members inline, answer by answer (pages and drawings included)", async () => {
    const probes = await answerSample(inline, { proteins: 10, groups: 12, families: 2 });
    expect(probes.length).toBeGreaterThan(2000);
    await expectSameAnswers(inline.manifest.name, SIM, WIDE, probes);
  }, 120_000);

  it("reads a sub-HOG's members as the run of member rows it is, not the whole family", async () => {
    // The widest family without HOG cards that has a HOG below the root of more than one member, and its smallest such HOG.
    const subsOf = (f: FamilyRow) => f.nodes.filter((n) => n.kind === SPECIATION && n.parent >= 0 && n.hi - n.lo > 1);
    const family = wideFamilies.filter((f) => f.nodes.length <= CARDS_FROM_NODES && subsOf(f).length).reduce((a, b) => (b.entries.length > a.entries.length ? b : a));
    expect(family.members).toBeNull();
    const nodes = subsOf(family);
    const sub = nodes.reduce((a, b) => (b.hi - b.lo < a.hi - a.lo ? b : a));
    const { tables, indexes } = wide.manifest;
    const familyChunks = new Map<string, ChunkRef>();
    const subChunks = new Map<string, ChunkRef>();
    for (let p = 0; p < family.entries.length; p++) {
      const { ref } = (await wide.locate(tables.familyMembers.tree, family.firstMember + p))!;
      familyChunks.set(ref[3], ref);
      if (p >= sub.lo && p < sub.hi) subChunks.set(ref[3], ref);
    }
    expect(familyChunks.size).toBeGreaterThan(subChunks.size);
    const bytesOf = (refs: Iterable<ChunkRef>) => [...refs].reduce((n, ref) => n + ref[2], 0);
    const leaf = bucketCovering(indexes.hogIds.tree, sub.id)!;
    const familyChunk = (await wide.locate(tables.families.tree, family.family - 1))!.ref;

    const answer = await appOver(WIDE).request(`http://x/api/hog/${encodeURIComponent(sub.id)}/members/?level=${encodeURIComponent(wide.manifest.taxonomy.names[sub.level])}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { members: Array<{ entry_nr: number }> };
    expect(body.members.map((m) => m.entry_nr)).toEqual(family.entries.slice(sub.lo, sub.hi).sort((a, b) => a - b));
    // The HOG id's index leaf, the family's chunk, and its run of member chunks in one range:
    // those bytes exactly, none of the family's other member chunks.
    expect(Number(answer.headers.get("X-Blob-Reads"))).toBe(3);
    expect(Number(answer.headers.get("X-Blob-Bytes"))).toBe(leaf[2] + familyChunk[2] + bytesOf(subChunks.values()));
    expect(bytesOf(subChunks.values())).toBeLessThan(bytesOf(familyChunks.values()));
  });

  it("gives every HOG id of a family of more than 20 nodes its cards, its root's first, and the index their rows and chunks; a card names each id with its row, and a level card each ancestor with its level card's chunk", async () => {
    const [cards, levelCards] = await Promise.all([all(wide, wide.manifest.tables.hogCards), all(wide, wide.manifest.tables.hogLevelCards)]);
    expect(inline.manifest.tables.hogCards.rows).toBe(0);
    expect(levelCards.length).toBe(cards.length);
    let next = 0;
    let carded = 0;
    // Ancestors named with the chunk of their level card.
    let named3 = 0;
    for (const f of wideFamilies) {
      const ids = [...new Set(f.nodes.filter((n) => n.kind === SPECIATION).map((n) => n.id))];
      const places = await Promise.all(ids.map(async (id) => hogPlace((await wide.lookup(wide.manifest.indexes.hogIds, id))!)));
      // The index names the family's chunk, and in a carded family the rows and chunks of the cards (found here through the tables' trees).
      const familyChunk = await rowChunk(wide.manifest.tables.families, f.family - 1);
      if (f.nodes.length <= CARDS_FROM_NODES) {
        for (const place of places) expect(place).toEqual({ family: f.family, familyChunk });
        continue;
      }
      carded += 1;
      expect(ids[0]).toBe(f.rootId);
      for (const [k, id] of ids.entries()) {
        const { hogCards, hogLevelCards } = wide.manifest.tables;
        const chunks = { card: await rowChunk(hogCards, next + k), level: await rowChunk(hogLevelCards, next + k), root: await rowChunk(hogCards, next) };
        expect(places[k]).toEqual({ family: f.family, familyChunk, cards: { card: next + k, root: next, chunks } });
        const card = cards[next + k];
        expect(card.family).toBe(f.family);
        // Its record on its deepest level is its own; its level card holds a record of it on every level it has one on.
        expect(card.records.map(([i, level]) => [card.ids[i][0], level])).toEqual([[id, f.nodes[f.nodes.findIndex((n) => n.id === id)].levels[0]]]);
        const level = levelCards[next + k];
        expect(level.records.some(([i]) => level.ids[i][0] === id)).toBe(true);
        // Every id a card names comes with its own cards' row.
        for (const [named, , row] of [...card.ids, ...level.ids]) expect(cards[row].records.map(([i]) => cards[row].ids[i][0])).toEqual([named]);
        // A level card names the chunk of each ancestor's level card, but where it lies in the card's own chunk.
        expect(card.ids.every((named) => named.length === 3)).toBe(true);
        for (const named of level.ids) {
          const [other, , row, chunk] = named;
          const ancestor = other !== id && isPrefixId(other, id);
          const where = await rowChunk(hogLevelCards, row);
          if (!ancestor) expect(chunk, other).toBeUndefined();
          else if (where[0] === chunks.level[0]) expect(chunk, other).toBeUndefined();
          else {
            expect(chunk, other).toEqual(where);
            named3 += 1;
          }
        }
      }
      next += ids.length;
    }
    expect(next).toBe(cards.length);
    expect(named3).toBeGreaterThan(0);
    expect(carded).toBeGreaterThan(0);
    expect(carded).toBeLessThan(wideFamilies.length);
  });

  it("answers a level query above a HOG's own levels from its nearest ancestor's level card, as the tree does", async () => {
    const [cards, levelCards] = await Promise.all([all(wide, wide.manifest.tables.hogCards), all(wide, wide.manifest.tables.hogLevelCards)]);
    const { names } = wide.manifest.taxonomy;
    // Every carded id's queries on its ancestors' levels it has no HOG on; those whose ancestor's card lists HOGs unrelated to it counted apart.
    const probes: Array<{ path: string }> = [];
    let widened = 0;
    cards.forEach((plain, k) => {
      const id = plain.ids[plain.records[0][0]][0];
      const card = levelCards[k];
      const own = new Set(card.records.filter(([i]) => card.ids[i][0] === id).map(([, level]) => level));
      const asked = new Set<number>();
      for (const [ancestor, levels, row] of card.ids) {
        if (ancestor === id || !isPrefixId(ancestor, id)) continue;
        for (const level of levels) {
          if (own.has(level) || asked.has(level)) continue;
          asked.add(level);
          const above = levelCards[row];
          const unrelated = above.records.some(([i, l]) => l === level && !isPrefixId(above.ids[i][0], id) && !isPrefixId(id, above.ids[i][0]));
          if (unrelated) widened += 1;
          if (unrelated || probes.length < 400) probes.push({ path: `/api/hog/${encodeURIComponent(id)}/?level=${encodeURIComponent(names[level])}` });
        }
      }
    });
    expect(widened).toBeGreaterThan(0);
    await expectSameAnswers(inline.manifest.name, SIM, WIDE, probes);
  }, 120_000);

  it("reads a HOG of a carded family as its index bucket and one card (its members: and their rows): on its deepest level, the root's, a level it stands on and one above it, and by a gene's entry number", async () => {
    const family = wideFamilies.reduce((a, b) => (b.nodes.length > a.nodes.length ? b : a));
    expect(family.nodes.length).toBeGreaterThan(CARDS_FROM_NODES);
    const above = family.nodes[0].levels[0];
    const sub = family.nodes.find((n) => n.kind === SPECIATION && n.id !== family.rootId && !n.levels.includes(above))!;
    const { tables, indexes, taxonomy } = wide.manifest;
    const leaf = bucketCovering(indexes.hogIds.tree, sub.id)!;
    const { cards } = hogPlace((await wide.lookup(indexes.hogIds, sub.id))!);
    const familyChunk = (await wide.locate(tables.families.tree, family.family - 1))!.ref;
    const id = encodeURIComponent(sub.id);
    for (const [query, table, row] of [
      ["", tables.hogCards, cards!.card],
      ["?level=root", tables.hogCards, cards!.root],
      [`?level=${encodeURIComponent(taxonomy.names[sub.levels[0]])}`, tables.hogLevelCards, cards!.card],
    ] as const) {
      // A fresh app each time: nothing read before is in its chunk cache.
      const answer = await appOver(WIDE).request(`http://x/api/hog/${id}/${query}`);
      expect(answer.status, query).toBe(200);
      const chunk = (await wide.locate(table.tree, row))!.ref;
      expect(Number(answer.headers.get("X-Blob-Reads")), query).toBe(2);
      expect(Number(answer.headers.get("X-Blob-Bytes")), query).toBe(leaf[2] + chunk[2]);
      expect(chunk[3]).not.toBe(familyChunk[3]);
    }
    // Its members on a level it stands on: the bucket, the level card, and the run of member rows.
    const members = await appOver(WIDE).request(`http://x/api/hog/${id}/members/?level=${encodeURIComponent(taxonomy.names[sub.levels[0]])}`);
    expect(members.status).toBe(200);
    const body = (await members.json()) as { members: Array<{ entry_nr: number }> };
    expect(body.members.map((m) => m.entry_nr)).toEqual(family.entries.slice(sub.lo, sub.hi).sort((a, b) => a - b));
    const memberChunks = new Map<string, ChunkRef>();
    for (let p = sub.lo; p < sub.hi; p++) {
      const { ref } = (await wide.locate(tables.familyMembers.tree, family.firstMember + p))!;
      memberChunks.set(ref[3], ref);
    }
    const levelChunk = (await wide.locate(tables.hogLevelCards.tree, cards!.card))!.ref;
    expect(Number(members.headers.get("X-Blob-Reads"))).toBe(3);
    expect(Number(members.headers.get("X-Blob-Bytes"))).toBe(leaf[2] + levelChunk[2] + [...memberChunks.values()].reduce((n, ref) => n + ref[2], 0));
    // The HOG of one of its genes, by the gene's entry number: its protein chunk (whose row names the cards' rows) and its HOG id's card.
    const entry = family.entries[sub.lo];
    const protein = await wide.row(tables.proteins, entry - 1);
    const genePlace = hogPlace((await wide.lookup(indexes.hogIds, protein.hog!))!);
    expect(protein.hogCards).toEqual([genePlace.cards!.card, genePlace.cards!.root]);
    const byGene = await appOver(WIDE).request(`http://x/api/hog/${entry}/`);
    expect(byGene.status).toBe(200);
    expect(((await byGene.json()) as Array<{ hog_id: string }>).map((h) => h.hog_id)).toEqual([protein.hog]);
    const geneCard = (await wide.locate(tables.hogCards.tree, genePlace.cards!.card))!.ref;
    const proteinChunk = (await wide.locate(tables.proteins.tree, entry - 1))!.ref;
    expect(Number(byGene.headers.get("X-Blob-Reads"))).toBe(2);
    expect(Number(byGene.headers.get("X-Blob-Bytes"))).toBe(proteinChunk[2] + geneCard[2]);
    // A level above the HOG's own: the ancestral HOGs there, from the nearest ancestor's level card (its row in the sub-HOG's card).
    const answer = await appOver(WIDE).request(`http://x/api/hog/${id}/?level=${encodeURIComponent(taxonomy.names[above])}`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as Array<{ hog_id: string }>).map((h) => h.hog_id)).toContain(family.rootId);
    const subCard = await wide.row(tables.hogLevelCards, cards!.card);
    const ancestor = subCard.ids.filter(([named, levels]) => named !== sub.id && isPrefixId(named, sub.id) && levels.includes(above)).reduce((a, b) => (b[0].length > a[0].length ? b : a));
    const aboveChunk = (await wide.locate(tables.hogLevelCards.tree, ancestor[2]))!.ref;
    const apart = aboveChunk[3] !== levelChunk[3];
    expect(Number(answer.headers.get("X-Blob-Reads"))).toBe(apart ? 3 : 2);
    expect(Number(answer.headers.get("X-Blob-Bytes"))).toBe(leaf[2] + levelChunk[2] + (apart ? aboveChunk[2] : 0));
  });
});

warnWithoutSharedData("the HOG cards of an OrthoFinder release");

describe.runIf(hasSharedData)("HOG cards of an OrthoFinder release: HOGs by OrthoFinder's ids", () => {
  const CARDED = resolve(TEST_BUILD, "orthofinder25-cards");
  const USUAL = resolve(TEST_BUILD, "orthofinder25");
  const hogs = data("orthofinder-mycoplasma-2.5/ExampleData/OrthoFinder/Results_Jan30/Phylogenetic_Hierarchical_Orthogroups");
  beforeAll(() => compileWithLayout(resolve("test/fixtures/orthofinder-mycoplasma-2.5.release.json"), { hogCardsFromNodes: 0 }, CARDED), 120_000);
  afterAll(() => rmSync(CARDED, { recursive: true, force: true }));

  it("answers HOG reads by N*.HOG and OG ids from the cards as the usual release does from the trees", async () => {
    const carded = await openReleaseFolder(CARDED);
    expect(carded.manifest.tables.hogCards.rows).toBeGreaterThan(0);
    const probes = [];
    for (const level of ["N0", "N1", "N2"]) {
      const rows = readFileSync(join(hogs, `${level}.tsv`), "utf8").split("\n").slice(1, 40).filter((l) => l);
      for (const [hog, og] of rows.map((l) => l.split("\t"))) {
        for (const path of [`/api/hog/${hog}/`, `/api/hog/${hog}/?level=root`, `/api/hog/${og}/`, `/api/hog/${hog}/members/`]) probes.push({ path });
      }
    }
    const usual = await openReleaseFolder(USUAL);
    await expectSameAnswers(usual.manifest.name, USUAL, CARDED, probes);
    // By another tool's id too, a HOG read is its alias bucket and a card.
    const [hog] = readFileSync(join(hogs, "N1.tsv"), "utf8").split("\n")[1].split("\t");
    const answer = await appOver(CARDED).request(`http://x/api/hog/${hog}/`);
    expect(answer.status).toBe(200);
    expect(Number(answer.headers.get("X-Blob-Reads"))).toBe(2);
  }, 120_000);
});
