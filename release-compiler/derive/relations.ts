/**
 * The release's pairwise relations: orthologs between genomes, close paralogs and
 * homoeologs within one. They come from a pairs file when the release has one (checked and
 * typed in a row engine of their own: given-pairs.ts), else from the HOGs; each relation is read in both directions, with the type seen from its first
 * protein. There can be ~10^9 of them, so they go into a table of the row engine
 * (engine.ts), once each, and it sorts them in both directions (RELATION_MIRROR) by
 * (entry1, entry2) out of core; they are read back a
 * genome (of the first protein) at a time. With several jobs the family pairs are derived
 * and appended on worker threads, each into a database file of its own (pair-workers.ts):
 * appending is most of the work, and DuckDB appends on the calling thread.
 */
import type { PairRow as PairInput } from "../inputs.js";
import type { Problems } from "../problems.js";
import { sortRanges, type ColumnKind, type Engine, type Mirror, type RowTable, type SortedRows } from "../engine.js";
import { familiesOf, type FamilyTable } from "./family-table.js";
import { threadsAlways } from "../workers.js";
import { deriveFamilyPairsInWorkers, memberPairs, WORKER_ALIGNED_PAIRS_FROM, WORKER_PAIRS_FROM } from "./pair-workers.js";
import { forEachFamilyPair } from "./pairs.js";
import { MIRROR, readGivenPairs, type GivenPairContext, type GivenPairs } from "./given-pairs.js";

/**
 * The directed relations of one genome's proteins, sorted by (entry1, entry2). Distance and
 * score (NaN when unknown) only where the release's relations are measured (`--align-pairs`):
 * without, every one is unknown, and two arrays of NaN were a third of what a relations part
 * filled, posted to its workers and collected.
 */
export interface GenomeRelations {
  firstEntry: number;
  /** Relations of entry e are the index range [first[e - firstEntry], first[e - firstEntry + 1]). */
  first: Int32Array;
  entry2: Int32Array;
  code: Uint8Array;
  distance?: Float64Array;
  score?: Float64Array;
}

/**
 * Every relation as deriveRelations leaves them: rows of the engine's `relations` table, each
 * once (relationColumns, with distance and score when measured), in the database file of the
 * task that derived them, and how many directed rows they read back as per genome of the first
 * protein.
 */
export interface StoredRelations {
  count: number;
  measured: boolean;
  perGenome: Float64Array;
  /** Rows per genome of entry1 between two main isoforms: each genome's rows of the pairs table, so a part of them knows its first row. */
  mainPerGenome: Float64Array;
  /** Database files in the deriving task's folder (the pair workers', pair-workers.ts) that hold more rows of the table, read with its own as one (engine.ts `attach`). */
  parts: string[];
}

export const RELATIONS_TABLE = "relations";

/** A relation's row seen from its other protein: the entries exchanged, the type mirrored (one-to-many is many-to-one). */
export const RELATION_MIRROR: Mirror = { swap: ["entry1", "entry2"], map: { column: "code", to: MIRROR } };

/** The columns of the relations table. */
export function relationColumns(measured: boolean): Record<string, ColumnKind> {
  return { entry1: "int32", entry2: "int32", code: "uint8", ...(measured ? { distance: "float64" as const, score: "float64" as const } : {}) };
}

/** Every directed relation, read back one genome (of the first protein) at a time, in genome order. */
export interface RelationsBuild {
  count: number;
  /** The relations of each genome's proteins, every genome in order (empty ones too); can be walked once. */
  genomes(): AsyncGenerator<GenomeRelations>;
}

interface RelationContext extends GivenPairContext {
  proteinCount: number;
  isMain: (entry: number) => boolean;
  /** First entry number and protein count of each genome. */
  genomeFirstEntry: number[];
  genomeSize: number[];
  /** With `--align-pairs`: the score and distance of a pair (derive/pair-alignment.ts). */
  measure?: (entry1: number, entry2: number) => { score: number; distance: number };
  /** With `--align-pairs`: a protein's sequence (the workers align the family pairs themselves). */
  sequenceOf?: (entry: number) => string;
  /** Worker threads that derive (and align) the family pairs; 1 derives them on this thread. */
  jobs?: number;
  /** With several jobs: the folder where each pair worker keeps its database file, its scratch folder, and the memory of each worker's engine. */
  workerRows?: { folder: string; scratch: string; memoryBytes: number };
}

