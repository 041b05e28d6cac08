import { notFound, unavailable } from "../errors.js";
import type { BlobCache } from "./blob-cache.js";
import { readBlob, type ReadCounter } from "./blobs.js";
import { readObject, type ReleaseStorage } from "./storage.js";
import { upperBound } from "./sorted.js";
import {
  CURRENT_RELEASE_KEY,
  FORMAT_VERSION,
  manifestKey,
  type GenomeInfo,
  type KeyIndexLeaf,
  type KeyIndexRef,
  type Manifest,
  type TableRef,
  type TableShard,
} from "../../release-format/format.js";

/** Shards a list reads before it starts answering (a page of up to ~16k proteins). */
const EAGER_SHARDS = 32;

/** How long an isolate trusts its reading of the current-release pointer, unless configured. */
export const DEFAULT_POINTER_TTL_SECONDS = 30;

/** One release, opened from its manifest: row and index reads go through the blob cache. */
export interface Release {
  manifest: Manifest;
  /** Storage reads made through this view (one view per request). */
  reads: ReadCounter;
  /** Reads one blob by hash through the isolate cache, counted. */
  blob<T>(hash: string): Promise<T>;
  /** Genome of an entry number (entries of a genome are contiguous). */
  genomeOfEntry(entry: number): GenomeInfo;
  row<Row>(table: TableRef<Row>, index: number): Promise<Row>;
  /**
   * Rows [from, to) in order. The first shards are read before this resolves, in parallel, so
   * a storage fault fails the request before any response is sent; the shards of very long
   * ranges after those are read as the rows are consumed.
   */
  rows<Row>(table: TableRef<Row>, from: number, to: number): Promise<AsyncIterable<Row>>;
  lookup<Value>(index: KeyIndexRef<Value>, key: string): Promise<Value | undefined>;
  /** Level index by name (level names, species codes); undefined when unknown. */
  levelByName: Map<string, number>;
}

/**
 * The releases of one storage, as an isolate keeps them between requests: manifests opened
 * once, the pointer's last reading, and the decoded blobs in the injected cache.
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

export function releasesIn(storage: ReleaseStorage, blobs: BlobCache): Releases {
  const manifests = new Map<string, Manifest>();
  let pointer: { name: string; at: number } | undefined;
  return {
    async currentName(ttlSeconds) {
      if (pointer && Date.now() - pointer.at < ttlSeconds * 1000) return pointer.name;
      const bytes = await readObject(storage, CURRENT_RELEASE_KEY);
      if (!bytes) throw unavailable("No release is published yet.");
      pointer = { name: new TextDecoder().decode(bytes).trim(), at: Date.now() };
      return pointer.name;
    },
    async open(name) {
      let manifest = manifests.get(name);
      if (!manifest) {
        manifest = await loadManifest(storage, name);
        manifests.set(name, manifest);
      }
      return releaseView(storage, blobs, manifest);
    },
  };
}

async function loadManifest(storage: ReleaseStorage, name: string): Promise<Manifest> {
  const bytes = await readObject(storage, manifestKey(name));
  if (!bytes) throw notFound(`Unknown release: ${name}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(bytes)) as Manifest;
  } catch {
    throw unavailable(`The manifest of release ${name} is corrupt.`);
  }
  if (manifest.format !== FORMAT_VERSION) {
    throw unavailable(`Release ${name} has format ${manifest.format}; this worker reads format ${FORMAT_VERSION}.`);
  }
  return manifest;
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

export function releaseView(storage: ReleaseStorage, blobs: BlobCache, manifest: Manifest): Release {
  const { starts, levelByName } = derivedOf(manifest);
  const reads: ReadCounter = { reads: 0, bytes: 0 };
  // Reads of this request still under way, by hash: concurrent rows of one shard (a bulk
  // lookup, a page of isoforms) share one storage read. Only within the request (see blobs.ts).
  const pending = new Map<string, Promise<unknown>>();
  const blob = <T>(hash: string): Promise<T> => {
    let read = pending.get(hash);
    if (!read) {
      read = readBlob<T>(storage, blobs, hash, reads).finally(() => pending.delete(hash));
      pending.set(hash, read);
    }
    return read as Promise<T>;
  };
  const shardOf = async <Row>(table: TableRef<Row>, index: number): Promise<TableShard<Row>> =>
    blob<TableShard<Row>>(table.shards[Math.floor(index / table.rowsPerShard)]);

  return {
    manifest,
    reads,
    blob,
    levelByName,
    genomeOfEntry(entry) {
      return manifest.genomes[upperBound(starts, entry) - 1];
    },
    async row(table, index) {
      const shard = await shardOf(table, index);
      return shard.rows[index - shard.firstRow];
    },
    async rows<Row>(table: TableRef<Row>, from: number, to: number) {
      const first = Math.floor(from / table.rowsPerShard);
      const last = to > from ? Math.floor((to - 1) / table.rowsPerShard) : first - 1;
      const eager = Math.min(last, first + EAGER_SHARDS - 1);
      const loaded: Array<TableShard<Row> | undefined> = await Promise.all(
        Array.from({ length: Math.max(0, eager - first + 1) }, (_, k) => shardOf(table, (first + k) * table.rowsPerShard)),
      );
      return (async function* () {
        for (let s = first; s <= last; s++) {
          const shard = s <= eager ? loaded[s - first]! : await shardOf(table, s * table.rowsPerShard);
          // Let a long walk (a download) hold no more than the shard it is in.
          if (s <= eager) loaded[s - first] = undefined;
          const end = Math.min(to, shard.firstRow + shard.rows.length);
          for (let i = Math.max(from, shard.firstRow); i < end; i++) yield shard.rows[i - shard.firstRow];
        }
      })();
    },
    async lookup(index, key) {
      const leafAt = upperBound(firstKeys(index), key) - 1;
      if (leafAt < 0) return undefined;
      const leaf = await blob<KeyIndexLeaf<never>>(index.leaves[leafAt][1]);
      const at = upperBound(leaf.keys, key) - 1;
      return at >= 0 && leaf.keys[at] === key ? leaf.values[at] : undefined;
    },
  };
}

const firstKeyCache = new WeakMap<KeyIndexRef<unknown>, string[]>();
function firstKeys(index: KeyIndexRef<unknown>): string[] {
  let keys = firstKeyCache.get(index);
  if (!keys) {
    keys = index.leaves.map((l) => l[0]);
    firstKeyCache.set(index, keys);
  }
  return keys;
}
