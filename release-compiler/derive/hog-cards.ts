/**
 * HOG cards (FORMAT.md, "HOG cards"): for every HOG id of a family with a wide tree, what a HOG
 * read answers, made here with the worker's own tree queries (release-format/hog-tree.ts). A HOG
 * read then reads one card, not a tree of 15,000 nodes (631 kB for a 30 kB answer at 2,500
 * genomes): the id's record on its deepest level (`hogCards`), and its records on each level it
 * stands on together with every other HOG a level query there lists (`hogLevelCards`); each
 * record with its members' tree positions, so a small HOG's members are read without the tree.
 * A card names each id it lists with its own cards' row, so a level query above the id's own
 * levels finds the ancestor's level card that answers it.
 */
import type { FamilyRow, HogCard } from "../../release-format/format.js";
import { hogIdsOf, hogRecordData, hogsByLevel, levelsOfId, nodesWithId, relatedOnLevel, type HogLevelsContext, type HogRecordData, type OnLevel } from "../../release-format/hog-tree.js";

/** A record and its members' tree positions as runs `[lo, hi, …]`. */
type Made = { data: HogRecordData; members: number[] };

/** Ascending positions as runs `[lo, hi, lo, hi, …]` of consecutive ones. */
function runsOf(positions: readonly number[]): number[] {
  const runs: number[] = [];
  for (const p of positions) {
    if (runs.length && runs[runs.length - 1] === p) runs[runs.length - 1] = p + 1;
    else runs.push(p, p + 1);
  }
  return runs;
}

/** The cards of one HOG id. */
export interface HogIdCards {
  id: string;
  card: HogCard;
  levelCard: HogCard;
}

/**
 * The cards of every HOG id of a family, its root's first, then by the first node of each id in
 * tree order; `rowOf` gives each id's cards' row (the writer's numbering), which the cards name.
 */
export function familyHogCards(f: FamilyRow, release: HogLevelsContext, rowOf: (id: string) => number): HogIdCards[] {
  const { taxonomy } = release.manifest;
  // A node's record costs a walk of its subtree (its children): each is made once, however many cards list it.
  const made = new Map<string, Made>();
  const record = (h: OnLevel, level: number): Made => {
    const key = `${h.node} ${level} ${h.implied ? 1 : 0}`;
    let m = made.get(key);
    if (!m) {
      const { lo, hi } = f.nodes[h.node];
      m = { data: hogRecordData(f, h.node, level, h.implied), members: h.implied ? runsOf(h.implied.members) : [lo, hi] };
      made.set(key, m);
    }
    return m;
  };
  const levelsOf = new Map<string, number[]>();
  const cardOf = (records: Made[]): HogCard => {
    const ids = new Map<string, number>();
    const ref = (id: string) => {
      let k = ids.get(id);
      if (k === undefined) ids.set(id, (k = ids.size));
      return k;
    };
    const rows = records.map(({ data: r, members }): HogCard["records"][number] => [ref(r.id), r.level, r.completeness, r.parents.map(ref), r.children.map(ref), members]);
    const named = [...ids.keys()].map((id): [string, number[], number] => {
      let levels = levelsOf.get(id);
      if (!levels) levelsOf.set(id, (levels = levelsOfId(f, id, taxonomy)));
      return [id, levels, rowOf(id)];
    });
    // The chunks of its members are named when it is written (write/release.ts), where they are known.
    return { family: f.family, rootId: f.rootId, rootHog: f.rootHog, description: f.description, firstMember: f.firstMember, memberChunks: [], ids: named, records: rows };
  };

  // The levels each id has a HOG on (a node or an implied HOG).
  const byLevel = hogsByLevel(f, release);
  const ownLevels = new Map<string, Set<number>>();
  for (const [level, hogs] of byLevel) {
    for (const h of hogs) {
      const set = ownLevels.get(h.id) ?? new Set<number>();
      set.add(level);
      ownLevels.set(h.id, set);
    }
  }
  const out: HogIdCards[] = [];
  for (const id of hogIdsOf(f)) {
    const node = nodesWithId(f, id)[0];
    const plain = record({ id, node }, f.nodes[node].levels[0]);
    const levels = [...(ownLevels.get(id) ?? [])].sort((a, b) => a - b);
    const onLevels = levels.flatMap((level) => relatedOnLevel(f, release, id, level).map((h) => record(h, level)));
    out.push({ id, card: cardOf([plain]), levelCard: cardOf(onLevels) });
  }
  return out;
}
