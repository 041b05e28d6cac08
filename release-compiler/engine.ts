/**
 * Rows too many to hold in memory (every relation of the release, appended once and read back
 * in both directions: Mirror) go through DuckDB (@duckdb/node-api): appended in column batches
 * to a table of a database file in the work folder, then read back sorted by a later task that
 * opens the file read-only (the derive task keeps it for the relations parts).
 * DuckDB sorts on `threads` threads and out of
 * core: past its memory limit it spills to a scratch folder, so a release of any size sorts
 * within the compile's memory budget. Callers that know how their rows spread over the first
 * sort key read them back a key range at a time (`sortRanges`), so that each range sorts in
 * memory and the spill files never hold the whole table a second time. The table is in the
 * database file, compressed, rather than a temporary table: measured at a million proteins, a
 * temporary table appends faster but spills its rows uncompressed (4.8 GB of temp disk against
 * 1.6 GB), for no gain in wall time.
 *
 * A table may be written in parts, each by a thread of its own into a database file of its own
 * (DuckDB appends on the thread that calls it, one table at a time, so rows from several
 * threads go into several files): a later task opens the first file read-only with the others
 * attached (`attach`), and reads the table as one, the union of its parts.
 *
 * Columns cross between JS and DuckDB as whole typed arrays (the bindings' copy_data_to_vector
 * and vector_get_data under node-api's chunks): the node-api's per-value getItem/setItem took
 * about half the time of reading rows back. Columns are never NULL, so validity is not touched.
 */
import { DOUBLE, DuckDBDataChunk, DuckDBInstance, INTEGER, UTINYINT, type DuckDBAppender, type DuckDBConnection } from "@duckdb/node-api";
import duckdb from "@duckdb/node-bindings";

/** int32 (entry numbers, k-mer codes), uint8 (type codes), float64 (distances and scores, NaN when unknown). */
export type ColumnKind = "int32" | "uint8" | "float64";

const TYPES = { int32: INTEGER, uint8: UTINYINT, float64: DOUBLE };
const ARRAYS = { int32: Int32Array, uint8: Uint8Array, float64: Float64Array };
type Column = Int32Array | Uint8Array | Float64Array;

/** An array of `length` values for each column kind. */
export const columnArrays = (kinds: ColumnKind[], length: number) => kinds.map((k) => new ARRAYS[k](length));

/** Rows appended (and read back) in batches of DuckDB's vector size. */
const BATCH = 2048;

export interface EngineOptions {
  /** The database file: a task's own, kept with its outputs when a later task reads its tables. */
  database: string;
  /** A scratch folder for DuckDB's spill files. */
  spill: string;
  /** What DuckDB may hold in memory before it spills. */
  memoryBytes: number;
  threads: number;
  /** Opens an existing database file (a finished task's) to read its tables. */
  readOnly?: boolean;
  /** Read-only: more database files holding parts of the same tables (existingTable reads their union). */
  attach?: string[];
}

/** Bytes of memory a row costs while DuckDB sorts it (keys, payload and its sort buffers), measured on int32 rows. */
const SORT_BYTES_PER_ROW = 32;

export interface Engine {
  /** Rows a key range may hold to sort within the memory limit. */
  readonly rowsPerRange: number;
  /** A new, empty table with these columns, in this order. */
  table(name: string, columns: Record<string, ColumnKind>): Promise<RowTable>;
  /** A table that a task before wrote and closed, to read back: in the database and every attached one. */
  existingTable(name: string, columns: Record<string, ColumnKind>): SortedRows;
  /** The rows a query gives, in batches whose arrays are reused (copy what you keep); its columns of these kinds, in order. */
  query(sql: string, kinds: ColumnKind[]): AsyncGenerator<{ count: number; columns: Column[] }>;
  close(): void;
}

/** Rows of one table, read back sorted: each batch's columns in the table's column order. */
export interface SortedRows {
  /**
   * The rows ordered by the `orderBy` columns, all of them or those whose first `orderBy`
   * column is in [from, to), in batches whose arrays are reused (copy what you keep); with
   * `mirror`, each row of the table read twice, as it is and mirrored.
   */
  sorted(orderBy: string[], range?: { from: number; to: number }, mirror?: Mirror): AsyncGenerator<{ count: number; columns: Column[] }>;
}

