/**
 * The release's pairwise relations: orthologs between genomes, close paralogs and
 * homoeologs within one. They come from a pairs file when the release has one, else from
 * the HOGs; each relation is kept in both directions with the type seen from its first
 * protein. There can be ~10^8 of them, so they are spilled to disk, one bucket per genome of
 * the first protein, and each genome's relations are sorted on their own when read back.
 */
import { HOMEOLOG, isOrthologType, REL_TYPES } from "../../release-format/format.js";
import type { PairRow as PairInput } from "../inputs.js";
import type { Problems } from "../problems.js";
import { BucketSpill, type ScratchFolder } from "../spill.js";
import type { FamilyBuild } from "./hogs.js";
import { familyPairs } from "./pairs.js";

const CODE = new Map<string, number>(REL_TYPES.map((t, i) => [t, i]));
/** Mirrored type code, seen from the other protein (`1:n` ↔ `m:1`). */
const MIRROR = [0, 2, 1, 3, 4, 5];

/** The directed relations of one genome's proteins, sorted by (entry1, entry2); distance and score are NaN when unknown. */
export interface GenomeRelations {
  firstEntry: number;
  /** Relations of entry e are the index range [first[e - firstEntry], first[e - firstEntry + 1]). */
  first: Int32Array;
  entry2: Int32Array;
  code: Uint8Array;
  distance: Float64Array;
  score: Float64Array;
}

/** Every directed relation, read back one genome (of the first protein) at a time, in genome order. */
export interface RelationsBuild {
  count: number;
  /** The relations of genome g's proteins; each genome can be read once. */
  readGenome(genome: number): GenomeRelations;
}

interface RelationContext {
  proteinCount: number;
  genomeOf: (entry: number) => number;
  /** First entry number and protein count of each genome. */
  genomeFirstEntry: number[];
  genomeSize: number[];
  /** Subgenome letter of a protein of a polyploid genome; "" otherwise. */
  subgenomeOf: (entry: number) => string;
  entryOfId: (id: string) => number | undefined;
  /** With `--align-pairs`: the score and distance of a pair (derive/pair-alignment.ts). */
  measure?: (entry1: number, entry2: number) => { score: number; distance: number };
}

/** Undirected relations (entry1 < entry2) as they are collected. */
class PairList {
  e1: number[] = [];
  e2: number[] = [];
  code: number[] = [];
  distance: number[] = [];
  score: number[] = [];
  push(a: number, b: number, code: number, distance = NaN, score = NaN): void {
    this.e1.push(a);
    this.e2.push(b);
    this.code.push(code);
    this.distance.push(distance);
    this.score.push(score);
  }
  get length(): number {
    return this.e1.length;
  }
}

/**
 * Relations derived from the HOGs (see familyPairs), replaced by the pairs file's orthologs
 * when it has any, and by its same-genome relations when it has any of those. Family pairs
 * are spilled family by family, never all held.
 */
export async function deriveRelations(
  families: FamilyBuild[],
  pairsFile: { path: string; rows: AsyncIterable<PairInput> } | undefined,
  context: RelationContext,
  problems: Problems,
  scratch: ScratchFolder,
): Promise<RelationsBuild> {
  const given = pairsFile ? await readGivenPairs(pairsFile.path, pairsFile.rows, context, problems) : new PairList();
  // Distances and scores come from a pairs file or from aligning the pairs; without either,
  // records leave them out.
  const { measure } = context;
  const spill = new RelationSpill(scratch.folder("relations"), context, pairsFile !== undefined || measure !== undefined);
  const givenOrthologs = given.e1.some((e, i) => context.genomeOf(e) !== context.genomeOf(given.e2[i]));
  const givenWithin = given.e1.some((e, i) => context.genomeOf(e) === context.genomeOf(given.e2[i]));
  // A pair's measures: the file's when it gave them, else the alignment's when asked for.
  const add = (a: number, b: number, code: number, distance = NaN, score = NaN) => {
    if (measure && Number.isNaN(distance) && Number.isNaN(score)) ({ distance, score } = measure(a, b));
    spill.add(a, b, code, distance, score);
  };
  for (let i = 0; i < given.length; i++) add(given.e1[i], given.e2[i], given.code[i], given.distance[i], given.score[i]);
  for (const family of families) {
    for (const p of familyPairs(family, context.genomeOf, context.subgenomeOf)) {
      const within = context.genomeOf(p.entry1) === context.genomeOf(p.entry2);
      if (within ? !givenWithin : !givenOrthologs) add(p.entry1, p.entry2, CODE.get(p.relType)!);
    }
  }
  return spill.finish();
}

/**
 * The pairs file's relations. A row without a type gets one: orthologs by counting each
 * protein's co-orthologs in the other genome among the file's rows, same-genome pairs are
 * homoeologs when they lie on different subgenomes of a polyploid genome, else close paralogs.
 */
