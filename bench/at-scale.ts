/**
 * A public-scale release served: the simulated release of 2,500 genomes (about a million
 * proteins, families born inside clades), compiled with `npm run compile` in a child process
 * (its wall time, peak RSS and temp disk), then read as the worker reads it. Reports what issue "Release
 * format 4" asks of it: the manifest and header sizes, tree depths, packs and bytes; the pair
 * rows per protein and per genome pair (beside primates-chr12's); per endpoint family the cold
 * reads and bytes against the answer size and the budget of a single record (64 kB + 2 × the
 * answer); and the heap of a streamed list page and of the largest genome pair's download,
 * against a control.
 *
 * `tsx --expose-gc bench/at-scale.ts` runs it alone (the simulation takes ~4 min and 1.7 GB, the
 * compile tens of minutes on this machine, both kept in build/bench/ for later runs).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createApp } from "../src/app.js";
import { createBlobCache } from "../src/release/blob-cache.js";
import { folderStorage, openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import { folderPairStats } from "../release-compiler/simulate/pair-stats.js";
import { simulateRelease } from "../release-compiler/simulate/simulate.js";
import { FORMAT_VERSION, SPECIATION, type FamilyRow } from "../release-format/format.js";
import { PAGE_ENTRIES, ROOT_ENTRIES } from "../release-format/directory.js";
import { LAYOUT } from "../release-compiler/write/layout.js";
import { readStageLines } from "../release-compiler/stages.js";
import { COMPILER_NODE_FLAGS } from "../release-compiler/task-processes.js";
import { LOAD_DERIVED_STAGE, SIDE_BY_SIDE_STAGE } from "../release-compiler/compile.js";
import { compilerSourceHash, RELATION_PARTS } from "../release-compiler/tasks.js";
import { kib } from "./load.js";
import { compileScratch, runMeasured } from "./measured-run.js";
import { releaseSize } from "./release-size.js";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, "build/bench");
export const AT_SCALE = { genomes: 2500, families: 44000, seed: 2500 };
const INPUT = resolve(OUT, "sim2500-input");
const RELEASE = resolve(OUT, "sim2500");
const ORIGIN = "http://bench.local";

/**
 * What the kept release was built with: a change of any of it compiles again, the compiler's
 * source included, so that its stage log (what Scale on paper projects from) is this code's.
 */
const stampSettings = () => ({ ...AT_SCALE, format: FORMAT_VERSION, layout: { ...LAYOUT, PAGE_ENTRIES, ROOT_ENTRIES }, relationParts: RELATION_PARTS, compile: COMPILE_FLAGS, compiler: compilerSourceHash() });
/** How the release is compiled: two jobs within 4 GB; and the same with one job, compared. */
const COMPILE_FLAGS = ["--jobs", "2", "--memory", "4g"];
const ONE_JOB_FLAGS = ["--jobs", "1", "--memory", "4g"];

interface CompileFigures {
  seconds: number;
  peakMb: number;
  /** Largest size of the compile's scratch folder. */
  tempMb?: number;
}

/** The compile with one job: its figures, and whether it gave the kept release's bytes (the same manifest, which names every chunk by its hash). */
interface OneJobFigures extends CompileFigures {
  identical: boolean;
}

interface Stamp {
  settings: ReturnType<typeof stampSettings>;
  compile: CompileFigures;
  oneJob?: OneJobFigures;
}

/**
 * The compiled 2,500-genome release and its compile, when built with these settings and this
 * format: the basis of the scale projection (bench/scale.ts), being of the target's shape.
 */
export async function atScaleBasis(): Promise<{ dir: string; proteins: number; pairRows: number; seconds: number; peakBytes: number } | undefined> {
  const stamp = resolve(RELEASE, "at-scale.json");
  if (!existsSync(stamp)) return undefined;
  const kept = JSON.parse(readFileSync(stamp, "utf8")) as Stamp;
  if (JSON.stringify(kept.settings) !== JSON.stringify(stampSettings())) return undefined;
  const { manifest } = await openReleaseFolder(RELEASE);
  return { dir: RELEASE, proteins: manifest.counts.proteins, pairRows: manifest.tables.pairs.rows, seconds: kept.compile.seconds, peakBytes: kept.compile.peakMb * 2 ** 20 };
}

