import { notFound, unavailable } from "../errors.js";
import type { BlobCache } from "./blob-cache.js";
import { adjacent, checkedChunk, fetchChunks, type ReadCounter } from "./chunks.js";
import { decodedSize } from "./decoded-size.js";
import { readObject, type ReleaseStorage } from "./storage.js";
import { upperBound } from "./sorted.js";
import { bucketCovering, entryCovering, entryRef, rowChunkCovering, rowChunkRef, runChunks, slotCovering, slotRef } from "../../release-format/directory.js";
import {
  CURRENT_RELEASE_KEY,
  FORMAT_VERSION,
  POINTER_PREFIX_BYTES,
  chunkKey,
  readPointer,
  type CurrentPointer,
  manifestKey,
  type ChunkRef,
  type ChunkTree,
  type DirectoryPage,
  type GenomeDetail,
  type GenomeInfo,
  type HashIndexRef,
  type KeyIndexLeaf,
  type Manifest,
  type ManifestFile,
  type BesideTable,
  type ProteinShard,
  type RowChunk,
  type TableRef,
  type TableShard,
} from "../../release-format/format.js";
import { openedHeader } from "../../release-format/header.js";
import { rowCount, rowOf as decodedRow, rowRange } from "../../release-format/rows.js";

/** The row type of a table. */
type RowOf<T> = T extends TableRef<infer Row> ? Row : never;

/** Chunks a list reads before it starts answering (a page of up to ~16k proteins), and then at a time. */
const EAGER_CHUNKS = 32;
/** Adjacent chunks are read in one range up to this size. */
const COALESCE_BYTES = 1024 * 1024;
/** Chunks `rowsAt` reads at once: bounds a request's reads in flight. */
const ROWS_AT_WAVE = 64;

/** How long an isolate trusts its reading of the current-release pointer, unless configured. */
export const DEFAULT_POINTER_TTL_SECONDS = 30;

/** One release, opened from its manifest and header: row and index reads go through the chunk cache. */
export interface Release {
  manifest: Manifest;
  /** Storage reads made through this view (one view per request). */
  reads: ReadCounter;
  /** One chunk, through the isolate cache, counted. */
  chunk<T>(ref: ChunkRef): Promise<T>;
  /** Where the chunk of a tree covering `key` lies (reading only directory pages); undefined before the first. */
  locate<Start extends number | string>(tree: ChunkTree<Start>, key: Start): Promise<{ start: Start; ref: ChunkRef } | undefined>;
  /** The chunk of a tree covering `key` (its first key ≤ key), with that first key; undefined before the first. */
  chunkAt<T, Start extends number | string>(tree: ChunkTree<Start>, key: Start): Promise<{ start: Start; value: T } | undefined>;
  /** Genome of an entry number (entries of a genome are contiguous). */
  genomeOfEntry(entry: number): GenomeInfo;
  /** A genome's chromosomes and gene ranges (its `genomeDetails` row). */
  genomeDetail(genome: GenomeInfo): Promise<GenomeDetail>;
  row<Row>(table: TableRef<Row>, index: number): Promise<Row>;
  /**
   * Row `index` of a table from the chunk a RowChunk names (no directory page read), or through
   * the table's tree without one.
   */
  rowIn<Row>(table: TableRef<Row>, index: number, chunk: RowChunk | undefined): Promise<Row>;
  /**
   * Row `index` of a table beside the proteins (BESIDE_TABLES) that protein `entry` needs (its
   * sequence, annotations, relations: index = entry − 1; its family): found through the chunks
   * its proteins chunk names, so a table whose tree is deeper than its root costs no directory
   * page. Read it beside the protein's own row: both share the proteins chunk's read.
   */
  rowBeside<Name extends BesideTable>(name: Name, entry: number, index: number): Promise<RowOf<Manifest["tables"][Name]>>;
  /** Where the chunk of `rowBeside` lies (its first row and ref): through the proteins chunk of `entry` when the table's tree is deeper than its root. */
  locateBeside(name: BesideTable, entry: number, index: number): Promise<{ start: number; ref: ChunkRef } | undefined>;
  /** Rows at many indexes, in any order: each chunk read once, adjacent chunks in one range. */
  rowsAt<Row>(table: TableRef<Row>, indexes: Iterable<number>): Promise<Map<number, Row>>;
  /** `rowsAt` from the chunks a row names for them (RowChunks, ascending), with no directory page read. */
  rowsIn<Row>(table: TableRef<Row>, indexes: Iterable<number>, chunks: readonly RowChunk[]): Promise<Map<number, Row>>;
  /**
   * Rows [from, to) in order. The first chunks are read before this resolves, so a storage
   * fault fails the request before any response is sent; the rest are read as the rows are
   * consumed, adjacent chunks in one range.
   */
  rows<Row>(table: TableRef<Row>, from: number, to: number): Promise<AsyncIterable<Row>>;
  /** The value of `key` in a hash index: one bucket read. */
  lookup<Value>(index: HashIndexRef<Value>, key: string): Promise<Value | undefined>;
  /** The values of many keys of a hash index: each bucket read once, the buckets of one run in one range. */
  lookupMany<Value>(index: HashIndexRef<Value>, keys: Iterable<string>): Promise<Map<string, Value | undefined>>;
  /** Level index by name (level names, species codes); undefined when unknown. */
  levelByName: Map<string, number>;
}

