/**
 * Format 3 against format 4, side by side in one run: the serve benchmark (bench/serve.ts) of
 * the last format-3 commit, checked out in a git worktree with its own compiler, worker and
 * benchmark, and this checkout's, on the same simulated inputs and the same seeded mix, one
 * after the other on this machine. Each run measures itself against its own floor, so the
 * ratios compare across the two; the per-family reads, bytes and CPU are set side by side.
 *
 * `tsx bench/formats.ts` runs it alone and prints the Markdown section.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { serveBenchmark, type ServeBenchOptions } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "..");
/** The last commit of format 3 (before "Release format 4"). */
export const FORMAT3_COMMIT = "06202f2c39e828dbd9644ab1be1cd98087cd1834";
const CHECKOUT = resolve(ROOT, "build/bench/format3");

/** A worktree of FORMAT3_COMMIT sharing this checkout's node_modules (the dependencies did not change). */
function format3Checkout(log: (line: string) => void): string {
  if (!existsSync(resolve(CHECKOUT, "bench/serve.ts"))) {
    log(`checking out format 3 (${FORMAT3_COMMIT.slice(0, 7)}) in ${CHECKOUT}…`);
    mkdirSync(resolve(CHECKOUT, ".."), { recursive: true });
    execFileSync("git", ["worktree", "add", "--force", "--detach", CHECKOUT, FORMAT3_COMMIT], { cwd: ROOT, stdio: "pipe" });
  }
  if (!existsSync(resolve(CHECKOUT, "node_modules"))) symlinkSync(resolve(ROOT, "node_modules"), resolve(CHECKOUT, "node_modules"));
  return CHECKOUT;
}

/** The rows of a Markdown table whose header starts with `| endpoint family |` and contains `column`, by family. */
function tableRows(markdown: string, column: string): Map<string, Map<string, string>> {
  const lines = markdown.split("\n");
  const at = lines.findIndex((l) => l.startsWith("| endpoint family |") && l.includes(column));
  const out = new Map<string, Map<string, string>>();
  if (at < 0) return out;
  const cells = (line: string) => line.split("|").slice(1, -1).map((c) => c.trim());
  const header = cells(lines[at]);
  for (const line of lines.slice(at + 2)) {
    if (!line.startsWith("|")) break;
    const row = cells(line);
    out.set(row[0], new Map(header.map((h, i) => [h, row[i]])));
  }
  return out;
}

/** A figure of the ratio lines (`- Warm throughput, whole mix: ours 411 req/s, floor 365 req/s: **1.13× …`). */
const ratioLine = (markdown: string, label: string): string => markdown.split("\n").find((l) => l.startsWith(`- ${label}`))?.slice(2) ?? "(not measured)";

/** `ours`: this checkout's serve section when this run measured it already (`npm run bench` runs serve first). */
export async function formatsBenchmark(log: (line: string) => void, options: ServeBenchOptions = {}, ours?: string): Promise<string> {
  const checkout = format3Checkout(log);
  const old = (await import(pathToFileURL(resolve(checkout, "bench/serve.ts")).href)) as { serveBenchmark: typeof serveBenchmark };
  log("format 3: its own compile of the serve release, its worker, its floor…");
  const three = await old.serveBenchmark((line) => log(`[format 3] ${line}`), options);
  if (!ours) log("format 4: this checkout…");
  const four = ours ?? (await serveBenchmark((line) => log(`[format 4] ${line}`), options));

  const speed3 = tableRows(three, "cold p50 / p99 ms");
  const speed4 = tableRows(four, "cold p50 / p99 ms");
  const reads3 = tableRows(three, "bytes read / request, cold");
  const reads4 = tableRows(four, "bytes read / request, cold");
  const pick = (row: Map<string, string> | undefined, ...names: string[]) => names.map((n) => row?.get(n)).find((v) => v !== undefined) ?? "–";
  const readsOf = (row: Map<string, string> | undefined) => pick(row, "storage reads / request, cold", "blob reads / request, cold");
  const lines = [
    `The serve benchmark (below, "Serve") run twice in one process: first the format-3 checkout of commit \`${FORMAT3_COMMIT.slice(0, 7)}\` (a git worktree in build/bench/format3: its compiler on the same simulated inputs, its worker bundle, its floor), then this checkout. Each run is measured against its own floor on the same machine minutes apart, so compare the ratios.`,
    "",
    "| | format 3 | format 4 |",
    "|---|---|---|",
    `| warm throughput | ${ratioLine(three, "Warm throughput")} | ${ratioLine(four, "Warm throughput")} |`,
    `| cold p99 | ${ratioLine(three, "Cold latency p99, whole mix")} | ${ratioLine(four, "Cold latency p99, whole mix")} |`,
    `| cold p99, single records | ${ratioLine(three, "Cold latency p99 of the single-record")} | ${ratioLine(four, "Cold latency p99 of the single-record")} |`,
    "",
    "| endpoint family | reads cold, format 3 → 4 | bytes read cold, format 3 → 4 | response size | CPU p50 / p99 ms cold, format 3 → 4 | cold p50 / p99 ms, format 3 → 4 | floor cold p99 ms, format 3 / 4 |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const family of speed4.keys()) {
    const [r3, r4, s3, s4] = [reads3.get(family), reads4.get(family), speed3.get(family), speed4.get(family)];
    const floorP99 = (row: Map<string, string> | undefined) => pick(row, "floor cold p50 / p99 ms").split(" / ")[1] ?? "–";
    lines.push(
      `| ${family} | ${readsOf(r3)} → ${readsOf(r4)} | ${pick(r3, "bytes read / request, cold")} → ${pick(r4, "bytes read / request, cold")} | ${pick(r4, "response size")} | ${pick(r3, "CPU p50 / p99 ms, cold")} → ${pick(r4, "CPU p50 / p99 ms, cold")} | ${pick(s3, "cold p50 / p99 ms")} → ${pick(s4, "cold p50 / p99 ms")} | ${floorP99(s3)} / ${floorP99(s4)} |`,
    );
  }
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await formatsBenchmark((line) => console.error(`[bench] ${line}`)));
}