/** Compiles the simulated input into `out` in a child process (a 20 GB heap), measured; its stage log beside it. */
async function compileMeasured(out: string, flags: string[], log: (line: string) => void): Promise<CompileFigures> {
  rmSync(out, { recursive: true, force: true });
  log(`compiling (a child process with a 20 GB heap, ${flags.join(" ")})…`);
  const run = await runMeasured(process.execPath, ["--max-old-space-size=20000", ...COMPILER_NODE_FLAGS, "--import", "tsx", resolve(ROOT, "release-compiler/cli.ts"), "--config", resolve(INPUT, "release.json"), "--out", out, "--verbose", ...flags], {
    cwd: ROOT,
    tree: true,
    scratchOf: (pid) => compileScratch(out, pid),
    echo: log,
  });
  if (run.code !== 0) throw new Error(`compile failed (${run.code}): ${run.output.slice(-2000)}`);
  writeFileSync(`${out}.log`, run.output);
  return { seconds: run.seconds, peakMb: run.peakKb / 1024, tempMb: run.peakScratchBytes / 2 ** 20 };
}

/**
 * Simulates and compiles the release unless built already with these settings and this format,
 * with one job and then with two, and compares the two by their manifests (which name every
 * pack by the hash of its bytes): the one-job release goes once its manifest is read, so the
 * disk holds one release of this size beside a compile's scratch, not two (stop 43's run, which
 * kept the first for the second, ran out of disk). The two-job release is kept and served.
 */
async function ensureRelease(log: (line: string) => void): Promise<Stamp> {
  const stampFile = resolve(RELEASE, "at-scale.json");
  const settings = stampSettings();
  if (existsSync(stampFile)) {
    const kept = JSON.parse(readFileSync(stampFile, "utf8")) as Stamp;
    if (JSON.stringify(kept.settings) === JSON.stringify(settings) && kept.oneJob) return kept;
  }
  if (!existsSync(resolve(INPUT, "release.json"))) {
    log(`simulating ${AT_SCALE.genomes} genomes × ${AT_SCALE.families} families (~4 min)…`);
    await simulateRelease({ out: INPUT, ...AT_SCALE });
  }
  rmSync(RELEASE, { recursive: true, force: true });
  const oneJob = `${RELEASE}-jobs1`;
  const oneJobFigures = await compileMeasured(oneJob, ONE_JOB_FLAGS, log);
  const oneJobManifest = readFileSync(resolve(oneJob, "manifest.json"));
  rmSync(oneJob, { recursive: true, force: true });
  const compile = await compileMeasured(RELEASE, COMPILE_FLAGS, log);
  const identical = oneJobManifest.equals(readFileSync(resolve(RELEASE, "manifest.json")));
  const stamp: Stamp = { settings, compile, oneJob: { ...oneJobFigures, identical } };
  writeFileSync(stampFile, JSON.stringify(stamp));
  return stamp;
}

/**
 * One request on a fresh isolate (an empty chunk cache; the release opened by the app): its reads,
 * bytes, answer and CPU. Reads are counted at the storage, to the answer's last byte: an answer
 * that streams reads on after its headers, which its X-Blob-Reads header cannot count.
 */
async function cold(storage: ReturnType<typeof folderStorage>, path: string) {
  const counted = { reads: 0, bytes: 0, on: false };
  const app = createApp({
    storage: () => ({
      async get(key, range) {
        const bytes = await storage.get(key, range);
        if (counted.on && bytes) [counted.reads, counted.bytes] = [counted.reads + 1, counted.bytes + bytes.length];
        return bytes;
      },
    }),
    blobCache: createBlobCache(),
  });
  await app.request(`${ORIGIN}/api/version/`); // opens the release: manifest and header, once per isolate
  counted.on = true;
  const cpu = process.cpuUsage();
  const res = await app.request(`${ORIGIN}/api${path}`);
  const answer = (await res.arrayBuffer()).byteLength;
  const used = process.cpuUsage(cpu);
  return { status: res.status, reads: counted.reads, bytes: counted.bytes, answer, cpuMs: (used.user + used.system) / 1000 };
}

