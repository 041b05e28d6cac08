/**
 * Everything written from the pairwise relations: the relations table (per protein), the pairs
 * table and its directory (per ordered genome pair), the genes of each genome with a relation
 * into each other, and each group's close groups. Written in parts over runs of genomes, each
 * one pass over its genomes' relations a genome at a time (see derive/relations.ts), then put
 * together.
 */
import { isOrthologType, type DirectoryPage, type PairRow, type Relation, type TableRef } from "../../release-format/format.js";
import type { GenomeRelations, RelationsBuild } from "../derive/relations.js";
import { runTasksInOrder } from "../workers.js";
import { GrowingInts } from "./growing.js";
import { HEADER_BYTES, NUMBER_BYTES, NumberRowChunks, writeNumber } from "./number-rows.js";
import type { PackWriter, TreeWriter } from "./packs.js";

export interface RelationTables {
  relations: TableRef<Relation[]>;
  pairs: TableRef<PairRow>;
  /**
   * The pair directory, per ordered genome pair (genome 1 · genomes + genome 2): its first row
   * in the pairs table (past 2^31 at scale), and its rows. Columns, not a pair of numbers each:
   * 6.25 M genome pairs at 2,500 genomes, which as arrays held ~0.4 GB of heap in each task
   * that read them.
   */
  pairStart: Float64Array;
  pairCount: Int32Array;
  /** Per ordered genome pair: genes of genome 1 with a relation to a gene of genome 2. */
  withRelations: Int32Array;
  /** Per group, the groups its members' orthologs are in (CloseGroups, closeGroupsOf). */
  closeGroups: CloseGroups;
}

/**
 * Each group's close groups and their hits, as columns: group number g's are at [start[g − 1],
 * start[g]) of `group` and `hits`, most hits first, ties by group number. Columns, not an array
 * of pairs a group: at 2,500 genomes 18 M of them, which as arrays (and the Map of Maps that
 * summed them) held ~2 GB of heap in the relations task and ~1.3 GB in family-tables.
 */
export interface CloseGroups {
  start: Int32Array;
  group: Int32Array;
  hits: Int32Array;
}

/** Group number g's close groups as its row writes them: `[group, hits]`, most hits first. */
export function closeGroupsOf(close: CloseGroups, g: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let k = close.start[g - 1]; k < close.start[g]; k++) out.push([close.group[k], close.hits[k]]);
  return out;
}

export interface RelationLayout {
  relationsChunkBytes: number;
  pairsChunkBytes: number;
}

/** Per entry − 1, in SharedArrayBuffers so that every worker reads the same memory. */
export interface RelationProteins {
  genomes: number;
  /**
   * Per genome, the entry number of its first protein, and one past the last protein's at the
   * end (genomes + 1 numbers): entries are numbered genome by genome.
   */
  genomeFirstEntry: Int32Array;
  /** 1 for a main isoform. */
  isMain: Uint8Array;
  /** Group number, 0 for none. */
  group: Int32Array;
  groupCount: number;
}

/** One genome's part of the tables: its chunks of each, packed, and its counts. */
export interface GenomeRelationChunks {
  relations: PackedChunks;
  pairs: PackedChunks;
  /** Pairs rows with each genome, in genome order. */
  pairCounts: Int32Array;
  /** Genes of this genome with a relation to a gene of each genome. */
  withRelations: Int32Array;
  /** Close-group hits its proteins give: [group, other group, hits] triples. */
  hits: Int32Array;
}

/** Chunks packed one after another in `bytes`: chunk i covers rows from `starts[i]` and ends at `ends[i]` in `bytes`. */
interface PackedChunks {
  starts: number[];
  ends: number[];
  bytes: Uint8Array;
}

/** What a worker is sent for one genome: its relations, and the pairs row its first pair gets. */
export interface GenomeRelationTask {
  rel: GenomeRelations;
  pairFirstRow: number;
}

/** Packed sizes, estimated: a relation or pair is a short array of small numbers (and nulls). */
const RELATION_BYTES = 10;
const PAIR_BYTES = 14;

