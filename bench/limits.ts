/**
 * Past V8's limits (`npm run bench -- --only limits`): what one Map and one array hold, and what
 * the compiler's BigMap and BigArray (release-compiler/collections.ts) do at the counts a
 * release of 20 M proteins reaches. Each probe runs in a process of its own
 * (bench/limits-probe.ts), its peak resident set measured.
 *
 * The counts are the simulated 1M release's per protein (1,022,299 proteins over 100 genomes,
 * counted from its derived release), times 20 M: the annotation resolver's keys (canonical ids
 * and the distinct cross-reference ids, 4.04 a protein) and the entry id index's keys
 * (canonical ids, aliases, cross-reference ids and version-less accessions, 6.64 a protein).
 */
import { resolve } from "node:path";
import { runMeasured } from "./measured-run.js";

const ROOT = resolve(import.meta.dirname, "..");
const PROTEINS = 20_000_000;
const RESOLVER_KEYS_PER_PROTEIN = 4.04;
const ENTRY_ID_KEYS_PER_PROTEIN = 6.64;
/** Heap each probe may use: the 20 M-protein probes hold 5–7 GB. */
const HEAP_MB = 14_000;

interface ProbeResult {
  held: number;
  error?: string;
  segments?: number;
  parts?: number;
  insert?: number;
  lookupNs?: number;
  found?: number;
  lookups?: number;
  push?: number;
  sort?: number;
  sorted?: boolean;
  heapMiB?: number;
}

async function probe(name: string, count: number, log: (line: string) => void) {
  log(`limits: ${name} of ${count.toLocaleString("en-US")}`);
  const run = await runMeasured(process.execPath, [`--max-old-space-size=${HEAP_MB}`, "--import", "tsx", resolve(ROOT, "bench/limits-probe.ts"), name, String(count)], { cwd: ROOT });
  const lines = run.output.split("\n").filter((l) => l.startsWith("{"));
  const last = lines.length ? (JSON.parse(lines[lines.length - 1]) as ProbeResult & { length?: number }) : undefined;
  return { run, last, peakGb: run.peakKb / 1e6 };
}

const n = (x: number) => x.toLocaleString("en-US");

export async function limitsBenchmark(log: (line: string) => void): Promise<string> {
  const resolverKeys = Math.round(PROTEINS * RESOLVER_KEYS_PER_PROTEIN);
  const entryIdKeys = Math.round(PROTEINS * ENTRY_ID_KEYS_PER_PROTEIN);

  const map = await probe("map", resolverKeys, log);
  const array = await probe("array", entryIdKeys, log);
  const bigMap = await probe("bigmap", resolverKeys, log);
  const bigArray = await probe("bigarray", entryIdKeys, log);
  const m = map.last!;
  const a = array.last as { length?: number; held?: number } | undefined;
  const fatal = array.run.output.match(/Fatal JavaScript invalid size error \d+/)?.[0];
  const bm = bigMap.last!;
  const ba = bigArray.last!;
  if (bigMap.run.code !== 0 || bigArray.run.code !== 0) throw new Error(`limits: a BigMap or BigArray probe failed:\n${bigMap.run.output.slice(-2000)}\n${bigArray.run.output.slice(-2000)}`);

  const rows = [
    `| one Map (what the compiler held its ids in before) | ${n(resolverKeys)} ids | ${m.error ? `refused at ${n(m.held)}: "${m.error}"` : `held ${n(m.held)}`}; ${n(m.lookups!)} lookups in it, half of them misses, ${m.lookupNs} ns each | ${m.insert} s to set them | ${map.peakGb.toFixed(1)} GB (heap ${n(m.heapMiB!)} MiB) |`,
    `| one array grown by push (the entry id index's keys before) | ${n(entryIdKeys)} ids | ${a?.held !== undefined ? `held ${n(a.held)}` : `the process stopped past ${n(a?.length ?? 0)} elements (${array.run.code === null || array.run.code > 128 ? "killed by V8" : `exit ${array.run.code}`}${fatal ? `: "${fatal}"` : ""})`} | – | ${array.peakGb.toFixed(1)} GB |`,
    `| BigMap: the annotation resolver's ids at 20 M proteins | ${n(resolverKeys)} ids | held ${n(bm.held)} in ${bm.parts} parts; ${n(bm.lookups!)} lookups, half of them misses, ${bm.lookupNs} ns each | ${bm.insert} s to set them | ${bigMap.peakGb.toFixed(1)} GB (heap ${n(bm.heapMiB!)} MiB) |`,
    `| BigArray: the entry id index's keys at 20 M proteins | ${n(entryIdKeys)} ids | held ${n(ba.held)} in ${ba.segments} segments, put in string order (stringOrder)${ba.sorted ? "" : " WRONGLY"} | ${ba.push} s to push them, ${ba.sort} s to order them | ${bigArray.peakGb.toFixed(1)} GB (heap ${n(ba.heapMiB!)} MiB) |`,
  ];
  return [
    "What one Map and one JavaScript array hold in Node's V8, and what the compiler's BigMap and BigArray (release-compiler/collections.ts: ordinary Maps split by the keys' hashes once one holds 2^23 keys, segments of ordinary arrays) do at the counts a release of 20 M proteins reaches: the simulated 1M release's ids per protein (4.04 keys of the annotation resolver, canonical ids and distinct cross-reference ids; 6.64 keys of the entry id index) times 20 M. Ids shaped like a release's (`SIM0042P012345`, `ENSP…`, `XP_….1`, accessions). Each probe in a process of its own (`bench/limits-probe.ts`, heap limit " + `${n(HEAP_MB)} MB), its peak resident set measured.`,
    "",
    "| structure | count at 20 M proteins | what it does | time | peak RSS |",
    "|---|---|---|---|---|",
    ...rows,
    "",
    "Until this change the compiler held these in one Map or one array each: a release past ~4 M proteins of the simulated density stopped in derive with the Map's error, one past ~17 M would have been stopped by V8 in the entry id index. Also in BigMaps or typed arrays now: the proteins' own ids, the orthoXML's genes and gene references, the HOG ids, a groups file's groups, the cross-reference search's rows and grams; the pairs of a pairs file or of OrthoFinder's orthologues, once in typed arrays with their repeats found in a BigMap, are now in a DuckDB table of their own (derive/given-pairs.ts). Per-protein Maps and Sets became arrays by entry.",
  ].join("\n");
}
