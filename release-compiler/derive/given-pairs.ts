/**
 * The pairs a release is given (a pairs file, OrthoFinder's orthologues) rather than derived
 * from its HOGs. There may be billions of them, so none is held: each row is checked as it is
 * read (its proteins known, its type possible for them) and appended to a table of a row engine
 * of its own (engine.ts, DuckDB, in a scratch folder); a pair given twice is found, and the
 * orthologs given without a type are typed by their co-orthologs, by queries the engine runs out
 * of core. Until this module, the pairs were held in typed arrays (25 bytes a pair) and their
 * repeats found in a map of pair numbers: a pairs file of 68 M pairs (the simulated million
 * proteins' orthologs) needed ~5 GB for them alone.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { HOMEOLOG, isOrthologType, REL_TYPES } from "../../release-format/format.js";
import type { PairRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { takeRows } from "../readers/lines.js";
import { columnArrays, openEngine, type ColumnKind, type Engine } from "../engine.js";

const CODE = new Map<string, number>(REL_TYPES.map((t, i) => [t, i]));
const CLOSE_PARALOG = REL_TYPES.indexOf("close paralog");
/** Mirrored type code, seen from the other protein (`1:n` ↔ `m:1`). */
export const MIRROR = [0, 2, 1, 3, 4, 5];
/** The code of an ortholog given without a type, until its co-orthologs are counted. */
const UNTYPED = 255;

const TABLE = "given_pairs";
/**
 * A pair as given: its place among the rows (`ord`), its entries x < y and their genomes, its
 * type seen from x (or UNTYPED), whether the row named y first (`flipped`), its measures (NaN
 * when not given), and where it was given (`file`: an index into the files read).
 */
const COLUMNS: Record<string, ColumnKind> = {
  ord: "float64", x: "int32", y: "int32", gx: "int32", gy: "int32", code: "uint8", flipped: "uint8", distance: "float64", score: "float64", file: "int32", line: "float64",
};
const BATCH = 2048;

export interface GivenPairContext {
  genomeOf: (entry: number) => number;
  /** Subgenome letter of a protein of a polyploid genome; "" otherwise. */
  subgenomeOf: (entry: number) => string;
  entryOfId: (id: string) => number | undefined;
  /** The id a protein is given by (what a pair names it by). */
  idOf: (entry: number) => string;
}

/** The given pairs, checked: which kinds there are, and their rows to read once. */
export interface GivenPairs {
  /** Pairs of two genomes (orthologs) among them: they replace the HOGs' orthologs. */
  between: boolean;
  /** Pairs of one genome (close paralogs, homoeologs): they replace the HOGs' same-genome pairs. */
  within: boolean;
  /** Each pair once, x < y, its type seen from x: batches of [x, y, code, distance, score], whose arrays are reused. */
  rows(): AsyncGenerator<{ count: number; columns: [Int32Array, Int32Array, Uint8Array, Float64Array, Float64Array] }>;
  /** Closes the engine and removes its files (again: nothing). */
  close(): void;
}

/**
 * Reads and checks the given pairs into a row engine in `scratch` (which `close` removes). A
 * row whose proteins are not known, or whose type cannot be theirs, is reported and left out;
 * a pair given again (either way round) is reported at its line with the line it was first
 * given on, after every row is read. A row without a type gets one: orthologs by counting each
 * protein's co-orthologs in the other genome among the given pairs, same-genome pairs are
 * homoeologs when they lie on different subgenomes of a polyploid genome, else close paralogs.
 */