/**
 * One part of the tables (tasks.ts, RELATION_PARTS): genomes [`from`, `to`), whose chunks were
 * written in packs of the part's own, and what putting the parts together needs of them.
 */
export interface RelationPart {
  from: number;
  to: number;
  /** The chunks of each table, as a page that is never written (TreeWriter.chunks). */
  relations: DirectoryPage<number>;
  pairs: DirectoryPage<number>;
  /** The pairs row of the part's first pair: the main-isoform relations of every genome before it. */
  firstPairRow: number;
  /** Per ordered genome pair of its genomes ((genome 1 − from) · genomes + genome 2): pairs rows. */
  pairCounts: Int32Array;
  /** Likewise: genes of genome 1 with a relation to a gene of genome 2. */
  withRelations: Int32Array;
  /** Close-group hits its proteins give, summed: [group, other group, hits] triples. */
  hits: Int32Array;
}

/**
 * Genome runs of about equal relation rows, `parts` of them (some empty when there are fewer
 * genomes, or when one genome holds more than a share): part i holds the genomes whose first
 * row falls in its share. A function of the rows alone, so every compile cuts alike.
 */
export function relationParts(perGenome: ArrayLike<number>, parts: number): Array<{ from: number; to: number }> {
  let total = 0;
  for (let g = 0; g < perGenome.length; g++) total += perGenome[g];
  const bounds = [0];
  let before = 0;
  let g = 0;
  for (let i = 1; i < parts; i++) {
    const share = (total * i) / parts;
    while (g < perGenome.length && before < share) before += perGenome[g++];
    bounds.push(g);
  }
  bounds.push(perGenome.length);
  return Array.from({ length: parts }, (_, i) => ({ from: bounds[i], to: bounds[i + 1] }));
}

/**
 * Part of the tables, genomes [`from`, `to`), written a genome at a time: a genome's chunks end
 * with it, so each genome is a job of its own, on `jobs` worker threads (relation-worker.ts)
 * when there are several, packing its chunks there, while this thread reads the next genomes
 * back from the engine and appends the packed chunks to the packs in genome order. The bytes
 * are the same at any `jobs`.
 */
export async function writeRelationPart(
  packs: PackWriter,
  relations: RelationsBuild,
  p: RelationProteins,
  layout: RelationLayout,
  jobs: number,
  { from, to, firstPairRow }: { from: number; to: number; firstPairRow: number },
  progress?: (genomesDone: number) => void,
): Promise<RelationPart> {
  const genomes = p.genomes;
  // genomeRelationChunks finds each partner's genome along these: one too few would misplace rows silently.
  if (p.genomeFirstEntry.length !== genomes + 1) throw new Error(`relations: ${p.genomeFirstEntry.length} genome first entries for ${genomes} genomes (expected ${genomes + 1})`);
  const relationTree = packs.tree<number>();
  const pairTree = packs.tree<number>();
  const pairCounts = new Int32Array((to - from) * genomes);
  const withRelations = new Int32Array((to - from) * genomes);
  const hits = new Map<number, Map<number, number>>();
  let done = 0;
  const take = (part: GenomeRelationChunks) => {
    appendChunks(relationTree, part.relations);
    appendChunks(pairTree, part.pairs);
    pairCounts.set(part.pairCounts, done * genomes);
    withRelations.set(part.withRelations, done * genomes);
    addHits(hits, part.hits);
    done += 1;
    progress?.(done);
  };

  // Each genome's first pairs row is counted here, before its arrays go to a worker (which detaches them).
  async function* tasks(): AsyncGenerator<GenomeRelationTask> {
    let nextPairRow = firstPairRow;
    for await (const rel of relations.genomes()) {
      const task = { rel, pairFirstRow: nextPairRow };
      nextPairRow += mainPairCount(rel, p);
      yield task;
    }
  }
  await runTasksInOrder(tasks(), take, {
    module: new URL("./relation-worker.ts", import.meta.url),
    jobs,
    workerData: { proteins: p, layout },
    transfer: ({ rel }) => [rel.first, rel.entry2, rel.code, rel.distance, rel.score].flatMap((a) => (a ? [a.buffer as ArrayBuffer] : [])),
  });
  if (done !== to - from) throw new Error(`relations: part of genomes ${from}–${to - 1} got ${done} genomes back from the engine`);
  const triples: number[] = [];
  for (const [group, counts] of hits) for (const [other, n] of counts) triples.push(group, other, n);
  return { from, to, relations: relationTree.chunks(), pairs: pairTree.chunks(), firstPairRow, pairCounts, withRelations, hits: Int32Array.from(triples) };
}