/**
 * The releases of one storage, as an isolate keeps them between requests: manifests and headers
 * opened once, the pointer's last reading, and the decoded chunks in the injected cache.
 */
export interface Releases {
  /**
   * The name the current-release pointer holds. Publishing switches it in one write, and each
   * request reads it once, so a request is answered from one release whole; it is re-read
   * after `ttlSeconds` (a new release goes live everywhere within that time).
   */
  currentName(ttlSeconds: number): Promise<string>;
  /** A per-request view of the release of that name: its reads are counted apart. */
  open(name: string): Promise<Release>;
}

export function releasesIn(storage: ReleaseStorage, chunks: BlobCache): Releases {
  // Requests that arrive together on a fresh isolate wait for one read of the pointer and one
  // opening of each manifest, rather than each reading them (eight requests at once read the
  // serve benchmark's 479 kB pointer eight times and checked and decoded its header eight times).
  const manifests = new Map<string, Promise<Manifest>>();
  let pointer: { current: CurrentPointer; at: number } | undefined;
  let reading: Promise<string> | undefined;
  const readCurrent = async (): Promise<string> => {
    if (pointer) {
      // A re-read: the pointer's first bytes (its manifest file) tell whether the release changed.
      const head = await readObject(storage, CURRENT_RELEASE_KEY, { offset: 0, length: POINTER_PREFIX_BYTES });
      if (head && readPointer(head)?.name === pointer.current.name) {
        pointer.at = Date.now();
        return pointer.current.name;
      }
    }
    const bytes = await readObject(storage, CURRENT_RELEASE_KEY);
    if (!bytes) throw unavailable("No release is published yet.");
    const current = readPointer(bytes);
    if (!current) throw unavailable("The current-release pointer is corrupt; publish a release again.");
    pointer = { current, at: Date.now() };
    return current.name;
  };
  return {
    async currentName(ttlSeconds) {
      if (pointer && Date.now() - pointer.at < ttlSeconds * 1000) return pointer.current.name;
      reading ??= readCurrent().finally(() => (reading = undefined));
      return reading;
    },
    async open(name) {
      let opening = manifests.get(name);
      if (!opening) {
        // The pointer carries the current release's manifest file and header: a fresh isolate reads nothing more.
        const carried = pointer?.current.name === name ? pointer.current : undefined;
        opening = (carried?.manifest ? openManifestFile(storage, name, carried.manifest, carried.header) : openManifest(storage, name)).then((manifest) => {
          if (carried) carried.header = undefined;
          return manifest;
        });
        manifests.set(name, opening);
        // A release that did not open (unknown, unreadable, corrupt) is tried again by the next request.
        opening.catch(() => manifests.get(name) === opening && manifests.delete(name));
      }
      return releaseView(storage, chunks, await opening);
    },
  };
}

/** The manifest file of a release and its header, checked, as one Manifest. */
export async function openManifest(storage: ReleaseStorage, name: string): Promise<Manifest> {
  const bytes = await readObject(storage, manifestKey(name));
  if (!bytes) throw notFound(`Unknown release: ${name}`);
  let file: ManifestFile;
  try {
    file = JSON.parse(new TextDecoder().decode(bytes)) as ManifestFile;
  } catch {
    throw unavailable(`The manifest of release ${name} is corrupt.`);
  }
  return openManifestFile(storage, name, file);
}

/**
 * A manifest file, its format checked and its header checked, as one Manifest: the header's
 * bytes as the pointer carried them, or read from its pack.
 */