export async function readGivenPairs(
  path: string,
  given: AsyncIterable<PairRow[]>,
  context: GivenPairContext,
  problems: Problems,
  scratch: { folder: string; memoryBytes: number; threads: number },
): Promise<GivenPairs> {
  mkdirSync(scratch.folder, { recursive: true });
  const engine = await openEngine({ database: join(scratch.folder, "given.duckdb"), spill: join(scratch.folder, "spill"), memoryBytes: scratch.memoryBytes, threads: scratch.threads });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    engine.close();
    rmSync(scratch.folder, { recursive: true, force: true });
  };
  try {
    const { between, within, untyped, files } = await appendPairs(path, given, context, problems, engine);
    // A pair given twice stops the compile (it is reported): its relations are not needed.
    const repeated = await reportRepeats(engine, files, context, problems);
    return {
      between,
      within,
      rows: () => (repeated ? noRows() : typedRows(engine, untyped > 0)),
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/** Checks each row and appends those that may be pairs: their counts by kind, and the files they came from. */
async function appendPairs(path: string, given: AsyncIterable<PairRow[]>, context: GivenPairContext, problems: Problems, engine: Engine) {
  const table = await engine.table(TABLE, COLUMNS);
  const batch = columnArrays(Object.values(COLUMNS), BATCH);
  const [ord, xs, ys, gxs, gys, codes, flips, distances, scores, fileOf, lines] = batch;
  let used = 0;
  let rows = 0;
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  let between = false;
  let within = false;
  let untyped = 0;
  await takeRows(given, problems, (row) => {
    const file = row.file ?? path;
    const a = context.entryOfId(row.protein1);
    const b = context.entryOfId(row.protein2);
    if (a === undefined || b === undefined) {
      problems.report(file, row.line, `unknown protein ${a === undefined ? row.protein1 : row.protein2}`);
      return;
    }
    const sameGenome = context.genomeOf(a) === context.genomeOf(b);
    let code: number;
    if (row.relType !== undefined) {
      code = CODE.get(row.relType)!;
      if (sameGenome === isOrthologType(code)) {
        problems.report(
          file,
          row.line,
          sameGenome
            ? `${row.protein1} and ${row.protein2} are of one genome, so they cannot be "${row.relType}" orthologs`
            : `${row.protein1} and ${row.protein2} are of different genomes, so they cannot be "${row.relType}"`,
        );
        return;
      }
      if (code === HOMEOLOG && !differentSubgenomes(context, a, b)) {
        problems.report(file, row.line, `${row.protein1} and ${row.protein2} are not on different subgenomes of a polyploid genome`);
        return;
      }
      // The file writes the type from protein1's side.
      if (a > b) code = MIRROR[code];
    } else if (sameGenome) {
      code = differentSubgenomes(context, a, b) ? HOMEOLOG : CLOSE_PARALOG;
    } else {
      code = UNTYPED;
      untyped++;
    }
    if (sameGenome) within = true;
    else between = true;
    let f = fileIndex.get(file);
    if (f === undefined) {
      fileIndex.set(file, (f = files.length));
      files.push(file);
    }
    const [x, y] = a < b ? [a, b] : [b, a];
    ord[used] = rows++;
    xs[used] = x;
    ys[used] = y;
    gxs[used] = context.genomeOf(x);
    gys[used] = context.genomeOf(y);
    codes[used] = code;
    flips[used] = a > b ? 1 : 0;
    distances[used] = row.distance ?? NaN;
    scores[used] = row.score ?? NaN;
    fileOf[used] = f;
    lines[used] = row.line;
    if (++used === BATCH) {
      table.appendColumns(batch, used);
      used = 0;
    }
  });
  table.appendColumns(batch, used);
  table.close();
  return { between, within, untyped, files };
}

/** Reports every pair given again, in the order given, at its line with the line it was first given on; whether there was one. */
async function reportRepeats(engine: Engine, files: string[], context: GivenPairContext, problems: Problems): Promise<boolean> {
  const repeats = engine.query(
    `WITH firsts AS (SELECT x, y, min(ord) AS first FROM ${TABLE} GROUP BY x, y HAVING count(*) > 1)
     SELECT g.file, g.line, f.line, g.x, g.y, g.flipped
     FROM ${TABLE} g JOIN firsts USING (x, y) JOIN ${TABLE} f ON f.ord = firsts.first
     WHERE g.ord > firsts.first ORDER BY g.ord`,
    ["int32", "float64", "float64", "int32", "int32", "uint8"],
  );
  let any = false;
  for await (const { count, columns } of repeats) {
    const [file, line, firstLine, x, y, flipped] = columns;
    for (let r = 0; r < count; r++) {
      const [p1, p2] = flipped[r] ? [y[r], x[r]] : [x[r], y[r]];
      problems.report(files[file[r]], line[r], `the pair ${context.idOf(p1)}, ${context.idOf(p2)} was already given on line ${firstLine[r]}`);
      any = true;
    }
  }
  return any;
}

/**
 * The pairs with their types: an untyped ortholog of x and y is `1:1`, `1:n`, `m:1` or `m:n` by
 * whether y has other orthologs in x's genome (ofY: x has co-orthologs) and x in y's (ofX),
 * among every ortholog given.
 */
async function* typedRows(engine: Engine, anyUntyped: boolean): AsyncGenerator<{ count: number; columns: [Int32Array, Int32Array, Uint8Array, Float64Array, Float64Array] }> {
  const typed = `SELECT x, y, code, distance, score FROM ${TABLE} WHERE code <> ${UNTYPED}`;
  const sql = anyUntyped
    ? `WITH partners AS (
         SELECT entry, genome, count(*) AS n FROM (
           SELECT x AS entry, gy AS genome FROM ${TABLE} WHERE gx <> gy
           UNION ALL SELECT y, gx FROM ${TABLE} WHERE gx <> gy)
         GROUP BY entry, genome)
       ${typed}
       UNION ALL
       SELECT p.x, p.y, CAST(CASE WHEN ofY.n > 1 THEN (CASE WHEN ofX.n > 1 THEN 3 ELSE 2 END) ELSE (CASE WHEN ofX.n > 1 THEN 1 ELSE 0 END) END AS UTINYINT), p.distance, p.score
       FROM ${TABLE} p JOIN partners ofY ON ofY.entry = p.y AND ofY.genome = p.gx JOIN partners ofX ON ofX.entry = p.x AND ofX.genome = p.gy
       WHERE p.code = ${UNTYPED}`
    : typed;
  yield* engine.query(sql, ["int32", "int32", "uint8", "float64", "float64"]) as AsyncGenerator<{ count: number; columns: [Int32Array, Int32Array, Uint8Array, Float64Array, Float64Array] }>;
}

async function* noRows(): AsyncGenerator<never> {}

function differentSubgenomes(context: GivenPairContext, a: number, b: number): boolean {
  const sa = context.subgenomeOf(a);
  const sb = context.subgenomeOf(b);
  return sa !== "" && sb !== "" && sa !== sb;
}