/**
 * The tables from their parts, in genome order: the parts' chunks under directory pages of
 * their own, the pair directory (each part must start its pairs rows where the one before
 * ended), and each group's close groups.
 */
export function putRelationPartsTogether(packs: PackWriter, parts: RelationPart[], p: { genomes: number; proteins: number; groupCount: number }): RelationTables {
  const genomes = p.genomes;
  const relationTree = packs.tree<number>();
  const pairTree = packs.tree<number>();
  const pairStart = new Float64Array(genomes * genomes);
  const pairCount = new Int32Array(genomes * genomes);
  const withRelations = new Int32Array(genomes * genomes);
  let pairRows = 0;
  let nextGenome = 0;
  for (const part of parts) {
    if (part.from !== nextGenome) throw new Error(`relations: a part starts at genome ${part.from}, where genome ${nextGenome} was next`);
    if (part.firstPairRow !== pairRows) throw new Error(`relations: the part of genomes from ${part.from} starts at pairs row ${part.firstPairRow}, where the parts before end at ${pairRows}`);
    relationTree.addChunks(part.relations);
    pairTree.addChunks(part.pairs);
    for (let i = 0, k = part.from * genomes; i < part.pairCounts.length; i++, k++) {
      pairStart[k] = pairRows;
      pairCount[k] = part.pairCounts[i];
      pairRows += part.pairCounts[i];
    }
    withRelations.set(part.withRelations, part.from * genomes);
    nextGenome = part.to;
  }
  if (nextGenome !== genomes) throw new Error(`relations: the parts end at genome ${nextGenome} of ${genomes}`);
  const closeGroups = closeGroupColumns(parts.map((part) => part.hits), p.groupCount);
  return {
    relations: { rows: p.proteins, tree: relationTree.finish() },
    pairs: { rows: pairRows, tree: pairTree.finish() },
    pairStart,
    pairCount,
    withRelations,
    closeGroups,
  };
}

/**
 * The parts' [group, other group, hits] triples (a pair of groups may come from several parts)
 * as CloseGroups: the triples placed by group (a counting sort), then each group's summed by
 * other group and ordered, a group at a time.
 */
function closeGroupColumns(parts: Int32Array[], groupCount: number): CloseGroups {
  const placed = new Int32Array(groupCount + 1);
  for (const triples of parts) for (let i = 0; i < triples.length; i += 3) placed[triples[i]]++;
  for (let g = 1; g <= groupCount; g++) placed[g] += placed[g - 1];
  const next = placed.slice(0, groupCount);
  const others = new Int32Array(placed[groupCount]);
  const counts = new Int32Array(placed[groupCount]);
  for (const triples of parts) {
    for (let i = 0; i < triples.length; i += 3) {
      const at = next[triples[i] - 1]++;
      others[at] = triples[i + 1];
      counts[at] = triples[i + 2];
    }
  }
  // Summed, each group's list is at most as long as its triples: written over them in place.
  const start = new Int32Array(groupCount + 1);
  let written = 0;
  for (let g = 0; g < groupCount; g++) {
    const summed = new Map<number, number>();
    for (let k = placed[g]; k < placed[g + 1]; k++) summed.set(others[k], (summed.get(others[k]) ?? 0) + counts[k]);
    for (const [other, n] of [...summed].sort((x, y) => y[1] - x[1] || x[0] - y[0])) {
      others[written] = other;
      counts[written++] = n;
    }
    start[g + 1] = written;
  }
  return { start, group: others.slice(0, written), hits: counts.slice(0, written) };
}

