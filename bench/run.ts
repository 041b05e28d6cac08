/**
 * `npm run bench`: runs the benchmarks and writes BENCHMARKS.md with the machine, the
 * versions and the command. Figures on a shared machine are noisy: compare ratios measured
 * in one run rather than absolute times across runs. The `## Soak` section belongs to
 * `npm run soak` and is kept as it is.
 *
 * `npm run bench -- --only cores,compile,workflow,serve,formats,at-scale,search,downloads,scale,limits,costs` runs some sections and keeps the others'
 * figures from the file (scale alone reprojects the release the last compile run kept; limits
 * holds 20 M proteins' ids in 5–7 GB, so it runs only when named; costs prices the sections as
 * they stand, see costs.ts).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { ensureDemoRelease } from "../release-compiler/local/start.js";
import { compileBenchmark, LARGEST, type CompileBenchmark } from "./compile.js";
import { coresBenchmark } from "./cores.js";
import { workflowBenchmark } from "./workflow.js";
import { costsSection } from "./costs.js";
import { downloadsBenchmark } from "./downloads.js";
import { atScaleBasis, atScaleBenchmark } from "./at-scale.js";
import { formatsBenchmark } from "./formats.js";
import { limitsBenchmark } from "./limits.js";
import { machineLine } from "./load.js";
import { scaleProjection } from "./scale.js";
import { searchBenchmark } from "./search.js";
import { serveBenchmark } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "..");
const FILE = resolve(ROOT, "BENCHMARKS.md");
const SECTIONS = ["cores", "compile", "workflow", "serve", "formats", "at-scale", "search", "downloads", "scale", "limits", "costs"] as const;
const TITLES = { targets: "Targets", cores: "Two cores", compile: "Compile", workflow: "Compile as tasks", serve: "Serve", formats: "Format 3 and 4", "at-scale": "At 2,500 genomes", search: "Search", downloads: "Downloads", scale: "Scale on paper", limits: "Past V8's limits", costs: "Costs", soak: "Soak" };

/** The sections of the current BENCHMARKS.md by title (`## Title` up to the next `## `). */
function sectionsOnFile(): Map<string, string> {
  const out = new Map<string, string>();
  if (!existsSync(FILE)) return out;
  const parts = readFileSync(FILE, "utf8").split(/^(?=## )/m);
  for (const part of parts.slice(1)) out.set(part.slice(3, part.indexOf("\n")).trim(), part.trimEnd());
  return out;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: "string" } }, strict: true });
  const only = new Set((values.only ?? "cores,compile,workflow,serve,formats,at-scale,search,downloads,costs").split(",").map((s) => s.trim()));
  for (const name of only) if (!(SECTIONS as readonly string[]).includes(name)) throw new Error(`--only: unknown section ${name} (${SECTIONS.join(", ")})`);
  const log = (line: string) => console.log(`[bench] ${line}`);
  const started = new Date();
  const kept = sectionsOnFile();
  // The Targets section reads the figures below against the issues' targets: written by hand in
  // BENCHMARKS.md after a run, and kept as it is by every run.
  const body = new Map<string, string>();
  const section = (title: string) => (body.has(title) ? `## ${title}\n\n${body.get(title)}` : kept.get(title));
  // Written again as each section finishes, so that a run stopped part-way (a full disk, say) keeps what it measured.
  const write = () => {
    const text = [
      "# Benchmarks",
      "",
      `Written by \`npm run bench${values.only ? ` -- --only ${values.only}` : ""}\` on ${started.toISOString().slice(0, 10)} (sections not run keep their earlier figures; \`## Soak\` is written by \`npm run soak\`).`,
      "",
      `${machineLine()} Compare the ratios measured within one run.`,
      "",
      ...Object.values(TITLES)
        .map(section)
        .filter((s): s is string => s !== undefined)
        .flatMap((s) => [s, ""]),
    ].join("\n");
    writeFileSync(FILE, text);
  };
  const measured = (title: string, markdown: string) => {
    body.set(title, markdown);
    write();
    log(`BENCHMARKS.md written with ${title}`);
  };

  if (only.has("cores")) measured(TITLES.cores, await coresBenchmark(log));
  let largest: CompileBenchmark["largest"] | undefined;
  if (only.has("compile")) {
    const compile = await compileBenchmark(log);
    measured(TITLES.compile, compile.markdown);
    largest = compile.largest;
  }
  if (only.has("workflow")) measured(TITLES.workflow, await workflowBenchmark(log));
  if (only.has("serve")) measured(TITLES.serve, await serveBenchmark(log));
  if (only.has("formats")) measured(TITLES.formats, await formatsBenchmark(log, {}, body.get(TITLES.serve)));
  if (only.has("at-scale")) measured(TITLES["at-scale"], await atScaleBenchmark(log));
  if (only.has("compile") || only.has("scale") || only.has("at-scale")) {
    // The projection from the 2,500-genome release when it is built (the target's shape), else
    // from the largest release the compile benchmark kept (this run's, or the last one's).
    if (!largest && existsSync(LARGEST)) largest = JSON.parse(readFileSync(LARGEST, "utf8")) as CompileBenchmark["largest"];
    const basis = (await atScaleBasis()) ?? largest;
    if (!basis) throw new Error(`no release to project from: run npm run bench -- --only at-scale (or compile) first`);
    measured(TITLES.scale, await scaleProjection(basis.dir, basis));
  }
  if (only.has("limits")) measured(TITLES.limits, await limitsBenchmark(log));
  if (only.has("downloads")) measured(TITLES.downloads, await downloadsBenchmark(log));
  if (only.has("search")) measured(TITLES.search, await searchBenchmark({ genomes: 25, families: 1500, seed: 5, queries: 100 }, log));

  if (only.has("costs")) {
    // From the sections as they now stand (this run's or the file's), and the demo as npm start builds it.
    const current = new Map(Object.values(TITLES).flatMap((t) => (section(t) ? [[t, section(t)!] as [string, string]] : [])));
    const costs = await costsSection(current, await ensureDemoRelease());
    measured(TITLES.costs, costs.slice(costs.indexOf("\n") + 1).trimStart());
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
