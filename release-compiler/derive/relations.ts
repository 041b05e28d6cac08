/**
 * The release's pairwise relations: orthologs between genomes, close paralogs and
 * homoeologs within one. They come from a pairs file when the release has one, else from
 * the HOGs; each relation is kept in both directions with the type seen from its first
 * protein, and laid out twice: per protein (relations table) and per genome pair (pairs).
 */
import { HOMEOLOG, REL_TYPES, type RelType } from "../../src/release/format.js";
import type { PairRow as PairInput } from "../inputs.js";
import type { Problems } from "../problems.js";
import type { FamilyBuild } from "./hogs.js";
import { familyPairs } from "./pairs.js";

const CODE = new Map<string, number>(REL_TYPES.map((t, i) => [t, i]));
const ORTHOLOG_CODES = 4; // codes below this are ortholog types
/** Mirrored type code, seen from the other protein (`1:n` ↔ `m:1`). */
const MIRROR = [0, 2, 1, 3, 4, 5];

/** Directed relations, sorted by (entry1, entry2); distance and score are NaN when unknown. */
export interface RelationsBuild {
  count: number;
  entry1: Int32Array;
  entry2: Int32Array;
  code: Uint8Array;
  distance: Float64Array;
  score: Float64Array;
  /** Relations of entry e are the index range [first[e], first[e + 1]). */
  first: Int32Array;
}

export interface RelationContext {
  proteinCount: number;
  genomeOf: (entry: number) => number;
  /** Subgenome letter of a protein of a polyploid genome; "" otherwise. */
  subgenomeOf: (entry: number) => string;
  entryOfId: (id: string) => number | undefined;
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
 * when it has any, and by its same-genome relations when it has any of those.
 */
export async function deriveRelations(
  families: FamilyBuild[],
  pairsFile: { path: string; rows: AsyncIterable<PairInput> } | undefined,
  context: RelationContext,
  problems: Problems,
): Promise<RelationsBuild> {
  const fromHogs = new PairList();
  for (const family of families) {
    for (const p of familyPairs(family, context.genomeOf, context.subgenomeOf)) fromHogs.push(p.entry1, p.entry2, CODE.get(p.relType)!);
  }
  if (!pairsFile) return directed(fromHogs, context.proteinCount);

  const given = await readGivenPairs(pairsFile.path, pairsFile.rows, context, problems);
  const givenOrthologs = given.e1.some((e, i) => context.genomeOf(e) !== context.genomeOf(given.e2[i]));
  const givenWithin = given.e1.some((e, i) => context.genomeOf(e) === context.genomeOf(given.e2[i]));
  const merged = new PairList();
  const keep = (list: PairList, i: number) => merged.push(list.e1[i], list.e2[i], list.code[i], list.distance[i], list.score[i]);
  for (let i = 0; i < given.length; i++) keep(given, i);
  for (let i = 0; i < fromHogs.length; i++) {
    const within = context.genomeOf(fromHogs.e1[i]) === context.genomeOf(fromHogs.e2[i]);
    if (within ? !givenWithin : !givenOrthologs) keep(fromHogs, i);
  }
  return directed(merged, context.proteinCount);
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
      problems.report(path, row.line, `unknown protein ${a === undefined ? row.protein1 : row.protein2}`);
      continue;
    }
    const sameGenome = context.genomeOf(a) === context.genomeOf(b);
    const [x, y] = a < b ? [a, b] : [b, a];
    const key = `${x}:${y}`;
    const before = seen.get(key);
    if (before !== undefined) {
      problems.report(path, row.line, `the pair ${row.protein1}, ${row.protein2} was already given on line ${before}`);
      continue;
    }
    seen.set(key, row.line);
    let code = -1;
    if (row.relType !== undefined) {
      code = CODE.get(row.relType)!;
      if (sameGenome !== code >= ORTHOLOG_CODES) {
        problems.report(
          path,
          row.line,
          sameGenome
            ? `${row.protein1} and ${row.protein2} are of one genome, so they cannot be "${row.relType}" orthologs`
            : `${row.protein1} and ${row.protein2} are of different genomes, so they cannot be "${row.relType}"`,
        );
        continue;
      }
      if (code === HOMEOLOG && !differentSubgenomes(context, a, b)) {
        problems.report(path, row.line, `${row.protein1} and ${row.protein2} are not on different subgenomes of a polyploid genome`);
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

/** Both directions of every relation, sorted by (entry1, entry2). */
function directed(pairs: PairList, proteinCount: number): RelationsBuild {
  const count = pairs.length * 2;
  const start = new Int32Array(proteinCount + 1);
  for (let i = 0; i < pairs.length; i++) {
    start[pairs.e1[i]]++;
    start[pairs.e2[i]]++;
  }
  // Counting sort by entry1: start[e] becomes the end of entry e's slice, then its start.
  for (let e = 1; e <= proteinCount; e++) start[e] += start[e - 1];
  const entry1 = new Int32Array(count);
  const entry2 = new Int32Array(count);
  const code = new Uint8Array(count);
  const distance = new Float64Array(count);
  const score = new Float64Array(count);
  const put = (a: number, b: number, c: number, d: number, s: number) => {
    const at = --start[a];
    entry1[at] = a;
    entry2[at] = b;
    code[at] = c;
    distance[at] = d;
    score[at] = s;
  };
  for (let i = 0; i < pairs.length; i++) {
    put(pairs.e1[i], pairs.e2[i], pairs.code[i], pairs.distance[i], pairs.score[i]);
    put(pairs.e2[i], pairs.e1[i], MIRROR[pairs.code[i]], pairs.distance[i], pairs.score[i]);
  }
  // start[e] is now the first relation of entry e; close the last slice, then order each by partner.
  start[0] = 0;
  const first = new Int32Array(proteinCount + 2);
  first.set(start);
  first[proteinCount + 1] = count;
  const slice: number[] = [];
  for (let e = 1; e <= proteinCount; e++) {
    const from = first[e];
    const to = first[e + 1];
    if (to - from < 2) continue;
    slice.length = 0;
    for (let i = from; i < to; i++) slice.push(i);
    slice.sort((i, j) => entry2[i] - entry2[j]);
    const e2 = slice.map((i) => entry2[i]);
    const c = slice.map((i) => code[i]);
    const d = slice.map((i) => distance[i]);
    const s = slice.map((i) => score[i]);
    for (let k = 0; k < slice.length; k++) {
      entry2[from + k] = e2[k];
      code[from + k] = c[k];
      distance[from + k] = d[k];
      score[from + k] = s[k];
    }
  }
  return { count, entry1, entry2, code, distance, score, first };
}

export const isOrthologCode = (code: number): boolean => code < ORTHOLOG_CODES;
export type { RelType };