async function openManifestFile(storage: ReleaseStorage, name: string, file: ManifestFile, headerBytes?: Uint8Array): Promise<Manifest> {
  if (typeof file !== "object" || file === null) throw unavailable(`The manifest of release ${name} is corrupt.`);
  if (file.format !== FORMAT_VERSION) {
    throw unavailable(
      `Release ${name} has format ${file.format}; this worker reads format ${FORMAT_VERSION}. Compile the release again with this version (npm run compile) and publish it.`,
    );
  }
  if (!Array.isArray(file.header)) throw unavailable(`The manifest of release ${name} is corrupt.`);
  const { header, ...named } = file;
  const fromPack = async () => (await fetchChunks(storage, [header]))[0];
  // A pointer whose copy of the header is damaged still names a release whose pack may be whole.
  const opened = headerBytes
    ? await checkedChunk(headerBytes, header).catch(() => {
        console.error(`release ${name}: the pointer's copy of the header does not match its hash; reading it from its pack`);
        return fromPack();
      })
    : await fromPack();
  return { ...named, ...openedHeader(opened, (what) => unavailable(`Release ${name} is corrupt: ${what}.`)) };
}

/** Row r of a chunk whose hash was checked, undefined past its rows (release-format/rows.ts). */
const rowOf = <Row>(shard: TableShard<Row>, r: number): Row | undefined => decoding(shard, r, () => decodedRow(shard, r));

/** Rows [from, to) of a chunk whose hash was checked, clipped to its rows (release-format/rows.ts). */
const rowsIn = <Row>(shard: TableShard<Row>, from: number, to: number): Row[] => decoding(shard, from, () => rowRange(shard, from, to));

/** A row packed apart that does not decode is a compiler's fault: answered as corrupt data (503), never a crash. */
function decoding<T>(shard: TableShard<unknown>, from: number, decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    console.error(`rows from ${shard.firstRow + Math.max(0, from)}: undecodable`, error);
    throw unavailable(`Release data is corrupt (rows from ${shard.firstRow + Math.max(0, from)} do not decode); try again shortly.`);
  }
}

/** Lookup structures derived from a manifest, computed once per isolate. */
const derived = new WeakMap<Manifest, { starts: number[]; levelByName: Map<string, number> }>();
function derivedOf(manifest: Manifest) {
  let d = derived.get(manifest);
  if (!d) {
    const levelByName = new Map<string, number>();
    manifest.taxonomy.names.forEach((n, i) => levelByName.set(n, i));
    manifest.genomes.forEach((g) => levelByName.set(g.code, g.level));
    d = { starts: manifest.genomes.map((g) => g.firstEntry), levelByName };
    derived.set(manifest, d);
  }
  return d;
}