/**
 * Peak live heap above a settled baseline while a response body is read to its end, chunk by
 * chunk: every 32nd chunk a garbage collection (with --expose-gc), then the heap, so the figure
 * is what the answer holds, not garbage awaiting collection.
 */
async function streamedHeap(app: ReturnType<typeof createApp>, path: string): Promise<{ status: number; bytes: number; rows: number; peakMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const res = await app.request(`${ORIGIN}/api${path}`);
  const total = Number(res.headers.get("X-Total-Count") ?? 0);
  const reader = res.body!.getReader();
  let bytes = 0;
  for (let n = 0; ; n++) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (n % 32 === 0) {
      gc?.();
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  }
  return { status: res.status, bytes, rows: total, peakMb: peak / 2 ** 20 };
}

export async function atScaleBenchmark(log: (line: string) => void): Promise<string> {
  const { compile, oneJob } = await ensureRelease(log);
  const release = await openReleaseFolder(RELEASE);
  const m = release.manifest;
  const size = await releaseSize(RELEASE, release);
  const pairs = await folderPairStats(RELEASE);
  const storage = folderStorage(RELEASE);
  const warm = createApp({ storage: () => storage });
  const json = async (path: string) => (await (await warm.request(`${ORIGIN}/api${path}`)).json()) as Record<string, unknown>;

  // Targets spread over the release: every 40,000th entry or so, and their groups and HOGs.
  log("cold reads per endpoint family…");
  const families = new Map<string, string[]>();
  const add = (family: string, path: string) => families.set(family, [...(families.get(family) ?? []), path]);
  for (let k = 0; k < 20; k++) {
    const entry = 1 + Math.floor(((k * 7919) % 1000) / 1000 * m.counts.proteins);
    const p = await json(`/protein/${entry}/`);
    add("protein by entry number", `/protein/${entry}/`);
    add("protein by orthid", `/protein/${p.orthid}/`);
    add("protein by canonical id", `/protein/${encodeURIComponent(String(p.canonicalid))}/`);
    for (const [name, sub] of [["orthologs", "orthologs"], ["cross-references", "xref"], ["GO annotations", "gene_ontology"], ["domains", "domains"], ["isoforms", "isoforms"], ["HOG-derived orthologs", "hog_derived_orthologs"]]) add(`protein ${name}`, `/protein/${entry}/${sub}/`);
    if (p.orth_group) add("group", `/group/${p.orth_group}/`);
    if (p.orth_hog_id) {
      add("HOG read", `/hog/${p.orth_hog_id}/`);
      add("HOG members", `/hog/${p.orth_hog_id}/members/`);
    }
  }
  for (let g = 0; g < m.genomes.length; g += 250) add("genome", `/genome/${m.genomes[g].code}/`);
  const rows: string[] = [];
  for (const [family, paths] of families) {
    const samples = [];
    for (const path of paths) samples.push(await cold(storage, path));
    const ok = samples.filter((s) => s.status === 200);
    const max = (f: (s: (typeof ok)[number]) => number) => Math.max(...ok.map(f));
    const median = (f: (s: (typeof ok)[number]) => number) => ok.map(f).sort((a, b) => a - b)[ok.length >> 1];
    const worst = max((s) => s.bytes / (64 * 1024 + 2 * s.answer));
    rows.push(
      `| ${family} | ${ok.length} | ${median((s) => s.reads)} (max ${max((s) => s.reads)}) | ${kib(median((s) => s.bytes))} (max ${kib(max((s) => s.bytes))}) | ${kib(median((s) => s.answer))} | ${worst.toFixed(2)} | ${median((s) => s.cpuMs).toFixed(1)} |`,
    );
  }

  // The longest lists of the release (its groups, its root HOGs), each streamed whole on a fresh
  // isolate whose chunk cache keeps nothing (so the heap measured is the answer's, not the
  // cache's, which is bounded apart at 64 MB), against a page of 100; and the largest genome
  // pair's download.
  log("streamed pages and downloads…");
  const fresh = () => createApp({ storage: () => storage, blobCache: createBlobCache(0) });
  const pages = [];
  for (const list of ["/group/", "/hog/"]) {
    pages.push({ list, control: await streamedHeap(fresh(), `${list}?per_page=100`), whole: await streamedHeap(fresh(), `${list}?per_page=10000000`) });
  }
  let largest = { i: 0, j: 1, count: -1 };
  let k = 0;
  for await (const row of await release.rows(m.tables.pairDirectory, 0, m.tables.pairDirectory.rows)) {
    const [i, j] = [Math.floor(k / m.genomes.length), k % m.genomes.length];
    if (i !== j && row[1] > largest.count) largest = { i, j, count: row[1] };
    k++;
  }
  const pair = `${m.genomes[largest.i].code}/${m.genomes[largest.j].code}`;
  const download = await streamedHeap(fresh(), `/downloads/pairs/${pair}.tsv.gz`);
  // The widest family: its members at the root streamed, and single records within it, cold.
  let widest: FamilyRow | undefined;
  for await (const family of await release.rows(m.tables.families, 0, m.tables.families.rows)) {
    if (!widest || family.entries.length > widest.entries.length) widest = family;
  }
  const wide = widest!;
  const members = await streamedHeap(fresh(), `/hog/${wide.rootId}/members/`);
  // The orthologs of the widest family's first gene: more than 512, so rendered as the client reads.
  const orthologs = await streamedHeap(fresh(), `/protein/${wide.entries[0]}/orthologs/`);
  const orthologCount = (await json(`/protein/${wide.entries[0]}/orthologs/`)) as unknown as unknown[];
  const rowBytes = (await release.locate(m.tables.families.tree, wide.family - 1))!.ref[2];
  const memberChunks = new Set<string>();
  if (!wide.members) for (let p = 0; p < wide.entries.length; p += 16) memberChunks.add((await release.locate(m.tables.familyMembers.tree, wide.firstMember + p))!.ref[3]);
  // A HOG of the median size among those of more than one gene below the root, and a gene of it.
  const subs = wide.nodes.filter((n) => n.kind === SPECIATION && n.parent >= 0 && n.hi - n.lo > 1).sort((a, b) => a.hi - a.lo - (b.hi - b.lo));
  const sub = subs[subs.length >> 1] ?? wide.nodes[0];
  const gene = wide.entries[sub.lo];
  const level = encodeURIComponent(m.taxonomy.names[sub.level]);
  const wideRecords: string[] = [];
  for (const [what, path] of [
    ["root HOG read", `/hog/${wide.rootId}/`],
    [`sub-HOG members (${sub.hi - sub.lo} genes)`, `/hog/${encodeURIComponent(sub.id)}/members/?level=${level}`],
    ["sub-HOG read", `/hog/${encodeURIComponent(sub.id)}/?level=${level}`],
    ["sub-HOG read on its deepest level", `/hog/${encodeURIComponent(sub.id)}/`],
    ["sub-HOG read on the root's level (an ancestor's level card)", `/hog/${encodeURIComponent(sub.id)}/?level=${encodeURIComponent(m.taxonomy.names[wide.nodes[0].levels[0]])}`],
    ["the HOG of a gene, by its entry number (its HOG id's card)", `/hog/${gene}/`],
    ["a gene's orthologs", `/protein/${gene}/orthologs/`],
    ["a gene's HOG-derived orthologs", `/protein/${gene}/hog_derived_orthologs/`],
    ["the drawing at the sub-HOG", `/hog/${encodeURIComponent(sub.id)}/svg/?level=${level}`],
  ]) {
    const s = await cold(storage, path);
    wideRecords.push(`| ${what} | ${s.status} | ${s.reads} | ${kib(s.bytes)} | ${kib(s.answer)} | ${(s.bytes / (64 * 1024 + 2 * s.answer)).toFixed(2)} | ${s.cpuMs.toFixed(1)} |`);
  }

  const deepest = Math.max(...size.trees.map((t) => t.depth));
  const cardBytes = { hogCards: 0, hogLevelCards: 0 };
  for (const t of size.trees) if (t.name === "tables.hogCards" || t.name === "tables.hogLevelCards") cardBytes[t.name.slice("tables.".length) as keyof typeof cardBytes] = t.chunkBytes;
  return [
    `Release: \`npm run simulate -- --genomes ${AT_SCALE.genomes} --families ${AT_SCALE.families} --seed ${AT_SCALE.seed}\` (families born inside clades), compiled by \`npm run compile -- ${COMPILE_FLAGS.join(" ")}\` in ${(compile.seconds / 60).toFixed(1)} min at a peak RSS of ${(compile.peakMb / 1024).toFixed(1)} GB${compile.tempMb !== undefined ? ` and ${(compile.tempMb / 1024).toFixed(1)} GiB of temp disk` : ""} (its stage log beside the release, build/bench/sim2500.log)${oneJob ? `; with \`${ONE_JOB_FLAGS.join(" ")}\` in ${(oneJob.seconds / 60).toFixed(1)} min at ${(oneJob.peakMb / 1024).toFixed(1)} GB and ${((oneJob.tempMb ?? 0) / 1024).toFixed(1)} GiB (build/bench/sim2500-jobs1.log), ${oneJob.identical ? "byte-identical (the same manifest)" : "NOT byte-identical"}, two jobs ×${(oneJob.seconds / compile.seconds).toFixed(2)} as fast` : ""}: ${m.counts.genomes.toLocaleString("en")} genomes, ${m.counts.proteins.toLocaleString("en")} proteins, ${m.counts.families.toLocaleString("en")} HOG families, ${m.tables.pairs.rows.toLocaleString("en")} pair rows.`,
    "",
    `- **Layout**: manifest ${size.manifestBytes} B, header ${kib(size.headerBytes)}, ${size.packs} packs, ${(size.packBytes / 2 ** 30).toFixed(2)} GiB, ${size.chunks.toLocaleString("en")} chunks; deepest tree ${deepest} (${size.trees.filter((t) => t.depth === deepest).map((t) => t.name).join(", ")}).`,
    `- **Slotted trees** (no directory page at any size; FORMAT.md, "Slotted trees"): ${size.trees
      .filter((t) => t.slotted)
      .map((t) => `${t.name} ${t.chunks.toLocaleString("en")} chunks in ${t.slotted!.runs} runs of up to ${t.slotted!.largestRun}, ${kib(t.chunkBytes)} of slots for ${kib(t.slotted!.contentBytes)} of chunks (+${(100 * (t.chunkBytes / t.slotted!.contentBytes - 1)).toFixed(1)}%: length, Merkle path, padding)`)
      .join("; ")}.`,
    `- **Pair rows**: ${pairs.pairRowsPerProtein.toFixed(1)} per protein and ${pairs.perGenomePair.mean.toFixed(1)} ortholog rows per ordered genome pair (median ${pairs.perGenomePair.median}, max ${pairs.perGenomePair.max}; primates-chr12: 2.94 pair rows per protein, 284 ortholog rows per genome pair, median 117; \`tsx release-compiler/simulate/pair-stats.ts DIR\`).`,
    ...pages.map(
      ({ list, control, whole }) =>
        `- **A streamed page**: \`/api${list}?per_page=10000000\` (${whole.rows.toLocaleString("en")} rows, ${(whole.bytes / 2 ** 20).toFixed(1)} MiB of JSON) holds at most ${whole.peakMb.toFixed(1)} MiB of live heap above the settled baseline while it streams on a fresh isolate (a chunk cache that keeps nothing); a page of 100 of the same list, ${control.peakMb.toFixed(1)} MiB.`,
    ),
    `- **HOG cards** (FORMAT.md, "HOG cards"): ${m.tables.hogCards.rows.toLocaleString("en")} HOG ids of the families of more than ${LAYOUT.hogCardsFromNodes} nodes, ${kib(cardBytes.hogCards)} of cards and ${kib(cardBytes.hogLevelCards)} of level cards.`,
    `- **The widest family**: ${wide.rootId} (${wide.entries.length.toLocaleString("en")} members, ${wide.nodes.length.toLocaleString("en")} nodes): its row (tree and entry numbers, its members' summaries in ${memberChunks.size} chunks of \`familyMembers\`) is ${kib(rowBytes)}; its members at the root, ${(members.bytes / 2 ** 20).toFixed(1)} MiB of JSON, hold at most ${members.peakMb.toFixed(1)} MiB of live heap above the baseline while the answer streams in slices of 512 members.`,
    `- **The orthologs of its first gene**: \`/api/protein/${wide.entries[0]}/orthologs/\` (${orthologCount.length.toLocaleString("en")} orthologs, ${(orthologs.bytes / 2 ** 20).toFixed(1)} MiB of JSON) hold at most ${orthologs.peakMb.toFixed(1)} MiB of live heap above the baseline while the answer streams, its partners' summaries read at once before it starts.`,
    `- **The largest genome pair's file**: \`/api/downloads/pairs/${pair}.tsv.gz\` (${largest.count.toLocaleString("en")} pair rows, ${(download.bytes / 2 ** 20).toFixed(1)} MiB gzipped) holds at most ${download.peakMb.toFixed(1)} MiB of live heap.`,
    "",
    "Cold reads on a fresh isolate once the release is open (manifest and header read once per isolate), in process on the release folder; directory pages below the root are counted, and every read to the answer's last byte (an answer that streams reads on after its headers, which its X-Blob-Reads header does not count).",
    "",
    "| endpoint family | requests | reads, median (max) | bytes read, median (max) | answer, median | worst bytes / (64 kB + 2 × answer) | CPU ms, median |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    "",
    `Single records in the widest family (${wide.rootId}), cold, likewise:`,
    "",
    "| request | status | reads | bytes read | answer | bytes / (64 kB + 2 × answer) | CPU ms |",
    "|---|---|---|---|---|---|---|",
    ...wideRecords,
    ...stageTable(compile.seconds),
  ].join("\n");
}

