import type { FamilyProfile } from "../../release-format/format.js";
import { rootIdLevels } from "./hog-columns.js";
import { familiesOf, rootIdOf, type FamilyTable } from "./family-table.js";
import { runTasksInOrder } from "../workers.js";

/** Most similar families listed per family (the similar_profile_hogs endpoint). */
const SIMILAR_PROFILES = 50;

/**
 * Each family's genome set and the families whose sets are most alike (Jaccard index, ties by
 * family index). Families with equal sets share one profile, scored once. A profile's shared
 * genomes with every other profile are counted through an inverted index (genome → profiles
 * holding it), so the work is the sum of the intersections, not profiles × profiles × set
 * size: exact, and the same rows as comparing all against all. Profiles sharing no genome
 * are never touched. That work still grows as Σ over genomes of (profiles holding it)²: with
 * the families, squared. So the profiles are scored on worker threads (profile-worker.ts),
 * PROFILES_PER_TASK a task, over the index in shared memory; this thread lists the families.
 * (For a million families, MinHash with locality-sensitive hashing would bound it further;
 * FORMAT.md.)
 */
export async function similarProfiles(families: FamilyTable, genomeOf: (entry: number) => number, jobs = 1): Promise<FamilyProfile[]> {
  const sets = Array.from(familiesOf(families), (f) => [...new Set(f.members.map(genomeOf))].sort((x, y) => x - y));
  const byKey = new Map<string, number[]>();
  sets.forEach((set, f) => {
    const key = set.join(",");
    const same = byKey.get(key);
    if (same) same.push(f);
    else byKey.set(key, [f]);
  });
  const profiles = [...byKey.values()].map((members) => ({ families: members, genomes: sets[members[0]] }));
  const index = profileIndex(profiles.map((p) => p.genomes));
  const rootLevels = Array.from(familiesOf(families), (f) => rootIdLevels(f.tree));
  const out = new Array<FamilyProfile>(families.count);
  let next = 0;
  const take = ({ counts, others, scores }: ScoredProfiles) => {
    let at = 0;
    for (const count of counts) {
      listFamilies(profiles[next++], others.subarray(at, at + count), scores.subarray(at, at + count));
      at += count;
    }
  };
  // The families of one profile, from its candidates (profile, Jaccard), most alike first.
  const listFamilies = (own: (typeof profiles)[number], others: Int32Array, scores: Float64Array) => {
    for (const family of own.families) {
      const scored: Array<[number, number]> = [];
      for (let i = 0; i < others.length && scored.length < SIMILAR_PROFILES; ) {
        // The families of every profile with this score, by family index.
        const jaccard = scores[i];
        const tied: number[] = [];
        for (; i < others.length && scores[i] === jaccard; i++) for (const other of profiles[others[i]].families) if (other !== family) tied.push(other);
        tied.sort((x, y) => x - y);
        for (const other of tied.slice(0, SIMILAR_PROFILES - scored.length)) scored.push([other, jaccard]);
      }
      out[family] = {
        genomes: sets[family],
        similar: scored.map(([other, jaccard]) => [other + 1, rootIdOf(families, other + 1), Math.round(jaccard * 1e4) / 1e4, sets[other], rootLevels[other]]),
      };
    }
  };
  function* tasks(): Generator<ProfileTask> {
    for (let from = 0; from < profiles.length; from += PROFILES_PER_TASK) yield { from, to: Math.min(profiles.length, from + PROFILES_PER_TASK) };
  }
  await runTasksInOrder(tasks(), take, { module: new URL("./profile-worker.ts", import.meta.url), jobs, workerData: index });
  return out;
}

/** Profiles one task scores. */
const PROFILES_PER_TASK = 256;

/** A task: score profiles [from, to). */
export interface ProfileTask {
  from: number;
  to: number;
}

/** The candidates of each profile of a task, one after another: `counts[i]` (profile, Jaccard) pairs for its i-th profile, most alike first. */
export interface ScoredProfiles {
  counts: Int32Array;
  others: Int32Array;
  scores: Float64Array;
}

/**
 * Every profile's genomes (profile k's are `genomes[offsets[k] .. offsets[k + 1])`, ascending),
 * and for each genome the profiles holding it (genome g's are `holders[start[g] .. start[g + 1])`,
 * ascending); in SharedArrayBuffers, so that every thread reads one copy.
 */
export interface ProfileIndex {
  offsets: Int32Array;
  genomes: Int32Array;
  start: Int32Array;
  holders: Int32Array;
}

const shared = (length: number) => new Int32Array(new SharedArrayBuffer(4 * length));

function profileIndex(sets: number[][]): ProfileIndex {
  const offsets = shared(sets.length + 1);
  sets.forEach((set, k) => (offsets[k + 1] = offsets[k] + set.length));
  const genomes = shared(offsets[sets.length]);
  sets.forEach((set, k) => genomes.set(set, offsets[k]));
  const genomeCount = sets.reduce((n, set) => Math.max(n, set.length ? set[set.length - 1] + 1 : 0), 0);
  const start = shared(genomeCount + 1);
  for (const set of sets) for (const g of set) start[g + 1]++;
  for (let g = 0; g < genomeCount; g++) start[g + 1] += start[g];
  const fill = start.slice(0, genomeCount);
  const holders = shared(start[genomeCount]);
  sets.forEach((set, k) => {
    for (const g of set) holders[fill[g]++] = k;
  });
  return { offsets, genomes, start, holders };
}

/**
 * The scorer of one thread: for each profile of a task, every profile sharing a genome with it,
 * scored, keeping those that can be listed: scoring at least the (SIMILAR_PROFILES + 1)th best
 * (they hold enough families besides the one asking, and a tie at that score is taken whole),
 * most alike first.
 */
export function profileScorer({ offsets, genomes, start, holders }: ProfileIndex): (task: ProfileTask) => ScoredProfiles {
  const common = new Int32Array(offsets.length - 1);
  return ({ from, to }) => {
    const counts = new Int32Array(to - from);
    const others: number[] = [];
    const scores: number[] = [];
    for (let p = from; p < to; p++) {
      // Genomes shared with every profile that shares one.
      const touched: number[] = [];
      for (let at = offsets[p]; at < offsets[p + 1]; at++) {
        const g = genomes[at];
        for (let h = start[g]; h < start[g + 1]; h++) {
          const k = holders[h];
          if (common[k]++ === 0) touched.push(k);
        }
      }
      const size = offsets[p + 1] - offsets[p];
      const scored = new Float64Array(touched.length);
      touched.forEach((k, i) => {
        const c = common[k];
        common[k] = 0;
        scored[i] = c / (size + offsets[k + 1] - offsets[k] - c);
      });
      const least = nthLargest(scored, SIMILAR_PROFILES + 1);
      const kept: Array<[number, number]> = [];
      touched.forEach((k, i) => {
        if (scored[i] >= least) kept.push([scored[i], k]);
      });
      kept.sort((x, y) => y[0] - x[0]);
      counts[p - from] = kept.length;
      for (const [score, k] of kept) {
        others.push(k);
        scores.push(score);
      }
    }
    return { counts, others: Int32Array.from(others), scores: Float64Array.from(scores) };
  };
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
