/**
 * Wide families (FORMAT.md, "HOG families"): a family of more than `familyInlineMembers`
 * members keeps its member summaries in the `familyMembers` table, in tree order, instead of
 * in its row. The simulated release compiled with a limit of 2 members (and member chunks of
 * 1 kB, a few members each) puts nearly every family there. It must answer exactly as the
 * release that keeps them inline, answer by answer, pages and drawings included; and the
 * members of one HOG of a wide family read the run of member rows they are, not the family.
 */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { SPECIATION, type ChunkRef, type FamilyRow, type TableRef } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { answerSample, appOver, expectSameAnswers } from "../answer-comparison.js";
import { TEST_BUILD } from "../build-dir.js";
import { compileSimulatedWith } from "../layout-variant.js";
import { bucketCovering } from "../../release-format/directory.js";

const INLINE_LIMIT = 2;
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
    await compileSimulatedWith({ familyInlineMembers: INLINE_LIMIT, familyMembersChunkBytes: 1024 }, WIDE);
    [inline, wide] = await Promise.all([openReleaseFolder(SIM), openReleaseFolder(WIDE)]);
    [inlineFamilies, wideFamilies] = await Promise.all([inline, wide].map((r) => all(r, r.manifest.tables.families)));
  }, 120_000);
  afterAll(() => rmSync(WIDE, { recursive: true, force: true }));

  it("keeps every family's entries in its row, and a wide family's summaries in tree order in familyMembers", async () => {
    const summaries = await all(wide, wide.manifest.tables.familyMembers);
    expect(inline.manifest.tables.familyMembers.rows).toBe(0);
    let wideCount = 0;
    let next = 0;
    for (const [i, f] of wideFamilies.entries()) {
      const original = inlineFamilies[i];
      expect(f.entries).toEqual(original.entries);
      expect(original.members!.map((m) => m.entry)).toEqual(original.entries);
      expect({ ...f, members: null, firstMember: -1 }).toEqual({ ...original, members: null, firstMember: -1 });
      if (f.entries.length <= INLINE_LIMIT) {
        expect(f.members).toEqual(original.members);
        expect(f.firstMember).toBe(-1);
        continue;
      }
      wideCount += 1;
      expect(f.members).toBeNull();
      expect(f.firstMember).toBe(next);
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
    // The widest family, and its smallest HOG below the root that has more than one member.
    const family = wideFamilies.reduce((a, b) => (b.entries.length > a.entries.length ? b : a));
    const nodes = family.nodes.filter((n) => n.kind === SPECIATION && n.parent >= 0 && n.hi - n.lo > 1);
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
});
