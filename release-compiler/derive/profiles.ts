import type { FamilyProfile } from "../../release-format/format.js";
import type { FamilyBuild } from "./hogs.js";

/** Most similar families listed per family (the similar_profile_hogs endpoint). */
const SIMILAR_PROFILES = 50;

/**
 * Each family's genome set and the families whose sets are most alike (Jaccard index,
 * ties by family index). Families with equal sets are compared once; the comparison is
 * all against all, which suits releases up to ~10^5 families (see FORMAT.md for larger).
 */
export function similarProfiles(families: FamilyBuild[], genomeOf: (entry: number) => number): FamilyProfile[] {
  const sets = families.map((f) => [...new Set(f.members.map(genomeOf))].sort((x, y) => x - y));
  const byKey = new Map<string, number[]>();
  sets.forEach((set, f) => {
    const key = set.join(",");
    const same = byKey.get(key);
    if (same) same.push(f);
    else byKey.set(key, [f]);
  });
  const profiles = [...byKey.values()].map((members) => ({ families: members, set: new Set(sets[members[0]]), size: sets[members[0]].length }));
  const rootLevels = families.map((f) => f.nodes.filter((n) => n.id === f.rootId).flatMap((n) => n.levels));
  return families.map((f, index) => {
    const own = new Set(sets[index]);
    // Profiles sharing a genome, best first; only the families of the best few are listed.
    const byScore: Array<[number, number]> = [];
    profiles.forEach((p, k) => {
      let common = 0;
      for (const g of p.set) if (own.has(g)) common++;
      if (common > 0) byScore.push([common / (own.size + p.size - common), k]);
    });
    byScore.sort((x, y) => y[0] - x[0]);
    const scored: Array<[number, number]> = [];
    for (let i = 0; i < byScore.length && scored.length < SIMILAR_PROFILES; ) {
      // The families of every profile with this score, by family index.
      const jaccard = byScore[i][0];
      const tied: number[] = [];
      for (; i < byScore.length && byScore[i][0] === jaccard; i++) for (const other of profiles[byScore[i][1]].families) if (other !== index) tied.push(other);
      tied.sort((x, y) => x - y);
      for (const other of tied.slice(0, SIMILAR_PROFILES - scored.length)) scored.push([other, jaccard]);
    }
    return {
      genomes: sets[index],
      similar: scored.map(([other, jaccard]) => [
        other + 1,
        families[other].rootId,
        Math.round(jaccard * 1e4) / 1e4,
        sets[other],
        rootLevels[other],
      ]),
    };
  });
}
