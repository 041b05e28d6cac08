/**
 * The `## Costs` section of BENCHMARKS.md: what a release costs on Cloudflare (Workers and R2),
 * from measured figures and Cloudflare's published prices.
 *
 * - Sizes: the demo release measured on disk (what `npm run publish` uploads); the 1M-protein
 *   release from the Compile section; the 20M-protein release from Scale on paper.
 * - Requests: storage reads and CPU per request of the Serve section's mix, cold (an answer
 *   assembled from R2: an edge-cache miss in a new isolate) and warm.
 * - Prices: PRICES below, with the pages and the date they were read.
 *
 * `npm run bench -- --only costs` rewrites the section from the file's other sections;
 * `tsx bench/costs.ts [--release DIR]` does the same alone (DIR: a built demo release).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { readManifestFile } from "../release-compiler/local/folder-storage.js";
import { releaseSize } from "./release-size.js";

/** Cloudflare's published prices (USD), read on PRICES_READ. */
export const PRICES_READ = "2026-11-24";
export const PRICES = {
  workersPage: "https://developers.cloudflare.com/workers/platform/pricing/",
  r2Page: "https://developers.cloudflare.com/r2/pricing/",
  cachePage: "https://developers.cloudflare.com/workers/runtime-apis/cache/",
  /** Workers Free: requests a day, CPU ms per invocation. */
  freeRequestsPerDay: 100_000,
  freeCpuMsPerRequest: 10,
  /** Workers Paid (Standard usage model). */
  paidMonthly: 5,
  paidRequestsIncluded: 10e6,
  perMillionRequests: 0.3,
  paidCpuMsIncluded: 30e6,
  perMillionCpuMs: 0.02,
  /** R2 Standard storage. */
  perGbMonth: 0.015,
  freeGbMonth: 10,
  perMillionClassA: 4.5,
  freeClassA: 1e6,
  perMillionClassB: 0.36,
  freeClassB: 10e6,
};

/** Assumptions: figures no page or measurement gives. */
export const ASSUMED = {
  /** Edge-cache hit ratio on a custom domain with real traffic (measured: 0 cold, 1.0 on the repeated mix). */
  hitRatio: 0.9,
  /** Isolates busy all month that re-read the pointer every RELEASE_POINTER_TTL_SECONDS (30 s). */
  busyIsolates: 50,
  pointerTtlSeconds: 30,
  /** Extra cold reads per answer at 20M proteins: the directory pages of Scale on paper (depth 3). */
  extraColdReads20M: 2,
};

interface ReleaseSize {
  label: string;
  proteins: number;
  /** Objects a publish PUTs besides the manifest, pointer and history: the packs. */
  packs: number;
  bytes: number;
  source: string;
}

interface MixFigures {
  requests: number;
  coldReads: number;
  coldCpuMs: number;
  warmCpuMs: number;
}

const number = (text: string): number => Number(text.replace(/[*,]/g, "").trim());

/** A Markdown table as rows of cells keyed by header, the first table whose header has `column`. */
function table(markdown: string, column: string): Array<Record<string, string>> {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.startsWith("|") && l.split("|").some((c) => c.trim() === column));
  if (start < 0) throw new Error(`no table with a '${column}' column`);
  const header = lines[start].split("|").slice(1, -1).map((c) => c.trim());
  const rows: Array<Record<string, string>> = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith("|")) break;
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    rows.push(Object.fromEntries(header.map((h, i) => [h, cells[i] ?? ""])));
  }
  return rows;
}

const UNITS: Record<string, number> = { B: 1, kB: 1e3, MB: 1e6, GB: 1e9, kiB: 2 ** 10, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30, TiB: 2 ** 40 };
const bytesOf = (text: string): number => {
  const m = text.replace(/\*/g, "").match(/([\d.,]+)\s*(B|kB|MB|GB|kiB|KiB|MiB|GiB|TiB)/);
  if (!m) throw new Error(`not a size: ${text}`);
  return number(m[1]) * UNITS[m[2]];
};

/** The demo (or any) release folder as uploaded: its packs and manifest. */
export async function measureRelease(dir: string, label: string): Promise<ReleaseSize> {
  const manifest = readManifestFile(dir);
  const size = await releaseSize(dir);
  return { label, proteins: manifest.counts.proteins, packs: size.packs, bytes: size.bytes, source: `measured: \`${manifest.name}\` on disk` };
}