export function releaseView(storage: ReleaseStorage, cache: BlobCache, manifest: Manifest): Release {
  const { starts, levelByName } = derivedOf(manifest);
  const reads: ReadCounter = { reads: 0, bytes: 0 };
  // Reads of this request still under way, by chunk hash: concurrent rows of one chunk (a bulk
  // lookup, a page of isoforms) share one storage read. Only within the request: in workerd,
  // I/O started by one request cannot complete for another.
  const pending = new Map<string, Promise<unknown>>();

  /** Every chunk of `refs`, from the cache, a read under way, or new reads of runs of adjacent chunks. */
  const chunks = (refs: ChunkRef[]): Promise<unknown[]> => {
    const out: Array<unknown> = new Array(refs.length);
    const waits: Array<Promise<void>> = [];
    let run: ChunkRef[] = [];
    let runAt: number[] = [];
    const flush = () => {
      if (!run.length) return;
      const [these, at] = [run, runAt];
      const read = fetchChunks(storage, these, reads);
      these.forEach((ref, k) => {
        const key = chunkKey(ref);
        const one = read.then((values) => {
          cache.put(key, values[k], decodedSize(values[k]));
          return values[k];
        });
        one.catch(() => {}).finally(() => pending.delete(key));
        pending.set(key, one);
        waits.push(one.then((v) => void (out[at[k]] = v)));
      });
      [run, runAt] = [[], []];
    };
    refs.forEach((ref, i) => {
      const hit = cache.get(chunkKey(ref));
      if (hit !== undefined) return void (out[i] = hit);
      const under = pending.get(chunkKey(ref));
      if (under) return void waits.push(under.then((v) => void (out[i] = v)));
      const previous = run[run.length - 1];
      if (previous && !(adjacent(previous, ref) && ref[1] + ref[2] - run[0][1] <= COALESCE_BYTES)) flush();
      run.push(ref);
      runAt.push(i);
    });
    flush();
    return Promise.all(waits).then(() => out);
  };
  const chunk = async <T>(ref: ChunkRef): Promise<T> => (await chunks([ref]))[0] as T;

  /** The level-0 entry of a tree covering `key`, reading the pages on the way down (a slotted tree: none). */
  const locate = async <Start extends number | string>(tree: ChunkTree<Start>, key: Start) => {
    if (tree.slotted) {
      if (!tree.slotted.stride) throw new Error("a hash index is read by its keys (lookup), not located");
      return slotCovering(tree as ChunkTree<number>, key as number) as { start: Start; ref: ChunkRef } | undefined;
    }
    let page: DirectoryPage<Start> = tree.root;
    for (;;) {
      const i = entryCovering(page, key);
      if (i < 0) return undefined;
      if (page.level === 0) return { start: page.starts[i], ref: entryRef(page, i) };
      page = await chunk<DirectoryPage<Start>>(entryRef(page, i));
    }
  };
  const chunkAt = async <T, Start extends number | string>(tree: ChunkTree<Start>, key: Start) => {
    const found = await locate(tree, key);
    return found && { start: found.start, value: await chunk<T>(found.ref) };
  };

  /** The rows `want` of these chunks (in pack order), read a wave at a time, adjacent chunks in one range. */
  const rowsOfChunks = async <Row>(want: Set<number>, list: ChunkRef[]): Promise<Map<number, Row>> => {
    const out = new Map<number, Row>();
    for (let k = 0; k < list.length; k += ROWS_AT_WAVE) {
      for (const shard of (await chunks(list.slice(k, k + ROWS_AT_WAVE))) as Array<TableShard<Row>>) {
        // Each run of wanted rows decoded at once (rows packed apart are decoded as asked for).
        for (let r = 0, n = rowCount(shard); r < n; r++) {
          if (!want.has(shard.firstRow + r)) continue;
          let end = r + 1;
          while (end < n && want.has(shard.firstRow + end)) end++;
          rowsIn(shard, r, end).forEach((row, k) => out.set(shard.firstRow + r + k, row));
          r = end;
        }
      }
    }
    return out;
  };

  /** The chunks covering rows [from, to), in order, reading directory pages as the walk reaches them. */
  async function* chunkRefs(tree: ChunkTree<number>, from: number, to: number): AsyncGenerator<ChunkRef> {
    if (tree.slotted) {
      const { root, slotted } = tree;
      for (let i = Math.max(0, entryCovering(root, from)); i < root.starts.length && root.starts[i] < to; i++) {
        const first = Math.max(0, Math.floor((from - root.starts[i]) / slotted.stride));
        for (let j = first; j < runChunks(tree, i) && root.starts[i] + j * slotted.stride < to; j++) yield slotRef(tree, i, j);
      }
      return;
    }
    async function* walk(page: DirectoryPage<number>): AsyncGenerator<ChunkRef> {
      for (let i = Math.max(0, entryCovering(page, from)); i < page.starts.length && page.starts[i] < to; i++) {
        if (page.level === 0) yield entryRef(page, i);
        else yield* walk(await chunk<DirectoryPage<number>>(entryRef(page, i)));
      }
    }
    yield* walk(tree.root);
  }

  return {
    manifest,
    reads,
    chunk,
    locate,
    chunkAt,
    levelByName,
    genomeOfEntry(entry) {
      return manifest.genomes[upperBound(starts, entry) - 1];
    },
    genomeDetail(genome) {
      return this.row(manifest.tables.genomeDetails, manifest.genomes.indexOf(genome));
    },
    async row(table, index) {
      const found = await chunkAt<TableShard<never>, number>(table.tree, index);
      const row = found && index < table.rows ? rowOf(found.value, index - found.value.firstRow) : undefined;
      if (row === undefined) throw unavailable(`Row ${index} is outside its table; the release is inconsistent.`);
      return row;
    },
    async rowIn(table, index, at) {
      if (!at) return this.row(table, index);
      const ref = rowChunkRef(table, at);
      const shard = ref && (await chunk<TableShard<never>>(ref));
      const row = shard && shard.firstRow === at[0] ? rowOf(shard, index - shard.firstRow) : undefined;
      if (row === undefined) throw unavailable(`Row ${index} is not in the chunk named for it; the release is inconsistent.`);
      return row;
    },
    async locateBeside(name, entry, index) {
      const table = manifest.tables[name];
      // A tree of depth 1 has its chunks in the header's root: located at no cost, and read without waiting for the proteins chunk.
      if (table.tree.depth === 1) return locate(table.tree, index);
      const proteins = await chunkAt<ProteinShard, number>(manifest.tables.proteins.tree, entry - 1);
      const page = proteins?.value.beside[name];
      const i = page ? entryCovering(page, index) : -1;
      return i >= 0 ? { start: page!.starts[i], ref: entryRef(page!, i) } : undefined;
    },
    async rowBeside(name, entry, index) {
      const found = index < manifest.tables[name].rows ? await this.locateBeside(name, entry, index) : undefined;
      const shard = found && (await chunk<TableShard<never>>(found.ref));
      const row = shard && rowOf(shard, index - shard.firstRow);
      if (row === undefined) throw unavailable(`Row ${index} of ${name} is not beside protein ${entry}; the release is inconsistent.`);
      return row;
    },
    async rowsAt<Row>(table: TableRef<Row>, indexes: Iterable<number>) {
      const want = new Set([...indexes].filter((i) => i >= 0 && i < table.rows));
      const wanted = [...want].sort((a, b) => a - b);
      const refs = new Map<string, ChunkRef>();
      for (let k = 0; k < wanted.length; k += ROWS_AT_WAVE) {
        const found = await Promise.all(wanted.slice(k, k + ROWS_AT_WAVE).map((i) => locate(table.tree, i)));
        for (const f of found) if (f) refs.set(chunkKey(f.ref), f.ref);
      }
      return rowsOfChunks<Row>(want, [...refs.values()]);
    },
    async rowsIn<Row>(table: TableRef<Row>, indexes: Iterable<number>, named: readonly RowChunk[]) {
      const want = new Set([...indexes].filter((i) => i >= 0 && i < table.rows));
      const refs = new Map<string, ChunkRef>();
      for (const i of [...want].sort((a, b) => a - b)) {
        const at = rowChunkCovering(named, i);
        const ref = at && rowChunkRef(table, at);
        if (!ref) throw unavailable(`Row ${i} is not in the chunks named for it; the release is inconsistent.`);
        refs.set(chunkKey(ref), ref);
      }
      return rowsOfChunks<Row>(want, [...refs.values()]);
    },
    async rows<Row>(table: TableRef<Row>, from: number, to: number) {
      const refs = to > from ? chunkRefs(table.tree, from, to) : undefined;
      const batch = async (): Promise<Array<TableShard<Row> | undefined>> => {
        const next: ChunkRef[] = [];
        while (refs && next.length < EAGER_CHUNKS) {
          const r = await refs.next();
          if (r.done) break;
          next.push(r.value);
        }
        return (await chunks(next)) as Array<TableShard<Row>>;
      };
      let loaded = await batch();
      return (async function* () {
        while (loaded.length) {
          for (let k = 0; k < loaded.length; k++) {
            const shard = loaded[k]!;
            // Let a long walk (a download) hold no more than the batch it is in.
            loaded[k] = undefined;
            yield* rowsIn(shard, from - shard.firstRow, to - shard.firstRow);
          }
          loaded = await batch();
        }
      })();
    },
    async lookup(index, key) {
      const ref = bucketCovering(index.tree, key);
      return ref && valueIn(await chunk<KeyIndexLeaf<never>>(ref), key);
    },
    async lookupMany<Value>(index: HashIndexRef<Value>, keys: Iterable<string>) {
      const refOf = new Map<string, ChunkRef | undefined>();
      const refs = new Map<string, ChunkRef>();
      for (const key of keys) {
        if (refOf.has(key)) continue;
        const ref = bucketCovering(index.tree, key);
        refOf.set(key, ref);
        if (ref) refs.set(chunkKey(ref), ref);
      }
      // In pack order, so that the buckets of one run (keys that sort together) are read in one range.
      const list = [...refs.values()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      const leaves = new Map<string, KeyIndexLeaf<Value>>();
      for (let k = 0; k < list.length; k += ROWS_AT_WAVE) {
        const wave = list.slice(k, k + ROWS_AT_WAVE);
        (await chunks(wave)).forEach((leaf, m) => leaves.set(chunkKey(wave[m]), leaf as KeyIndexLeaf<Value>));
      }
      const out = new Map<string, Value | undefined>();
      for (const [key, ref] of refOf) out.set(key, ref && valueIn(leaves.get(chunkKey(ref))!, key));
      return out;
    },
  };
}

/** A key's value in a sorted leaf or bucket; undefined when it holds no such key. */
function valueIn<Value>(leaf: KeyIndexLeaf<Value>, key: string): Value | undefined {
  const at = upperBound(leaf.keys, key) - 1;
  return at >= 0 && leaf.keys[at] === key ? leaf.values[at] : undefined;
}
