/**
 * Downloads in bounded memory: the worker's own app (createApp) in this process on the serve
 * benchmark's release folder, streaming the largest files a release offers (the genome pair
 * with the most relations, the largest genome's proteins with cDNA, every HOG as orthoXML)
 * while the heap is sampled chunk by chunk. Run with `node --expose-gc` (npm run bench does)
 * so the baseline and the samples count live objects rather than garbage awaiting collection.
 */
import { folderStorage } from "../release-compiler/local/folder-storage.js";
import type { GenomePairRow, Manifest } from "../release-format/format.js";
import { createApp } from "../src/app.js";
import { createBlobCache, MAX_CACHED_BYTES } from "../src/release/blob-cache.js";
import { releaseView } from "../src/release/release.js";
import type { Env } from "../src/env.js";
import { readManifest } from "./load.js";
import { ensureServeRelease } from "./serve.js";

const gc = (globalThis as { gc?: () => void }).gc;
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

interface Figure {
  file: string;
  bytes: number;
  seconds: number;
  peakHeapAboveBaseline: number;
}

/** Streams one download to its end, sampling the live heap every 16 chunks. */
async function measure(app: ReturnType<typeof createApp>, path: string): Promise<Figure> {
  gc?.();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const started = performance.now();
  const res = await app.request(`http://bench.local${path}`, {}, {} as Env, { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext);
  if (res.status !== 200 || !res.body) throw new Error(`${path}: ${res.status}`);
  const reader = res.body.getReader();
  let bytes = 0;
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (++chunks % 16 === 0) {
      gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  }
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  return { file: path, bytes, seconds: (performance.now() - started) / 1000, peakHeapAboveBaseline: peak - baseline };
}

export async function downloadsBenchmark(log: (line: string) => void): Promise<string> {
  const dir = await ensureServeRelease(log);
  const manifest: Manifest = await readManifest(dir);
  const storage = folderStorage(dir);
  const app = createApp({ storage: () => storage, blobCache: createBlobCache() });
  // The genome pair with the most relations, from the pair directory.
  const view = releaseView(storage, createBlobCache(), manifest);
  const n = manifest.genomes.length;
  let best = { count: -1, a: 0, b: 0 };
  for await (const [i, row] of enumerate(await view.rows<GenomePairRow>(manifest.tables.pairDirectory, 0, n * n))) {
    if (row[1] > best.count) best = { count: row[1], a: Math.floor(i / n), b: i % n };
  }
  const largestGenome = [...manifest.genomes].sort((x, y) => y.nrEntries - x.nrEntries)[0];
  const [ga, gb] = [manifest.genomes[best.a], manifest.genomes[best.b]];
  const figures: Figure[] = [];
  for (const path of [
    `/api/downloads/pairs/${ga.code}/${gb.code}.tsv.gz`,
    `/api/downloads/genome/${largestGenome.code}.cdna.fa.gz`,
    `/api/downloads/hogs.orthoxml.gz`,
  ]) {
    log(`download ${path}…`);
    figures.push(await measure(app, path));
  }
  const rows = figures.map(
    (f) => `| \`${f.file.replace("/api/downloads/", "")}\` | ${mib(f.bytes)} | ${f.seconds.toFixed(1)} | ${mib(f.bytes / f.seconds)} | ${mib(f.peakHeapAboveBaseline)} |`,
  );
  return [
    `In process (\`createApp\` on the serve benchmark's release folder: ${manifest.counts.proteins.toLocaleString("en")} proteins, ${n} genomes), each file read to its end by a client as fast as it can take it; the live heap sampled every 16 chunks${gc ? " (a collection before each sample)" : " (no --expose-gc: samples include garbage)"}. The largest genome pair has ${best.count.toLocaleString("en")} relations (${ga.code}–${gb.code}).`,
    "",
    "| file | compressed MiB | s | MiB/s | peak heap above baseline, MiB |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    `The heap figure includes the isolate's chunk cache, which is bounded at ${mib(MAX_CACHED_BYTES)} MiB of decoded chunks whatever the file; the rest is the slice being rendered (a few thousand rows) and the compressor's window. A file ten times larger streams in the same memory: nothing holds more than one slice.`,
  ].join("\n");
}

async function* enumerate<T>(items: AsyncIterable<T>): AsyncIterable<[number, T]> {
  let i = 0;
  for await (const item of items) yield [i++, item];
}