/** The largest compiled release of the Compile section (a section written before format 4 counts blobs, each its own object). */
export function compiledRelease(compile: string): ReleaseSize {
  const rows = table(compile, "proteins").map((r) => ({ proteins: number(r.proteins.split(" ")[0]), bytes: bytesOf(r.output), packs: number(r.packs ?? r.blobs) }));
  const largest = rows.reduce((a, b) => (b.proteins > a.proteins ? b : a));
  return { label: `${+(largest.proteins / 1e6).toPrecision(2)}M proteins`, ...largest, source: "Compile (measured)" };
}

/** The projected release of Scale on paper. */
export function projectedRelease(scale: string): ReleaseSize {
  const total = table(scale, "part").find((r) => r.part.includes("total"));
  if (!total) throw new Error("Scale on paper has no total row");
  const target = scale.match(/Target: [\d,]+ genomes, ([\d,]+) proteins/);
  if (!target) throw new Error("Scale on paper names no target");
  const packs = total["projected packs"] ?? total["projected blobs"];
  return { label: `${number(target[1]) / 1e6}M proteins`, proteins: number(target[1]), bytes: bytesOf(total["projected bytes"]), packs: number(packs), source: "Scale on paper (projected)" };
}

/** Means over the Serve mix, each family weighted by its requests (p50 CPU stands for the family: the section gives no mean). */
export function serveMix(serve: string): MixFigures {
  const counts = new Map(table(serve, "requests").map((r) => [r["endpoint family"], number(r.requests)]));
  // The column was `blob reads` before format 4 (one read a blob); now range reads of packs.
  const column = /storage reads \/ request, cold/.test(serve) ? "storage reads / request, cold" : "blob reads / request, cold";
  const rows = table(serve, column);
  let requests = 0;
  let reads = 0;
  let cold = 0;
  let warm = 0;
  for (const r of rows) {
    const n = counts.get(r["endpoint family"]);
    if (n === undefined) throw new Error(`Serve: no request count for ${r["endpoint family"]}`);
    requests += n;
    reads += n * number(r[column].split(" ")[0]);
    cold += n * number(r["CPU p50 / p99 ms, cold"].split("/")[0]);
    warm += n * number(r["CPU p50 / p99 ms, warm"].split("/")[0]);
  }
  return { requests, coldReads: reads / requests, coldCpuMs: cold / requests, warmCpuMs: warm / requests };
}