async function readGivenPairs(
  path: string,
  rows: AsyncIterable<PairInput>,
  context: RelationContext,
  problems: Problems,
): Promise<PairList> {
  const out = new PairList();
  const seen = new Map<string, number>();
  const untyped: number[] = [];
  for await (const row of rows) {
    const a = context.entryOfId(row.protein1);
    const b = context.entryOfId(row.protein2);
    if (a === undefined || b === undefined) {
      problems.report(row.file ?? path, row.line, `unknown protein ${a === undefined ? row.protein1 : row.protein2}`);
      continue;
    }
    const sameGenome = context.genomeOf(a) === context.genomeOf(b);
    const [x, y] = a < b ? [a, b] : [b, a];
    const key = `${x}:${y}`;
    const before = seen.get(key);
    if (before !== undefined) {
      problems.report(row.file ?? path, row.line, `the pair ${row.protein1}, ${row.protein2} was already given on line ${before}`);
      continue;
    }
    seen.set(key, row.line);
    let code = -1;
    if (row.relType !== undefined) {
      code = CODE.get(row.relType)!;
      if (sameGenome === isOrthologType(code)) {
        problems.report(
          row.file ?? path,
          row.line,
          sameGenome
            ? `${row.protein1} and ${row.protein2} are of one genome, so they cannot be "${row.relType}" orthologs`
            : `${row.protein1} and ${row.protein2} are of different genomes, so they cannot be "${row.relType}"`,
        );
        continue;
      }
      if (code === HOMEOLOG && !differentSubgenomes(context, a, b)) {
        problems.report(row.file ?? path, row.line, `${row.protein1} and ${row.protein2} are not on different subgenomes of a polyploid genome`);
        continue;
      }
      // The file writes the type from protein1's side.
      if (a > b) code = MIRROR[code];
    } else if (sameGenome) {
      code = differentSubgenomes(context, a, b) ? HOMEOLOG : CODE.get("close paralog")!;
    } else {
      untyped.push(out.length);
    }
    out.push(x, y, code, row.distance, row.score);
  }

  // Co-ortholog counts for untyped orthologs: partners of each protein per other genome.
  if (untyped.length) {
    const counts = new Map<string, number>();
    const bump = (entry: number, genome: number) => counts.set(`${entry}:${genome}`, (counts.get(`${entry}:${genome}`) ?? 0) + 1);
    for (let i = 0; i < out.length; i++) {
      if (context.genomeOf(out.e1[i]) === context.genomeOf(out.e2[i])) continue;
      bump(out.e1[i], context.genomeOf(out.e2[i]));
      bump(out.e2[i], context.genomeOf(out.e1[i]));
    }
    for (const i of untyped) {
      const x = out.e1[i];
      const y = out.e2[i];
      const many1 = counts.get(`${y}:${context.genomeOf(x)}`)! > 1; // x has co-orthologs in its genome
      const many2 = counts.get(`${x}:${context.genomeOf(y)}`)! > 1;
      out.code[i] = many1 ? (many2 ? 3 : 2) : many2 ? 1 : 0;
    }
  }
  return out;
}

function differentSubgenomes(context: RelationContext, a: number, b: number): boolean {
  const sa = context.subgenomeOf(a);
  const sb = context.subgenomeOf(b);
  return sa !== "" && sb !== "" && sa !== sb;
}

/**
 * Both directions of every relation, spilled by genome of the first protein. A record is
 * entry1, entry2 (int32), type code (uint8), then distance and score (float64) when measured.
 */
class RelationSpill {
  private readonly spill: BucketSpill;
  private count = 0;

  constructor(
    dir: string,
    private readonly context: RelationContext,
    private readonly measured: boolean,
  ) {
    this.spill = new BucketSpill(dir, context.genomeFirstEntry.length, measured ? 25 : 9);
  }

  add(a: number, b: number, code: number, distance = NaN, score = NaN): void {
    this.put(a, b, code, distance, score);
    this.put(b, a, MIRROR[code], distance, score);
  }

  private put(a: number, b: number, code: number, distance: number, score: number): void {
    const { buffer, offset } = this.spill.append(this.context.genomeOf(a));
    buffer.writeInt32LE(a, offset);
    buffer.writeInt32LE(b, offset + 4);
    buffer[offset + 8] = code;
    if (this.measured) {
      buffer.writeDoubleLE(distance, offset + 9);
      buffer.writeDoubleLE(score, offset + 17);
    }
    this.count++;
  }

  finish(): RelationsBuild {
    const { spill, measured, context } = this;
    return {
      count: this.count,
      readGenome: (genome) => sortedRelations(spill.read(genome), spill.recordBytes, measured, context.genomeFirstEntry[genome], context.genomeSize[genome]),
    };
  }
}

/** Decodes one genome's records and sorts them by (entry1, entry2): counting sort by entry, then each entry's few by partner. */
function sortedRelations(bytes: Buffer, recordBytes: number, measured: boolean, firstEntry: number, size: number): GenomeRelations {
  const n = bytes.length / recordBytes;
  const first = new Int32Array(size + 1);
  const partner = new Int32Array(n);
  for (let r = 0; r < n; r++) {
    first[bytes.readInt32LE(r * recordBytes) - firstEntry + 1]++;
    partner[r] = bytes.readInt32LE(r * recordBytes + 4);
  }
  for (let e = 0; e < size; e++) first[e + 1] += first[e];
  const order = new Int32Array(n);
  const next = first.slice(0, size);
  for (let r = 0; r < n; r++) order[next[bytes.readInt32LE(r * recordBytes) - firstEntry]++] = r;
  // Ties (a pair given twice) cannot pass the input checks; the record order would break them.
  for (let e = 0; e < size; e++) {
    if (first[e + 1] - first[e] > 1) order.subarray(first[e], first[e + 1]).sort((x, y) => partner[x] - partner[y] || x - y);
  }
  const entry2 = new Int32Array(n);
  const code = new Uint8Array(n);
  const distance = new Float64Array(n).fill(NaN);
  const score = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    const at = order[i] * recordBytes;
    entry2[i] = partner[order[i]];
    code[i] = bytes[at + 8];
    if (measured) {
      distance[i] = bytes.readDoubleLE(at + 9);
      score[i] = bytes.readDoubleLE(at + 17);
    }
  }
  return { firstEntry, first, entry2, code, distance, score };
}