/**
 * Relations derived from the HOGs (see forEachFamilyPair), replaced by the pairs file's orthologs
 * when it has any, and by its same-genome relations when it has any of those. Family pairs
 * go to the engine as they are found, never all held.
 */
export async function deriveRelations(
  families: FamilyTable,
  /** A pairs file's rows (or OrthoFinder's orthologues'), and a scratch folder for their row engine with its memory (given-pairs.ts). */
  pairsFile: { path: string; rows: AsyncIterable<PairInput[]>; scratch: { folder: string; memoryBytes: number } } | undefined,
  context: RelationContext,
  problems: Problems,
  engine: Engine,
  progress?: (familiesDone: number) => void,
): Promise<StoredRelations> {
  const given = pairsFile && (await readGivenPairs(pairsFile.path, pairsFile.rows, context, problems, { ...pairsFile.scratch, threads: context.jobs ?? 1 }));
  try {
    return await relationsWith(given, families, context, engine, progress);
  } finally {
    given?.close();
  }
}

/** The relations of the families, and the given pairs (which replace the families' of their kinds). */
async function relationsWith(
  given: GivenPairs | undefined,
  families: FamilyTable,
  context: RelationContext,
  engine: Engine,
  progress?: (familiesDone: number) => void,
): Promise<StoredRelations> {
  // Distances and scores come from a pairs file or from aligning the pairs; without either,
  // records leave them out.
  const { measure } = context;
  const measured = given !== undefined || measure !== undefined;
  const table = await engine.table(RELATIONS_TABLE, relationColumns(measured));
  const spill = new RelationRows(table, context.genomeFirstEntry.length, context.genomeOf, context.isMain);
  const givenOrthologs = given?.between ?? false;
  const givenWithin = given?.within ?? false;
  // A pair's measures: the file's when it gave them, else the alignment's when asked for.
  const add = (a: number, b: number, code: number, distance = NaN, score = NaN) => {
    if (measure && Number.isNaN(distance) && Number.isNaN(score)) ({ distance, score } = measure(a, b));
    spill.add(a, b, code, distance, score);
  };
  if (given) {
    for await (const { count, columns: [x, y, code, distance, score] } of given.rows()) for (let r = 0; r < count; r++) add(x[r], y[r], code[r], distance[r], score[r]);
    // Its engine's memory is freed before the pair workers start theirs.
    given.close();
  }
  if ((context.jobs ?? 1) > 1 && families.count > 1 && context.workerRows && (memberPairs(families) >= (measure ? WORKER_ALIGNED_PAIRS_FROM : WORKER_PAIRS_FROM) || threadsAlways())) {
    const entries = Array.from({ length: context.proteinCount }, (_, i) => i + 1);
    const written = await deriveFamilyPairsInWorkers(families, {
      jobs: context.jobs!,
      genome: Int32Array.from(entries, context.genomeOf),
      subgenome: Uint8Array.from(entries, (e) => context.subgenomeOf(e).charCodeAt(0) || 0),
      isMain: Uint8Array.from(entries, (e) => Number(context.isMain(e))),
      genomes: context.genomeFirstEntry.length,
      keepWithin: !givenWithin,
      keepBetween: !givenOrthologs,
      measured,
      rows: context.workerRows,
      sequenceOf: measure ? context.sequenceOf : undefined,
      progress,
    });
    const stored = spill.finish(measured);
    for (const w of written) {
      stored.count += w.rows;
      for (let g = 0; g < stored.perGenome.length; g++) {
        stored.perGenome[g] += w.perGenome[g];
        stored.mainPerGenome[g] += w.mainPerGenome[g];
      }
    }
    return { ...stored, parts: written.map((w) => w.file) };
  }
  for (const family of familiesOf(families)) {
    forEachFamilyPair(family, context.genomeOf, context.subgenomeOf, (entry1, entry2, code) => {
      const within = context.genomeOf(entry1) === context.genomeOf(entry2);
      if (within ? !givenWithin : !givenOrthologs) add(entry1, entry2, code);
    });
    progress?.(family.index);
  }
  return spill.finish(measured);
}

/**
 * Every relation, as a row of the engine's `relations` table: entry1, entry2, type code, then
 * distance and score when measured (on this thread, or on a pair worker into its own table).
 * A relation is appended once, in the direction found, and read back in both (RELATION_MIRROR);
 * the counts are of both directions, the rows read back.
 */