const usd = (x: number): string => (x === 0 ? "$0" : x < 0.01 ? "<$0.01" : `$${x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(2)}`);
const millions = (x: number): string => (x >= 1e6 ? `${+(x / 1e6).toFixed(x >= 1e8 ? 0 : 1)} M` : x.toLocaleString("en-US"));
const price = (x: number): string => `$${x < 1 ? x.toFixed(x < 0.1 ? 3 : 2) : x.toFixed(2)}`.replace(/(\.\d\d)0$/, "$1");
const gb = (bytes: number): string => (bytes >= 1e12 ? `${(bytes / 1e12).toFixed(2)} TB` : bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${(bytes / 1e6).toFixed(1)} MB`);
/** Billable millions: Cloudflare rounds usage up to the next billing unit. */
const over = (used: number, included: number, unit = 1e6): number => Math.ceil(Math.max(0, used - included) / unit);

/** The section's Markdown from the other sections' Markdown (by title) and the demo release folder. */
export async function costsSection(sections: Map<string, string>, demoDir: string, today = new Date().toISOString().slice(0, 10)): Promise<string> {
  const need = (title: string) => {
    const text = sections.get(title);
    if (!text) throw new Error(`BENCHMARKS.md has no '## ${title}' section to cost from`);
    return text;
  };
  const releases = [await measureRelease(demoDir, "demo"), compiledRelease(need("Compile")), projectedRelease(need("Scale on paper"))];
  const mix = serveMix(need("Serve"));
  const P = PRICES;

  const sizeRows = releases.map((r) => {
    const gbMonth = r.bytes / 1e9;
    // One listing page a 1,000 keys, a PUT a pack, then the manifest, the pointer and the history.
    const classA = r.packs + Math.ceil(r.packs / 1000) + 3;
    return `| ${r.label} (${r.source}) | ${r.proteins.toLocaleString("en-US")} | ${r.packs.toLocaleString("en-US")} | ${gb(r.bytes)} | ${usd(gbMonth * P.perGbMonth)} | ${usd(Math.ceil(Math.max(0, gbMonth - P.freeGbMonth)) * P.perGbMonth)} | ${classA.toLocaleString("en-US")} | ${usd((classA / 1e6) * P.perMillionClassA)} | ${usd(over(classA, P.freeClassA) * P.perMillionClassA)} |`;
  });

  const requestRows: string[] = [];
  /** The biggest charge of the 1M-protein release at 100 M requests, by hit ratio. */
  const dominant = new Map<number, string>();
  for (const r of releases) {
    const storage = Math.ceil(Math.max(0, r.bytes / 1e9 - P.freeGbMonth)) * P.perGbMonth;
    const coldReads = mix.coldReads + (r.proteins >= 10e6 ? ASSUMED.extraColdReads20M : 0);
    for (const volume of [1e6, 100e6]) {
      for (const hit of [0, ASSUMED.hitRatio]) {
        const misses = volume * (1 - hit);
        // The pointer: read by a busy isolate once a TTL, at most once a request.
        const pointerReads = Math.min(volume, ASSUMED.busyIsolates * ((30 * 86_400) / ASSUMED.pointerTtlSeconds));
        const classB = misses * coldReads + pointerReads;
        // An edge-cache hit is costed at the warm CPU (rendering from the isolate cache): an upper bound.
        const cpuMs = misses * mix.coldCpuMs + (volume - misses) * mix.warmCpuMs;
        const workersRequests = over(volume, P.paidRequestsIncluded) * P.perMillionRequests;
        const workersCpu = over(cpuMs, P.paidCpuMsIncluded) * P.perMillionCpuMs;
        const r2Reads = over(classB, P.freeClassB) * P.perMillionClassB;
        const total = P.paidMonthly + workersRequests + workersCpu + r2Reads + storage;
        if (r === releases[1] && volume === 100e6) {
          const parts: Array<[string, number]> = [
            ["Workers requests", workersRequests],
            ["Workers CPU", workersCpu],
            ["R2 reads", r2Reads],
          ];
          dominant.set(hit, parts.sort((a, b) => b[1] - a[1])[0][0]);
        }
        const freePlan = volume / 30 <= P.freeRequestsPerDay ? "fits (if every request stays under 10 ms CPU)" : "no";
        requestRows.push(
          `| ${r.label} | ${millions(volume)} | ${Math.round(hit * 100)}%${hit ? " (assumed)" : ""} | ${usd(workersRequests)} | ${millions(cpuMs)} ms: ${usd(workersCpu)} | ${millions(classB)}: ${usd(r2Reads)} | ${usd(storage)} | **${usd(total)}** | ${freePlan} |`,
        );
      }
    }
  }

  return [
    "## Costs",
    "",
    `Written by bench/costs.ts (\`npm run bench -- --only costs\`) on ${today}, from this file's Compile, Scale on paper and Serve sections and the demo release as built by \`npm start\`. USD per month unless said otherwise.`,
    "",
    `**Prices** (read on ${PRICES_READ}): Workers, ${P.workersPage}: Free plan ${P.freeRequestsPerDay.toLocaleString("en-US")} requests a day and ${P.freeCpuMsPerRequest} ms CPU an invocation; Paid (Standard) ${price(P.paidMonthly)} a month with ${millions(P.paidRequestsIncluded)} requests included then ${price(P.perMillionRequests)} a million, ${millions(P.paidCpuMsIncluded)} CPU ms included then ${price(P.perMillionCpuMs)} a million ms; no charge for duration or subrequests (R2 reads from the worker are R2 operations, not Workers requests). R2, ${P.r2Page}: Standard storage ${price(P.perGbMonth)} a GB-month (${P.freeGbMonth} GB-month free), Class A ${price(P.perMillionClassA)} a million (1 M free; PutObject and ListObjects are Class A), Class B ${price(P.perMillionClassB)} a million (10 M free; GetObject, HeadObject), egress free; usage is rounded up to the next billing unit (a started million, a started GB-month). The Cache API does nothing on \`*.workers.dev\`, only on a custom domain (${P.cachePage}).`,
    "",
    "**One release in R2**: storage a month, and the one-time publish (`npm run publish` lists the bucket's packs once, 1,000 keys a Class A listing, and PUTs each pack, the manifest, the pointer and the history; a resumed or repeated publish PUTs only what is missing). A new release of the same data shares a pack only when the pack is byte-identical, so each published release is stored whole until its packs are deleted.",
    "",
    "| release | proteins | packs | bytes (GB = 10^9 B, assumed to be R2's GB) | storage, list price | storage after the free 10 GB-month | publish: Class A operations | publish, list price | publish after the free million |",
    "|---|---|---|---|---|---|---|---|---|",
    ...sizeRows,
    "",
    `**Serving**: the Workers Paid plan, for 1 M and 100 M API requests a month. Per request, the Serve mix (${mix.requests} requests over every endpoint family, a 116k-protein release): ${mix.coldReads.toFixed(1)} storage reads (Class B) cold, CPU p50 ${mix.coldCpuMs.toFixed(1)} ms cold and ${mix.warmCpuMs.toFixed(1)} ms warm (weighted by requests; the section gives p50, not means, and the mix's bulk retrieve and sequence search weigh heavily on both). An edge-cache miss is costed as cold (an upper bound: the isolate's 64 MB chunk cache serves many misses without R2), a hit as warm CPU and no R2 read. The edge-cache hit ratio was measured at 0% cold and 100% on the repeated mix (Serve: 0.00 storage reads a warm request); real traffic lies between, so 0% (also what \`*.workers.dev\` gets) and ${Math.round(ASSUMED.hitRatio * 100)}% (an assumption) are both shown. Storage reads per request (range reads of packs, one R2 GetObject each) do not grow with the release (the format's design), except the 20M row, which adds ${ASSUMED.extraColdReads20M} directory-page reads (Scale on paper, depth 3). Pointer reads: ${ASSUMED.busyIsolates} isolates busy all month (an assumption), each reading \`releases/current\` once every ${ASSUMED.pointerTtlSeconds} s, at most one read a request.`,
    "",
    "| release | requests | edge-cache hits | Workers requests | Workers CPU | R2 Class B reads | R2 storage | total with the $5 plan | Workers Free plan instead |",
    "|---|---|---|---|---|---|---|---|---|",
    ...requestRows,
    "",
    "- **Not sourced (assumptions)**: the edge-cache hit ratio of real traffic; how many isolates re-read the pointer; that R2 bills GB as 10^9 bytes; the CPU of an edge-cache hit (costed at the warm p50, which renders the answer; a hit only reads the Cache API); the mix standing for real traffic (it weighs 1,000-id bulk retrieves and sequence searches like single records).",
    `- **What dominates** at 100 M requests (1M-protein release): ${dominant.get(0)} with a cold edge cache, ${dominant.get(ASSUMED.hitRatio)} at ${Math.round(ASSUMED.hitRatio * 100)}% hits; storage matters only at 20M proteins. A custom domain (where the Cache API works) cuts R2 reads by the hit ratio; at 1 M requests a month everything but the 20M release's storage fits in the Paid plan's inclusions.`,
  ].join("\n");
}

function sectionsOf(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of markdown.split(/^(?=## )/m).slice(1)) out.set(part.slice(3, part.indexOf("\n")).trim(), part.trimEnd());
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { release: { type: "string" } }, strict: true });
  const file = resolve(import.meta.dirname, "../BENCHMARKS.md");
  const text = readFileSync(file, "utf8");
  const demo = values.release ? resolve(values.release) : await (await import("../release-compiler/local/start.js")).ensureDemoRelease();
  const section = await costsSection(sectionsOf(text), demo);
  // In place, or before the Soak section (where \`npm run bench\` puts it).
  const replaced = /^## Costs\n/m.test(text)
    ? text.replace(/^## Costs\n[\s\S]*?(?=^## |(?![\s\S]))/m, `${section}\n\n`)
    : /^## Soak\n/m.test(text)
      ? text.replace(/^## Soak\n/m, `${section}\n\n## Soak\n`)
      : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, replaced);
  console.log(section);
}