/**
 * The stage lines of a compile's log, but the line of the tasks side by side (`sideBySide`,
 * whose time overlaps theirs) and, when they ran side by side, each task's process loading the
 * derived release (`loads`, a few fields read lazily).
 */
export function compileStages(log: string) {
  const lines = readStageLines(log);
  const sideBySide = lines.find((st) => st.name === SIDE_BY_SIDE_STAGE);
  const loads = sideBySide ? lines.filter((st) => st.name === LOAD_DERIVED_STAGE) : [];
  return { stages: lines.filter((st) => st !== sideBySide && !loads.includes(st)), sideBySide, loads };
}

/**
 * The compile's stages at this size, from its own log (one line per stage with the heap and
 * resident set, `--verbose`): where the time and the memory go, for issue "Compile at
 * public-release scale".
 */
function stageTable(totalSeconds: number): string[] {
  const logFile = `${RELEASE}.log`;
  if (!existsSync(logFile)) return [];
  const { stages, sideBySide, loads } = compileStages(readFileSync(logFile, "utf8"));
  if (!stages.length) return [];
  return [
    "",
    sideBySide
      ? `The compile's stages (its log, build/bench/sim2500.log; ${totalSeconds.toFixed(0)} s in all): every task in a process of its own, derive first and alone, then the tasks after it side by side (${sideBySide.seconds.toFixed(0)} s for them all), so their stages overlap and their shares add up to more than that (each task's loading of the derived release, ${loads.length} lines of ${loads.reduce((n, st) => n + st.seconds, 0).toFixed(1)} s in all, left out). The time of each stage, the CPU time its process spent on it (all its threads), the heap in use, resident set and peak resident set of its process when it ended, and how busy that process's main thread was (the share worker threads and the row engine's threads did not take).`
      : `The compile's stages (its log, build/bench/sim2500.log; ${totalSeconds.toFixed(0)} s in all, the rest is starting Node and loading modules): the time of each, its CPU time (all threads), the heap in use, resident set and peak resident set when it ended, and how busy the main thread was (the share worker threads and the row engine's threads did not take).`,
    "",
    "| stage | seconds | CPU seconds | share | heap | RSS | peak RSS | main thread busy |",
    "|---|---|---|---|---|---|---|---|",
    ...stages.map(
      (st) =>
        `| ${st.name} | ${st.seconds.toFixed(1)} | ${st.cpuSeconds === undefined ? "–" : st.cpuSeconds.toFixed(1)} | ${((100 * st.seconds) / totalSeconds).toFixed(0)}% | ${st.heapMb} MB | ${st.rssMb} MB | ${st.peakMb} MB | ${st.mainBusy === undefined ? "–" : `${(100 * st.mainBusy).toFixed(0)}%`} |`,
    ),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await atScaleBenchmark((line) => console.error(`[bench] ${line}`)));
}