export class RelationRows {
  /** Rows read back: both directions of every relation. */
  private directed = 0;
  /** Rows per genome of entry1, to size each genome's arrays when it is read back. */
  readonly perGenome: Float64Array;
  readonly mainPerGenome: Float64Array;

  constructor(
    private readonly table: RowTable,
    genomes: number,
    private readonly genomeOf: (entry: number) => number,
    private readonly isMain: (entry: number) => boolean,
  ) {
    this.perGenome = new Float64Array(genomes);
    this.mainPerGenome = new Float64Array(genomes);
  }

  add(a: number, b: number, code: number, distance = NaN, score = NaN): void {
    this.table.append(a, b, code, distance, score);
    this.count(a, b);
    this.count(b, a);
  }

  private count(a: number, b: number): void {
    this.directed++;
    this.perGenome[this.genomeOf(a)]++;
    if (this.isMain(a) && this.isMain(b)) this.mainPerGenome[this.genomeOf(a)]++;
  }

  finish(measured: boolean): StoredRelations {
    this.table.close();
    return { count: this.directed, measured, perGenome: this.perGenome, mainPerGenome: this.mainPerGenome, parts: [] };
  }
}

/** What reading the relations back needs of the proteins: where each genome's entries start, and how many it has. */
interface GenomeLayout {
  genomeFirstEntry: number[];
  genomeSize: number[];
  proteinCount: number;
}

/**
 * The stored relations of genomes [`from`, `to`), read back from the engine's table a run of
 * genomes at a time (each run's rows sorted in memory: at most `rowsPerRange` unless one
 * genome has more).
 */
export function readRelations(
  stored: StoredRelations,
  table: SortedRows,
  rowsPerRange: number,
  layout: GenomeLayout,
  { from, to }: { from: number; to: number } = { from: 0, to: layout.genomeSize.length },
): RelationsBuild {
  const { measured, perGenome } = stored;
  const { genomeFirstEntry, genomeSize, proteinCount } = layout;
  const entryOf = (genome: number) => (genome < genomeFirstEntry.length ? genomeFirstEntry[genome] : proteinCount + 1);
  const entryRanges = sortRanges(perGenome.subarray(from, to), rowsPerRange).map((range) => ({
    from: entryOf(from + range.from),
    to: entryOf(from + range.to),
  }));
  let count = 0;
  for (let g = from; g < to; g++) count += perGenome[g];
  return {
    count,
    async *genomes() {
      if (from >= to) return;
      let g = from;
      let rel = emptyRelations(genomeFirstEntry[g], genomeSize[g], perGenome[g], measured);
      let at = 0;
      // Genome g is complete once every one of its rows is in; genomes with none are yielded empty.
      const complete = async function* () {
        while (g < to && at === perGenome[g]) {
          yield finishRelations(rel);
          g++;
          at = 0;
          if (g < to) rel = emptyRelations(genomeFirstEntry[g], genomeSize[g], perGenome[g], measured);
        }
      };
      yield* complete();
      for (const range of entryRanges) {
        for await (const { count, columns } of table.sorted(["entry1", "entry2"], range, RELATION_MIRROR)) {
          const [entry1, entry2, code, distance, score] = columns;
          for (let r = 0; r < count; r++) {
            rel.first[entry1[r] - rel.firstEntry + 1]++;
            rel.entry2[at] = entry2[r];
            rel.code[at] = code[r];
            if (measured) {
              rel.distance![at] = distance[r];
              rel.score![at] = score[r];
            }
            at++;
            if (at === perGenome[g]) yield* complete();
          }
        }
      }
      if (g < to) throw new Error(`relations: genome ${g} got ${at} of its ${perGenome[g]} rows back from the engine`);
    },
  };
}

/** Arrays for one genome's `rows` relations; `first` counts rows per entry until finishRelations. */
function emptyRelations(firstEntry: number, size: number, rows: number, measured: boolean): GenomeRelations {
  return {
    firstEntry,
    first: new Int32Array(size + 1),
    entry2: new Int32Array(rows),
    code: new Uint8Array(rows),
    ...(measured ? { distance: new Float64Array(rows), score: new Float64Array(rows) } : {}),
  };
}

/** Turns the per-entry counts of `first` into the start of each entry's range. */
function finishRelations(rel: GenomeRelations): GenomeRelations {
  for (let e = 0; e + 1 < rel.first.length; e++) rel.first[e + 1] += rel.first[e];
  return rel;
}