/** Adds [group, other group, hits] triples to the counts. */
function addHits(hits: Map<number, Map<number, number>>, triples: Int32Array): void {
  for (let i = 0; i < triples.length; i += 3) {
    let counts = hits.get(triples[i]);
    if (!counts) hits.set(triples[i], (counts = new Map()));
    counts.set(triples[i + 1], (counts.get(triples[i + 1]) ?? 0) + triples[i + 2]);
  }
}

function appendChunks(tree: TreeWriter<number>, chunks: PackedChunks): void {
  let at = 0;
  chunks.starts.forEach((start, i) => {
    tree.addPacked(start, chunks.bytes.subarray(at, chunks.ends[i]));
    at = chunks.ends[i];
  });
}

/** Relations between main isoforms: the genome's rows of the pairs table. */
function mainPairCount(rel: GenomeRelations, p: RelationProteins): number {
  let n = 0;
  for (let k = 0; k + 1 < rel.first.length; k++) {
    if (!p.isMain[rel.firstEntry + k - 1]) continue;
    for (let r = rel.first[k]; r < rel.first[k + 1]; r++) n += p.isMain[rel.entry2[r] - 1];
  }
  return n;
}

/**
 * One genome's rows of the relations table (per protein), of the pairs table (relations between
 * main isoforms, by partner genome, each genome pair's rows in (entry 1, entry 2) order, which a
 * stable split by partner genome keeps), its genes with a relation into each genome, and the
 * close-group hits of its proteins (a pairwise ortholog in another group is a hit of that group).
 */
export function genomeRelationChunks({ rel, pairFirstRow }: GenomeRelationTask, p: RelationProteins, layout: RelationLayout): GenomeRelationChunks {
  const relationChunks = packedChunks();
  const pairChunks = packedChunks();
  const relationRows = new NumberRowChunks(relationChunks.add, layout.relationsChunkBytes, rel.firstEntry - 1);
  const pairRows = new NumberRowChunks(pairChunks.add, layout.pairsChunkBytes, pairFirstRow);
  const size = rel.first.length - 1;
  const { distance: relDistance, score: relScore } = rel;
  const withRelations = new Int32Array(p.genomes);
  const hits: number[] = [];
  // The relations that are pairs rows (both main isoforms), and how many with each genome.
  const pairRelations = new GrowingInts();
  const pairCounts = new Int32Array(p.genomes);
  // seenBy[g] = k + 1 once protein k of this genome has a relation into genome g.
  const seenBy = new Int32Array(p.genomes);
  // A protein's hits per other group: counted by group number, the groups hit listed in the
  // order first hit (a Map did the same in 2/3 of this function's time at 2,500 genomes).
  const groupHits = new Int32Array(p.groupCount + 1);
  const groupsHit = new GrowingInts();
  // The partner genome of each pairs row, for placing the rows by genome below.
  const pairGenome = new GrowingInts();
  for (let k = 0; k < size; k++) {
    const entry = rel.firstEntry + k;
    const group = p.group[entry - 1];
    const main = p.isMain[entry - 1];
    const first = rel.first[k];
    const end = rel.first[k + 1];
    const row = relationRows.begin(2 + (end - first) * RELATION_BYTES, HEADER_BYTES + (end - first) * (HEADER_BYTES + 4 * NUMBER_BYTES));
    row.array(end - first);
    // Each relation a fixarray of 4 (0x94), written with the place kept here (writeNumber).
    const { values, view } = row;
    let at = row.length;
    for (let r = first; r < end; r++) {
      values[at++] = 0x94;
      at = writeNumber(values, view, at, rel.entry2[r]);
      at = writeNumber(values, view, at, rel.code[r]);
      at = writeMeasures(values, view, at, relDistance, relScore, r);
    }
    row.length = at;
    relationRows.end();
    for (let r = first, genome = 0; r < end; r++) {
      const partner = rel.entry2[r];
      genome = genomeFrom(p.genomeFirstEntry, genome, partner);
      if (seenBy[genome] !== k + 1) {
        seenBy[genome] = k + 1;
        withRelations[genome]++;
      }
      if (main && p.isMain[partner - 1]) {
        pairRelations.push(r);
        pairGenome.push(genome);
        pairCounts[genome]++;
      }
      if (group && isOrthologType(rel.code[r])) {
        const other = p.group[partner - 1];
        if (other !== 0 && other !== group && groupHits[other]++ === 0) groupsHit.push(other);
      }
    }
    for (let i = 0; i < groupsHit.length; i++) {
      const other = groupsHit.values[i];
      hits.push(group, other, groupHits[other]);
      groupHits[other] = 0;
    }
    groupsHit.length = 0;
  }
  relationRows.flush();
  // The pairs rows by partner genome: a stable counting sort keeps (entry 1, entry 2) order
  // within each. Their columns are moved into place in relation order (reading each relation
  // once, in order, and writing one stream per genome) and then written out in place order:
  // reading them through an index in place order missed the cache at every row.
  const at = new Int32Array(p.genomes);
  for (let g = 1; g < p.genomes; g++) at[g] = at[g - 1] + pairCounts[g - 1];
  const pairs = pairRelations.length;
  const entry1 = new Int32Array(pairs);
  const entry2 = new Int32Array(pairs);
  const code = new Uint8Array(pairs);
  const distance = relDistance && new Float64Array(pairs);
  const score = relScore && new Float64Array(pairs);
  for (let k = 0, i = 0; k < size; k++) {
    for (; i < pairs && pairRelations.values[i] < rel.first[k + 1]; i++) {
      const r = pairRelations.values[i];
      const to = at[pairGenome.values[i]]++;
      entry1[to] = rel.firstEntry + k;
      entry2[to] = rel.entry2[r];
      code[to] = rel.code[r];
      if (distance && score) {
        distance[to] = relDistance![r];
        score[to] = relScore![r];
      }
    }
  }
  for (let i = 0; i < pairs; i++) {
    const row = pairRows.begin(PAIR_BYTES, HEADER_BYTES + 5 * NUMBER_BYTES);
    const { values, view } = row;
    let at = row.length;
    values[at++] = 0x95;
    at = writeNumber(values, view, at, entry1[i]);
    at = writeNumber(values, view, at, entry2[i]);
    at = writeNumber(values, view, at, code[i]);
    row.length = writeMeasures(values, view, at, distance, score, i);
    pairRows.end();
  }
  pairRows.flush();
  return { relations: relationChunks.finish(), pairs: pairChunks.finish(), pairCounts, withRelations, hits: Int32Array.from(hits) };
}