/**
 * A table of symmetric rows held once (a relation of a and b, not also of b and a): read back,
 * each row also comes mirrored, its two `swap` columns exchanged and its `map` column's value v
 * replaced by `map.to[v]` (a relation's type seen from the other side). Appending each row once
 * halves what the appenders write (at a million proteins they took 7.8 s of each pair worker's
 * 20.8), and the sort reads the mirrored rows from the same table.
 */
export interface Mirror {
  swap: [string, string];
  /** `to` covers every value the column holds (a value beyond it would read back as NULL, which the batches do not carry). */
  map?: { column: string; to: readonly number[] };
}

export interface RowTable extends SortedRows {
  readonly rows: number;
  /** One row, its values in column order (missing trailing values are 0). */
  append(v0: number, v1: number, v2?: number, v3?: number, v4?: number): void;
  /** `count` rows given as columns, in the table's column order. */
  appendColumns(columns: Column[], count: number): void;
  /** Ends the appends: the rows are in the database file (for a later task to read with existingTable). */
  close(): void;
  /** Deletes the table and its rows. */
  drop(): Promise<void>;
}

/**
 * Consecutive key ranges [from, to) over keys 0 … counts.length − 1 (counts: rows per key), each
 * holding at most `limit` rows unless one key alone holds more.
 */
export function sortRanges(counts: ArrayLike<number>, limit: number): Array<{ from: number; to: number }> {
  const ranges: Array<{ from: number; to: number }> = [];
  let from = 0;
  let rows = 0;
  for (let key = 0; key < counts.length; key++) {
    if (rows > 0 && rows + counts[key] > limit) {
      ranges.push({ from, to: key });
      from = key;
      rows = 0;
    }
    rows += counts[key];
  }
  if (from < counts.length) ranges.push({ from, to: counts.length });
  return ranges;
}

