/**
 * Search benchmark: exact and approximate sequence search, function annotation and
 * cross-reference search against a simulated release served by the built worker bundle on
 * plain Miniflare (its packs in Miniflare's R2), over loopback. Per kind: storage reads (range
 * reads of packs, X-Blob-Reads) and bytes read per query (first pass, caches filling; then a
 * repeat, warm), latency p50/p99, and the index sizes (chunks, tree depth, bytes) per million
 * residues.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { compileRelease } from "../release-compiler/compile.js";
import { folderFiles, loadRelease } from "../release-compiler/local/r2-loader.js";
import { Rng } from "../release-compiler/simulate/rng.js";
import { simulateRelease } from "../release-compiler/simulate/simulate.js";
import type { Manifest } from "../release-format/format.js";
import { releaseSize, treeNamed } from "./release-size.js";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, "build/bench");

export interface SearchBenchOptions {
  genomes: number;
  families: number;
  seed: number;
  queries: number;
}

interface Sample {
  ms: number;
  reads: number;
  bytes: number;
  hits: number;
}

const AMINO = "ACDEFGHIKLMNPQRSTVWY";

/** A deterministic uniform generator in [0, 1) (the simulator's), so runs reproduce. */
function random(seed: number): () => number {
  const rng = new Rng("search", seed);
  return () => rng.float();
}

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export async function searchBenchmark(options: SearchBenchOptions, log: (line: string) => void): Promise<string> {
  const name = `Bench.Search.${options.genomes}x${options.families}`;
  const input = resolve(OUT, "search-input");
  const releaseDir = resolve(OUT, "search");
  log(`simulating ${options.genomes} genomes × ${options.families} families…`);
  await simulateRelease({ out: input, genomes: options.genomes, families: options.families, seed: options.seed, name });
  log("compiling…");
  const compiled = await compileRelease(resolve(input, "release.json"), releaseDir);
  log("bundling the worker…");
  execFileSync(resolve(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", resolve(OUT, "worker")], {
    cwd: ROOT,
    stdio: "pipe",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });

  const manifest = compiled.manifest;
  const sequences = proteinSequences(input, manifest);
  const residues = sequences.reduce((n, s) => n + s.length, 0);
  // Bytes of a tree: its data chunks and directory pages (its root is in the header).
  const size = await releaseSize(releaseDir);
  const tree = (name: string) => treeNamed(size, name) ?? { bytes: 0, chunks: 0, depth: 0 };
  const kmers = tree("sequenceIndex");
  const peptides = tree("tables.peptides");
  const xrefRows = tree("xrefSearch.rows");
  const xrefGrams = tree("xrefSearch.grams");
  const xrefBytes = xrefRows.bytes + xrefGrams.bytes;

  const mf = new Miniflare({ modules: true, scriptPath: resolve(OUT, "worker/index.js"), compatibilityDate: "2026-04-26", r2Buckets: ["RELEASES"] });
  try {
    await loadRelease((await mf.getR2Bucket("RELEASES")) as never, await folderFiles(releaseDir), { makeCurrent: true });
    const base = `${(await mf.ready).origin}/api`;
    const rnd = random(options.seed);
    const pick = () => sequences[Math.floor(rnd() * sequences.length)];
    const mutate = (s: string, share: number) => [...s].map((r) => (rnd() < share ? AMINO[Math.floor(rnd() * 20)] : r)).join("");
    const slice = (s: string, length: number) => {
      const at = Math.floor(rnd() * Math.max(1, s.length - length));
      return s.slice(at, at + length);
    };
    const xrefIds = readXrefIds(input);
    const kinds: Array<[string, () => string]> = [
      ["exact (30-residue substring)", () => `/sequence/?search=exact&query=${slice(pick(), 30)}`],
      ["approximate (whole protein, 30% substituted)", () => `/sequence/?search=approximate&query=${mutate(pick(), 0.3)}`],
      ["mixed, exact hit (whole protein)", () => `/sequence/?query=${pick()}`],
      ["function (whole protein, 10% substituted)", () => `/function/?query=${mutate(pick(), 0.1)}`],
      ["xref (5-character substring of an id)", () => `/xref/?search=${encodeURIComponent(slice(xrefIds[Math.floor(rnd() * xrefIds.length)], 5))}`],
    ];
    const rows: string[] = [];
    for (const [kind, make] of kinds) {
      const paths = Array.from({ length: options.queries }, make);
      let broad = 0;
      const run = async (): Promise<Sample[]> => {
        const out: Sample[] = [];
        for (const path of paths) {
          const started = performance.now();
          const res = await fetch(`${base}${path}`);
          const body = await res.text();
          const ms = performance.now() - started;
          // A cross-reference query matching too many ids is answered 400 by design: counted apart.
          const tooBroad = res.status === 400 && path.startsWith("/xref/");
          if (res.status !== 200 && !tooBroad) throw new Error(`${path.slice(0, 120)}: ${res.status} ${body.slice(0, 200)}`);
          const parsed = JSON.parse(body);
          const hits = tooBroad ? 0 : Array.isArray(parsed) ? parsed.length : parsed.targets.length;
          if (tooBroad) broad++;
          out.push({ ms, reads: Number(res.headers.get("X-Blob-Reads")), bytes: Number(res.headers.get("X-Blob-Bytes")), hits });
        }
        return out;
      };
      const first = await run();
      const broadFirst = broad;
      const warm = await run();
      log(`${kind}: p50 ${quantile(first.map((s) => s.ms), 0.5).toFixed(1)} ms`);
      const f = (values: number[], digits = 1) => mean(values).toFixed(digits);
      rows.push(
        `| ${kind}${broadFirst ? ` (${broadFirst} of ${options.queries} too broad: 400)` : ""} | ${f(first.map((s) => s.hits))} | ${f(first.map((s) => s.reads))} (max ${Math.max(...first.map((s) => s.reads))}) | ${(mean(first.map((s) => s.bytes)) / 1024).toFixed(0)} kB | ${f(warm.map((s) => s.reads))} | ${quantile(first.map((s) => s.ms), 0.5).toFixed(1)} / ${quantile(first.map((s) => s.ms), 0.99).toFixed(1)} ms | ${quantile(warm.map((s) => s.ms), 0.5).toFixed(1)} / ${quantile(warm.map((s) => s.ms), 0.99).toFixed(1)} ms |`,
      );
    }
    const perMillion = (bytes: number) => `${((bytes / residues) * 1e6 / 2 ** 20).toFixed(2)} MiB`;
    return [
      `Release: \`npm run simulate -- --genomes ${options.genomes} --families ${options.families} --seed ${options.seed}\`, compiled: ${manifest.counts.proteins.toLocaleString("en")} proteins, ${residues.toLocaleString("en")} residues, ${manifest.sequenceIndex.postings.toLocaleString("en")} k-mer postings (k = ${manifest.sequenceIndex.k}). ${options.queries} queries per kind, each run twice: the first pass starts with empty caches (the isolate cache fills as it goes), the repeat is warm.`,
      "",
      "| query kind | hits | storage reads, first pass | bytes read, first pass | storage reads, warm | latency p50 / p99, first pass | latency p50 / p99, warm |",
      "|---|---|---|---|---|---|---|",
      ...rows,
      "",
      "Index bytes: the data chunks and directory pages of each tree (its root page is in the release header).",
      "",
      "| index | chunks | tree depth | bytes | per million residues |",
      "|---|---|---|---|---|",
      `| k-mer postings | ${kmers.chunks} | ${kmers.depth} | ${(kmers.bytes / 2 ** 20).toFixed(1)} MiB | ${perMillion(kmers.bytes)} |`,
      `| peptide table (sequences without cDNA, for checking and aligning candidates) | ${peptides.chunks} | ${peptides.depth} | ${(peptides.bytes / 2 ** 20).toFixed(1)} MiB | ${perMillion(peptides.bytes)} |`,
      xrefBytes
        ? `| cross-reference search (ids table and trigram index) | ${xrefRows.chunks} + ${xrefGrams.chunks} | ${xrefRows.depth} / ${xrefGrams.depth} | ${(xrefBytes / 2 ** 20).toFixed(1)} MiB | ${perMillion(xrefBytes)} |`
        : "",
    ].join("\n");
  } finally {
    await mf.dispose();
  }
}

function proteinSequences(input: string, manifest: Manifest): string[] {
  const out: string[] = [];
  for (const g of manifest.genomes) {
    let current = "";
    for (const line of readFileSync(resolve(input, "proteome", `${g.code}.fa`), "utf8").split("\n")) {
      if (line.startsWith(">")) {
        if (current) out.push(current);
        current = "";
      } else current += line.trim();
    }
    if (current) out.push(current);
  }
  return out;
}

function readXrefIds(input: string): string[] {
  return readFileSync(resolve(input, "annotations/xrefs.tsv"), "utf8")
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t")[2])
    .filter((id): id is string => !!id && id.length >= 5);
}