/** A relation's distance and score, the `i`th of the columns; nil (0xc0) each without measures (every one unknown). */
function writeMeasures(values: Uint8Array, view: DataView, at: number, distance: Float64Array | undefined, score: Float64Array | undefined, i: number): number {
  if (!distance || !score) {
    values[at] = 0xc0;
    values[at + 1] = 0xc0;
    return at + 2;
  }
  return writeNumber(values, view, writeNumber(values, view, at, distance[i]), score[i]);
}

/**
 * The genome of protein `entry`, at genome `from` or after it (`firstEntry` as
 * RelationProteins' genomeFirstEntry). A protein's partners come in entry order, so its genome
 * is found by moving on from the last partner's, a search only where it jumps: at 2,500 genomes
 * a genome looked up per entry missed the cache at nearly every relation (a fifth of the time).
 */
function genomeFrom(firstEntry: Int32Array, from: number, entry: number): number {
  if (entry < firstEntry[from + 1]) return from;
  // The last genome whose first entry is at or before `entry` (past any empty genomes).
  let low = from + 1;
  let high = firstEntry.length - 2;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (firstEntry[middle] <= entry) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Chunks packed as they close, gathered into one buffer (posted back from a worker whole). */
function packedChunks() {
  const parts: Uint8Array[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let length = 0;
  return {
    add: (firstRow: number, bytes: Uint8Array) => {
      parts.push(bytes);
      starts.push(firstRow);
      ends.push((length += bytes.length));
    },
    finish(): PackedChunks {
      const bytes = new Uint8Array(length);
      let at = 0;
      for (const part of parts) {
        bytes.set(part, at);
        at += part.length;
      }
      return { starts, ends, bytes };
    },
  };
}