export async function openEngine({ database, spill, memoryBytes, threads, readOnly = false, attach = [] }: EngineOptions): Promise<Engine> {
  if (attach.length && !readOnly) throw new Error("engine: databases are attached read-only, to a read-only engine");
  const instance = await DuckDBInstance.create(database, {
    threads: String(threads),
    memory_limit: `${Math.max(64, Math.floor(memoryBytes / 2 ** 20))}MB`,
    temp_directory: spill,
    ...(readOnly ? { access_mode: "READ_ONLY" } : {}),
    // Rows come back by ORDER BY only; dropping insertion order lets DuckDB sort in parallel with less memory.
    preserve_insertion_order: "false",
  });
  const connection = await instance.connect();
  const parts = ["", ...attach.map((_, i) => `part${i + 1}.`)];
  for (const [i, path] of attach.entries()) await connection.run(`ATTACH '${path.replaceAll("'", "''")}' AS part${i + 1} (READ_ONLY)`);
  return {
    rowsPerRange: Math.max(1, Math.floor(memoryBytes / SORT_BYTES_PER_ROW)),
    table: (name, columns) => createTable(connection, name, columns),
    existingTable: (name, columns) => ({ sorted: (orderBy, range, mirror) => readSorted(connection, parts.map((part) => `${part}${name}`), columns, orderBy, range, mirror) }),
    query: (sql, kinds) => readRows(connection, sql, kinds),
    close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}

async function createTable(connection: DuckDBConnection, name: string, spec: Record<string, ColumnKind>): Promise<RowTable> {
  const names = Object.keys(spec);
  const kinds = Object.values(spec);
  const types = kinds.map((k) => TYPES[k]);
  await connection.run(`CREATE TABLE ${name} (${names.map((c, i) => `${c} ${TYPES[kinds[i]]}`).join(", ")})`);
  const appender: DuckDBAppender = await connection.createAppender(name);
  const buffers = columnArrays(kinds, BATCH);
  let used = 0;
  let rows = 0;
  let closed = false;

  // One chunk reused for every full batch: chunks are native memory that the JS collector
  // frees late (it sees only their small wrappers), so a chunk per batch grows the resident set.
  const full = DuckDBDataChunk.create(types, BATCH);
  const flush = () => {
    if (used === 0) return;
    const chunk = used === BATCH ? full : DuckDBDataChunk.create(types, used);
    buffers.forEach((values, c) => {
      duckdb.copy_data_to_vector(duckdb.data_chunk_get_vector(chunk.chunk, c), 0, values.buffer, 0, used * values.BYTES_PER_ELEMENT);
    });
    appender.appendDataChunk(chunk);
    used = 0;
  };

  const finish = () => {
    if (closed) return;
    flush();
    appender.closeSync();
    closed = true;
  };

  return {
    get rows() {
      return rows;
    },
    append(v0, v1, v2 = 0, v3 = 0, v4 = 0) {
      if (closed) throw new Error(`engine table ${name}: append after close() or sorted()`);
      const b = buffers;
      b[0][used] = v0;
      if (b.length > 1) b[1][used] = v1;
      if (b.length > 2) b[2][used] = v2;
      if (b.length > 3) b[3][used] = v3;
      if (b.length > 4) b[4][used] = v4;
      rows++;
      if (++used === BATCH) flush();
    },
    appendColumns(columns, count) {
      if (closed) throw new Error(`engine table ${name}: append after close() or sorted()`);
      for (let at = 0; at < count; ) {
        const n = Math.min(BATCH - used, count - at);
        buffers.forEach((values, c) => values.set(columns[c].subarray(at, at + n), used));
        used += n;
        rows += n;
        at += n;
        if (used === BATCH) flush();
      }
    },
    close: finish,
    sorted(orderBy, range, mirror) {
      finish();
      return readSorted(connection, [name], spec, orderBy, range, mirror);
    },
    async drop() {
      if (!closed) appender.closeSync();
      closed = true;
      await connection.run(`DROP TABLE ${name}`);
      // Frees the dropped table's blocks in the database file now, for the next table to reuse.
      await connection.run("CHECKPOINT");
    },
  };
}

/** The rows of `tables` (one table, or its parts in several databases) as one, sorted. */
async function* readSorted(
  connection: DuckDBConnection,
  tables: string[],
  spec: Record<string, ColumnKind>,
  orderBy: string[],
  range?: { from: number; to: number },
  mirror?: Mirror,
): AsyncGenerator<{ count: number; columns: Column[] }> {
  const names = Object.keys(spec);
  const kinds = Object.values(spec);
  const where = (column: string) => (range ? ` WHERE ${column} >= ${range.from} AND ${column} < ${range.to}` : "");
  const selects = tables.map((table) => `SELECT ${names.join(", ")} FROM ${table}${where(orderBy[0])}`);
  if (mirror) {
    const [a, b] = mirror.swap;
    // The mirrored row's value of each column: the swapped columns exchanged, the mapped one looked up (DuckDB's lists count from 1).
    const mirrored = names.map((c, i) => {
      if (c === a || c === b) return `${c === a ? b : a} AS ${c}`;
      if (c === mirror.map?.column) return `CAST([${mirror.map.to.join(", ")}][${c} + 1] AS ${TYPES[kinds[i]]}) AS ${c}`;
      return c;
    });
    // The range is on the first ordering column as read: a mirrored row's comes from its swapped partner.
    const source = orderBy[0] === a ? b : orderBy[0] === b ? a : orderBy[0];
    selects.push(...tables.map((table) => `SELECT ${mirrored.join(", ")} FROM ${table}${where(source)}`));
  }
  const from = selects.join(" UNION ALL ");
  yield* readRows(connection, `SELECT ${names.join(", ")} FROM (${from}) ORDER BY ${orderBy.join(", ")}`, kinds);
}

/**
 * The rows of a query, streamed: each batch's columns copied out of DuckDB's vectors into arrays
 * of `kinds`, which must be the query's column types (checked: a copy of another type's bytes
 * would read as numbers all the same). Its columns must not be NULL (coalesce them).
 */
async function* readRows(connection: DuckDBConnection, sql: string, kinds: ColumnKind[]): AsyncGenerator<{ count: number; columns: Column[] }> {
  const result = await connection.stream(sql);
  const types = result.columnTypes();
  if (types.length !== kinds.length || types.some((type, c) => type.typeId !== TYPES[kinds[c]].typeId)) {
    throw new Error(`engine: the query gives ${types.join(", ")} where ${kinds.map((k) => TYPES[k]).join(", ")} were expected: ${sql}`);
  }
  let out = columnArrays(kinds, BATCH);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    if (count > out[0].length) out = columnArrays(kinds, count);
    out.forEach((values, c) => {
      const bytes = count * values.BYTES_PER_ELEMENT;
      new Uint8Array(values.buffer, 0, bytes).set(duckdb.vector_get_data(duckdb.data_chunk_get_vector(chunk.chunk, c), bytes));
    });
    yield { count, columns: out };
  }
}
