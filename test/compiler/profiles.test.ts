/**
 * Similar profiles (derive/profiles.ts), counted through an inverted index of genomes, give
 * exactly the rows of the definition: every family's genome set against every other's, most
 * alike first, ties by family index, at most 50. Checked on random families with many shared
 * and equal sets (so many ties), against that definition written out all against all.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../seeded-random.js";
import { SPECIATION, type FamilyProfile } from "../../release-format/format.js";
import { hogNodes, hogTree } from "../../release-compiler/derive/hog-columns.js";
import { familyTable } from "../../release-compiler/derive/family-table.js";
import type { FamilyBuild } from "../../release-compiler/derive/hogs.js";
import { similarProfiles } from "../../release-compiler/derive/profiles.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what this test compares.
process.env.ORTH_THREADS_ALWAYS = "1";

/** The tree of a family of one node, its root HOG `id` on `level` over its `size` members. */
const rootOnly = (id: string, level: number, size: number) => hogTree([{ kind: SPECIATION, parent: -1, lo: 0, hi: size, id, level, levels: [level], completeness: 1 }]);

/** Families whose members sit in a few genomes each: entry e is in genome e % genomes. */
function randomFamilies(count: number, genomes: number, seed: number): FamilyBuild[] {
  const next = seededRandom(seed);
  let entry = 0;
  return Array.from({ length: count }, (_, i) => {
    const size = 1 + Math.floor(next() * next() * genomes * 1.5);
    const members = Array.from({ length: size }, () => {
      // Entries chosen so that their genome is drawn from a small range: many equal and nested sets.
      const genome = Math.floor(next() * Math.min(genomes, 3 + (i % 7) * 4));
      entry += genomes;
      return entry - (entry % genomes) + genome;
    });
    return { index: i + 1, rootId: `HOG:${String(i + 1).padStart(7, "0")}`, rootHog: i + 1, tree: rootOnly(`HOG:${String(i + 1).padStart(7, "0")}`, i % 3, size), members: Int32Array.from(members), memberNode: new Int32Array() };
  });
}

/** The definition, all against all. */
function allAgainstAll(families: FamilyBuild[], genomeOf: (entry: number) => number): FamilyProfile[] {
  const sets = families.map((f) => [...new Set(f.members.map(genomeOf))].sort((x, y) => x - y));
  const rootLevels = families.map((f) => hogNodes(f.tree).filter((n) => n.id === f.rootId).flatMap((n) => n.levels));
  return families.map((_, index) => {
    const own = new Set(sets[index]);
    const scores = sets
      .map((set, other) => {
        const common = set.filter((g) => own.has(g)).length;
        return { other, common, jaccard: common / (own.size + set.length - common) };
      })
      .filter((s) => s.other !== index && s.common > 0)
      .sort((x, y) => y.jaccard - x.jaccard || x.other - y.other)
      .slice(0, 50);
    return {
      genomes: sets[index],
      similar: scores.map(({ other, jaccard }) => [other + 1, families[other].rootId, Math.round(jaccard * 1e4) / 1e4, sets[other], rootLevels[other]]),
    };
  });
}

describe("similar profiles", () => {
  it.each([
    [300, 12, 1],
    [800, 40, 2],
    [120, 3, 3],
  ])("are those of the definition, all against all (%i families over %i genomes, seed %i), on one thread or two", async (count, genomes, seed) => {
    const families = randomFamilies(count, genomes, seed);
    const genomeOf = (entry: number) => entry % genomes;
    const found = await similarProfiles(familyTable(families), genomeOf);
    expect(found).toEqual(allAgainstAll(families, genomeOf));
    expect(await similarProfiles(familyTable(families), genomeOf, 2)).toEqual(found);
    // The families were drawn so that ties decide much: many lists are full, and many share sets.
    expect(found.filter((p) => p.similar.length === 50).length).toBeGreaterThan(count / 4);
  });

  it("list nothing for a family that shares no genome, and never the family itself", async () => {
    const families = [[0, 1], [2], [0]].map((genomes, i) => ({ index: i + 1, rootId: `H${i}`, rootHog: i + 1, tree: rootOnly(`H${i}`, 0, genomes.length), members: Int32Array.from(genomes), memberNode: new Int32Array() }));
    const found = await similarProfiles(familyTable(families), (e) => e);
    expect(found.map((p) => p.similar.map((s) => [s[0], s[2]]))).toEqual([[[3, 0.5]], [], [[1, 0.5]]]);
  });
});
