import type { FamilyProfile } from "../../release-format/format.js";
import type { FamilyBuild } from "./hogs.js";

/** Most similar families listed per family (the similar_profile_hogs endpoint). */
const SIMILAR_PROFILES = 50;

/**
 * Each family's genome set and the families whose sets are most alike (Jaccard index, ties by
 * family index). Families with equal sets share one profile, scored once. A profile's shared
 * genomes with every other profile are counted through an inverted index (genome → profiles
 * holding it), so the work is the sum of the intersections, not profiles × profiles × set
 * size: exact, and the same rows as comparing all against all. Profiles sharing no genome
 * are never touched. (For a million families, MinHash with locality-sensitive hashing would
 * bound it further; FORMAT.md.)
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
  const profiles = [...byKey.values()].map((members) => ({ families: members, genomes: sets[members[0]] }));
  const holding = profilesByGenome(profiles.map((p) => p.genomes));
  const rootLevels = families.map((f) => f.nodes.filter((n) => n.id === f.rootId).flatMap((n) => n.levels));
  const out = new Array<FamilyProfile>(families.length);
  const common = new Int32Array(profiles.length);
  profiles.forEach((own) => {
    // Genomes shared with every profile that shares one.
    const touched: number[] = [];
    for (const g of own.genomes) {
      for (let at = holding.start[g]; at < holding.start[g + 1]; at++) {
        const k = holding.profiles[at];
        if (common[k]++ === 0) touched.push(k);
      }
    }
    const scores = new Float64Array(touched.length);
    touched.forEach((k, i) => {
      const c = common[k];
      common[k] = 0;
      scores[i] = c / (own.genomes.length + profiles[k].genomes.length - c);
    });
    // Only the profiles scoring at least the (SIMILAR_PROFILES + 1)th best can be listed: they
    // hold enough families besides the one asking, and a tie at that score is taken whole.
    const least = nthLargest(scores, SIMILAR_PROFILES + 1);
    const byScore: Array<[number, number]> = [];
    touched.forEach((k, i) => {
      if (scores[i] >= least) byScore.push([scores[i], k]);
    });
    byScore.sort((x, y) => y[0] - x[0]);
    for (const index of own.families) {
      const scored: Array<[number, number]> = [];
      for (let i = 0; i < byScore.length && scored.length < SIMILAR_PROFILES; ) {
        // The families of every profile with this score, by family index.
        const jaccard = byScore[i][0];
        const tied: number[] = [];
        for (; i < byScore.length && byScore[i][0] === jaccard; i++) for (const other of profiles[byScore[i][1]].families) if (other !== index) tied.push(other);
        tied.sort((x, y) => x - y);
        for (const other of tied.slice(0, SIMILAR_PROFILES - scored.length)) scored.push([other, jaccard]);
      }
      out[index] = {
        genomes: sets[index],
        similar: scored.map(([other, jaccard]) => [
          other + 1,
          families[other].rootId,
          Math.round(jaccard * 1e4) / 1e4,
          sets[other],
          rootLevels[other],
        ]),
      };
    }
  });
  return out;
}

/** The n-th largest of `values` (counting repeats), or -Infinity when there are fewer: a min-heap of the n largest. */
function nthLargest(values: Float64Array, n: number): number {
  if (values.length < n) return -Infinity;
  const heap = new Float64Array(n);
  let size = 0;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < size && heap[l] < heap[m]) m = l;
      if (r < size && heap[r] < heap[m]) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (const v of values) {
    if (size < n) {
      // Sift up.
      let i = size++;
      heap[i] = v;
      while (i > 0 && heap[(i - 1) >> 1] > heap[i]) {
        const parent = (i - 1) >> 1;
        [heap[i], heap[parent]] = [heap[parent], heap[i]];
        i = parent;
      }
    } else if (v > heap[0]) {
      heap[0] = v;
      down(0);
    }
  }
  return heap[0];
}

/** For each genome, the profiles whose sets hold it, ascending (compressed rows: genome g's are `profiles[start[g] .. start[g + 1])`). */
function profilesByGenome(sets: number[][]): { start: Int32Array; profiles: Int32Array } {
  const genomes = sets.reduce((n, set) => Math.max(n, set.length ? set[set.length - 1] + 1 : 0), 0);
  const start = new Int32Array(genomes + 1);
  for (const set of sets) for (const g of set) start[g + 1]++;
  for (let g = 0; g < genomes; g++) start[g + 1] += start[g];
  const fill = start.slice(0, genomes);
  const profiles = new Int32Array(start[genomes]);
  sets.forEach((set, k) => {
    for (const g of set) profiles[fill[g]++] = k;
  });
  return { start, profiles };
}
