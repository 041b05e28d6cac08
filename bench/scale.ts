/**
 * Scale on paper: per-unit sizes measured on a compiled release, projected to a large public
 * release (2,500 genomes, 20 million proteins, 1 million HOG families, 3 million genome pairs).
 * Every projected figure is a measured per-unit size times a target count; the assumptions
 * that are not measured are stated beside the table.
 */
import { existsSync, readFileSync } from "node:fs";
import { PAGE_ENTRIES, ROOT_ENTRIES, SLOTTED_ROOT_RUNS } from "../release-format/directory.js";
import type { Manifest } from "../release-format/format.js";
import { openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import { LAYOUT } from "../release-compiler/write/layout.js";
import { compileStages } from "./at-scale.js";
import { RELATION_PARTS, relationPart, residentOf, TASK_NAMES, TASKS, tasksToStart, threadsOf, type DerivedScale, type TaskName } from "../release-compiler/tasks.js";
import { ANNOTATION_TABLES_STAGE, HOG_INDEX_STAGE, HOG_LISTS_STAGE, INDEXES_STAGE, PROTEIN_TABLES_STAGE, PUT_RELATIONS_TOGETHER, relationsPartStage, SCORE_PROFILES_STAGE, SIMILAR_PROFILES_STAGE } from "../release-compiler/write/release.js";
import { PACK_BYTES } from "../release-compiler/write/packs.js";
import { readDerivedLine } from "../release-compiler/stages.js";
import { releaseSize, treeNamed, type TreeSize } from "./release-size.js";

export const TARGET = { genomes: 2_500, proteins: 20_000_000, families: 1_000_000, genomePairs: 3_000_000 };
/** Bytes of a directory entry when the measured release has no page below a root (FORMAT.md: about 30). */
const ENTRY_BYTES_UNMEASURED = 30;

interface Part {
  name: string;
  /** What the part's bytes grow with. */
  unit: keyof typeof UNITS;
  /**
   * What its row (or key) count grows with, when not the same: relations are a row per protein.
   * Chunks are cut by bytes but never split a row, so a part has at most a chunk a row.
   */
  rowUnit?: keyof typeof UNITS;
  /** Its trees (releaseTrees names). */
  trees: string[];
}

const UNITS = {
  protein: "protein",
  pair: "pair row",
  family: "HOG family",
  hog: "HOG id",
  genomePair: "genome pair",
  genome: "genome",
  release: "nothing (bounded by the GO ontology)",
} as const;

const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? "" : "s"}`;
const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const bytesText = (n: number) =>
  n >= 2 ** 40 ? `${(n / 2 ** 40).toFixed(1)} TiB` : n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(0)} kiB` : `${n.toFixed(0)} B`;

/** Rows (tables) or keys (indexes) of a tree by its name; undefined for the k-mer index (cut by code range). */
function rowsOf(manifest: Manifest, tree: string): number | undefined {
  const [group, name] = tree.split(".");
  if (group === "tables") return manifest.tables[name as keyof Manifest["tables"]]?.rows;
  if (group === "indexes") return manifest.indexes[name as keyof Manifest["indexes"]]?.keys;
  if (tree === "xrefSearch.rows") return manifest.xrefSearch.rows.rows;
  if (tree === "xrefSearch.grams") return manifest.xrefSearch.grams.keys;
  return undefined;
}

/** The shape of a tree of `chunks` chunks as the compiler builds it (release-compiler/write/packs.ts). */
export function treeShape(chunks: number): { depth: number; pages: number; pageEntries: number; rootEntries: number } {
  let n = chunks;
  let depth = 1;
  let pages = 0;
  let pageEntries = 0;
  while (n > ROOT_ENTRIES) {
    const up = Math.ceil(n / PAGE_ENTRIES);
    pages += up;
    pageEntries += n;
    n = up;
    depth++;
  }
  return { depth, pages, pageEntries, rootEntries: n };
}

/**
 * The markdown section. `compile` is the measured compile of the largest simulated release
 * (proteins, pair rows, seconds), from the compile benchmark, for the time projection.
 */
export async function scaleProjection(releaseDir: string, compile?: { proteins: number; pairRows: number; seconds: number; peakBytes: number }): Promise<string> {
  const release = await openReleaseFolder(releaseDir);
  const { manifest } = release;
  const size = await releaseSize(releaseDir, release);
  const t = manifest.tables;
  const pairRows = t.pairs.rows;
  const measured: Record<keyof typeof UNITS, number> = {
    protein: manifest.counts.proteins,
    pair: pairRows,
    family: manifest.counts.families,
    hog: manifest.counts.hogs,
    genomePair: manifest.counts.genomes ** 2,
    genome: manifest.counts.genomes,
    release: 1,
  };
  // Pair rows per protein and other genome: how densely a protein has orthologs and paralogs in
  // each other genome. Projected as is (an upper bound: a wider tree gives narrower families).
  const pairDensity = pairRows / (manifest.counts.proteins * Math.max(1, manifest.counts.genomes - 1));
  const target: Record<keyof typeof UNITS, number> = {
    protein: TARGET.proteins,
    pair: pairDensity * TARGET.proteins * (TARGET.genomes - 1),
    family: TARGET.families,
    hog: TARGET.families * (manifest.counts.hogs / manifest.counts.families),
    genomePair: TARGET.genomes ** 2,
    genome: TARGET.genomes,
    release: 1,
  };
  const parts: Part[] = [
    { name: "proteins", unit: "protein", trees: ["tables.proteins"] },
    { name: "sequences (protein + cDNA)", unit: "protein", trees: ["tables.sequences"] },
    { name: "peptides", unit: "protein", trees: ["tables.peptides"] },
    { name: "annotations", unit: "protein", trees: ["tables.annotations"] },
    { name: "relations (per protein)", unit: "pair", rowUnit: "protein", trees: ["tables.relations"] },
    { name: "pairs (per genome pair)", unit: "pair", trees: ["tables.pairs"] },
    { name: "pair directory", unit: "genomePair", trees: ["tables.pairDirectory"] },
    { name: "groups", unit: "protein", trees: ["tables.groups"] },
    // A family row holds its members and HOG nodes: it grows with proteins, its count with families.
    { name: "families", unit: "protein", rowUnit: "family", trees: ["tables.families"] },
    { name: "profiles", unit: "family", trees: ["tables.profiles"] },
    { name: "family GO", unit: "family", trees: ["tables.familyGo"] },
    { name: "gene trees", unit: "protein", rowUnit: "family", trees: ["tables.geneTrees"] },
    { name: "HOG lists", unit: "hog", trees: ["tables.hogList"] },
    { name: "id index", unit: "protein", trees: ["indexes.entryIds"] },
    { name: "HOG id index", unit: "hog", trees: ["indexes.hogIds"] },
    { name: "HOG alias index", unit: "hog", trees: ["indexes.hogAliases"] },
    { name: "fingerprint index", unit: "protein", trees: ["indexes.fingerprints"] },
    { name: "GO term index", unit: "release", trees: ["indexes.goTerms"] },
    { name: "k-mer index", unit: "protein", trees: ["sequenceIndex"] },
    { name: "xref search", unit: "protein", trees: ["xrefSearch.rows", "xrefSearch.grams"] },
    { name: "genome details", unit: "genome", trees: ["tables.genomeDetails"] },
  ];

  // Bytes of a directory entry, measured on the pages below the roots.
  const pageEntries = size.trees.reduce((n, x) => n + x.pageEntries, 0);
  const entryBytes = pageEntries > 0 ? size.trees.reduce((n, x) => n + x.pageBytes, 0) / pageEntries : ENTRY_BYTES_UNMEASURED;

  interface Projection {
    tree: TreeSize;
    bytes: number;
    chunks: number;
    depth: number;
    pages: number;
    rootEntries: number;
    pageBytes: number;
    packs: number;
  }
  const projections = new Map<string, Projection>();
  const rows: string[] = [];
  let totalBytes = 0;
  let totalChunks = 0;
  let totalPacks = 0;
  let measuredBytes = 0;
  for (const part of parts) {
    const trees = part.trees.map((name) => treeNamed(size, name)).filter((x): x is TreeSize => x !== undefined);
    // An optional part this release has none of (gene trees, HOG aliases).
    if (trees.length === 0 || trees.every((x) => x.chunks === 0)) continue;
    const rowUnit = part.rowUnit ?? part.unit;
    const projected = trees.map((tree): Projection => {
      const dataBytes = (tree.chunkBytes / Math.max(1, measured[part.unit])) * target[part.unit];
      const meanChunk = tree.chunkBytes / Math.max(1, tree.chunks);
      const rows = rowsOf(manifest, tree.name);
      // Chunks keep their measured mean size, but a chunk holds at least one row.
      const byBytes = Math.max(1, Math.ceil(dataBytes / Math.max(1, meanChunk)));
      const chunks = rows === undefined ? byBytes : Math.min(byBytes, Math.max(1, Math.ceil((rows / Math.max(1, measured[rowUnit])) * target[rowUnit])));
      // A slotted tree (the proteins, hash indexes) stays at depth 1: its root lists runs of slots.
      const shape = tree.slotted ? { depth: 1, pages: 0, pageEntries: 0, rootEntries: Math.min(chunks, SLOTTED_ROOT_RUNS) } : treeShape(chunks);
      const pageBytes = shape.pageEntries * entryBytes;
      // Each tree writes its own data packs, and each level of its pages a pack of their own.
      const packs = Math.ceil(dataBytes / PACK_BYTES) + (shape.depth - 1) * Math.max(1, Math.ceil(pageBytes / (shape.depth - 1 || 1) / PACK_BYTES));
      const p = { tree, bytes: dataBytes + pageBytes, chunks, depth: shape.depth, pages: shape.pages, rootEntries: shape.rootEntries, pageBytes, packs };
      projections.set(tree.name, p);
      return p;
    });
    const bytes = trees.reduce((n, x) => n + x.bytes, 0);
    const chunks = trees.reduce((n, x) => n + x.chunks, 0);
    const pages = trees.reduce((n, x) => n + x.pages, 0);
    const projectedBytes = projected.reduce((n, x) => n + x.bytes, 0);
    const projectedChunks = projected.reduce((n, x) => n + x.chunks, 0);
    const projectedPacks = projected.reduce((n, x) => n + x.packs, 0);
    measuredBytes += bytes;
    totalBytes += projectedBytes;
    totalChunks += projectedChunks;
    totalPacks += projectedPacks;
    const perUnit = bytes / Math.max(1, measured[part.unit]);
    const depths = `${trees.map((x) => x.depth).join(" / ")} → ${projected.map((x) => x.depth).join(" / ")}`;
    rows.push(
      `| ${part.name} | ${UNITS[part.unit]} | ${fmt(perUnit, 1)} B | ${bytesText(bytes)} in ${plural(chunks, "chunk")}${pages ? ` + ${plural(pages, "page")}` : ""} | ${bytesText(projectedBytes)} | ${fmt(projectedChunks)} | ${bytesText(projectedBytes / Math.max(1, projectedChunks))} | ${depths} | ${fmt(projectedPacks)} |`,
    );
  }
  // The header: every tree's root page (at most ROOT_ENTRIES entries), the genomes and the taxonomy (∝ genomes).
  const rootBytes = size.trees.reduce((n, x) => n + x.rootEntries * entryBytes, 0);
  const projectedRootBytes = size.trees.reduce((n, x) => n + (projections.get(x.name)?.rootEntries ?? x.rootEntries) * entryBytes, 0);
  const headerRest = Math.max(0, size.headerBytes - rootBytes);
  const projectedHeader = (headerRest / Math.max(1, measured.genome)) * target.genome + projectedRootBytes;
  measuredBytes += size.headerBytes;
  totalBytes += projectedHeader;
  totalChunks += 1;
  totalPacks += 1;
  rows.push(
    `| header (tree roots; genomes, taxonomy) | genome (roots: at most ${fmt(ROOT_ENTRIES)} entries a tree) | ${fmt(headerRest / Math.max(1, measured.genome), 1)} B | ${bytesText(size.headerBytes)} in 1 chunk | ${bytesText(projectedHeader)} | 1 | ${bytesText(projectedHeader)} | – | 1 |`,
  );

  const deepest = [...projections.values()].sort((a, b) => b.depth - a.depth || b.chunks - a.chunks)[0];
  const measuredDeepest = [...size.trees].sort((a, b) => b.depth - a.depth || b.chunks - a.chunks)[0];
  const projectedPages = [...projections.values()].reduce((n, x) => n + x.pages, 0);
  const projectedPageBytes = [...projections.values()].reduce((n, x) => n + x.pageBytes, 0);
  const depthOf = (name: string) => projections.get(name)?.depth ?? 1;
  const relations = treeNamed(size, "tables.relations")!;
  const relationBytes = relations.chunkBytes / Math.max(1, pairRows);
  const relationsPerProtein = target.pair / TARGET.proteins;
  const relationRow = relationsPerProtein * relationBytes;
  const relationRowsPerChunk = t.relations.rows / Math.max(1, relations.chunks);
  const pagesAbove = (...names: string[]) => names.reduce((n, name) => n + depthOf(name) - 1, 0);

  const lines = [
    `Measured on \`${manifest.name}\`: ${fmt(manifest.counts.genomes)} genomes, ${fmt(manifest.counts.proteins)} proteins, ${fmt(manifest.counts.families)} HOG families (${fmt(manifest.counts.hogs)} HOG ids), ${fmt(pairRows)} directed pair rows (${pairDensity.toFixed(2)} per protein and other genome), ${bytesText(measuredBytes)} of chunks in all (the folder: ${bytesText(size.bytes)} in ${fmt(size.packs)} packs, manifest ${fmt(size.manifestBytes)} B).`,
    `Target: ${fmt(TARGET.genomes)} genomes, ${fmt(TARGET.proteins)} proteins, ${fmt(TARGET.families)} HOG families, ${fmt(TARGET.genomePairs)} genome pairs (unordered; ${fmt(TARGET.genomes ** 2)} ordered pair-directory rows).`,
    `Bytes of a part: its data chunks and directory pages. Projected chunks keep the measured mean chunk size (chunks are cut by bytes) but never hold less than a row; directory pages at ${entryBytes.toFixed(1)} B an entry (${pageEntries > 0 ? "measured" : "assumed: the measured release has no page below a root"}), ${fmt(PAGE_ENTRIES)} entries a page, a root of at most ${fmt(ROOT_ENTRIES)} in the header; packs of at most ${bytesText(PACK_BYTES)}, each tree its own, each level of pages its own. Depth: page levels from the root to a chunk (1 = the root lists the chunks), measured → projected.`,
    "",
    "| part | grows with | bytes per unit (measured) | measured | projected bytes | projected chunks | mean chunk | depth | projected packs |",
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
    `| **total** | | | ${bytesText(measuredBytes)} | **${bytesText(totalBytes)}** | **${fmt(totalChunks)}** | ${bytesText(totalBytes / totalChunks)} | | **${fmt(totalPacks)}** |`,
    "",
    `- **Pairs dominate.** ${fmt(target.pair / 1e9, 1)} billion directed pair rows, each stored twice (by genome pair for \`/pairs/\`, by protein for \`/orthologs/\`). Projecting the measured density of ${pairDensity.toFixed(2)} rows per protein and other genome is an upper bound: over 2,500 genomes families are narrower than in a 100-genome simulation, and a protein has orthologs in a smaller share of the other genomes.`,
    `- **Relations by protein** are cut into chunks of ~${fmt(LAYOUT.relationsChunkBytes / 1024)} kB (now ${fmt(relationRowsPerChunk, 1)} proteins a chunk), but a row is never split: at ${fmt(relationsPerProtein)} relations a protein (${relationBytes.toFixed(1)} B each, measured) a protein's row is ${bytesText(relationRow)}, ${relationRow > LAYOUT.relationsChunkBytes ? "a chunk of its own, which one `/orthologs/` answer reads whole" : "several to a chunk"}.`,
    `- **Index depth.** Every table and index is a tree of directory pages below a root in the header. Measured: depth up to ${measuredDeepest.depth} (\`${measuredDeepest.name}\`, ${fmt(measuredDeepest.chunks)} chunks). Projected: depth up to ${deepest.depth} (\`${deepest.tree.name}\`, ${fmt(deepest.chunks)} chunks), ${fmt(projectedPages)} directory pages (${bytesText(projectedPageBytes)}) in all; the header grows from ${bytesText(size.headerBytes)} to ${bytesText(projectedHeader)} (its roots capped at ${fmt(ROOT_ENTRIES)} entries; the genomes and the taxonomy grow with the genomes), read once per isolate.`,
    `- **Worst-case storage reads per request, cold, manifest and header excluded:** a chunk costs one read plus one per page level above it (depth − 1), and each page is shared by every later request on its ${fmt(PAGE_ENTRIES)} entries, so a busy isolate's cache keeps the pages it uses. Projected (the tables a protein's chunk names beside it, sequences, annotations, relations and families, cost no page; the proteins and hash indexes are slotted, depth 1): a protein record: 2 chunks + ${pagesAbove("tables.proteins")} pages = ${2 + pagesAbove("tables.proteins")}. A protein by xref: its id's bucket + 2 chunks + ${pagesAbove("indexes.entryIds", "tables.proteins")} pages = ${3 + pagesAbove("indexes.entryIds", "tables.proteins")}. Its orthologs: 3 chunks + ${pagesAbove("tables.proteins")} pages = ${3 + pagesAbove("tables.proteins")}. A HOG by id: its id's bucket + the family's chunk, which the bucket names (no page of the families) + ${pagesAbove("indexes.hogIds")} page${pagesAbove("indexes.hogIds") === 1 ? "" : "s"} = ${2 + pagesAbove("indexes.hogIds")}. A HOG members page: 2 + the member chunks spanned, which the family's row names (no page). A pairs page: pair-directory row + pairs chunk + partner chunks, each with its pages. Sequence search: 8 (exact) or 64 (approximate) k-mer chunks, each with up to ${depthOf("sequenceIndex") - 1} page${depthOf("sequenceIndex") === 2 ? "" : "s"} of the k-mer index (depth ${depthOf("sequenceIndex")}).`,
  ];
  if (compile) {
    const perProtein = compile.seconds / compile.proteins;
    const perPair = compile.seconds / compile.pairRows;
    const byProteins = perProtein * TARGET.proteins;
    const byPairs = perPair * target.pair;
    lines.push(
      `- **Compile time on one machine** (this 2-core machine, the measured compile of ${fmt(compile.proteins)} proteins in ${compile.seconds.toFixed(0)} s, peak ${bytesText(compile.peakBytes)}): scaled by proteins, ${(byProteins / 3600).toFixed(1)} h; scaled by pair rows (which grow with genomes × proteins), ${(byPairs / 3600).toFixed(1)} h. Writing ${bytesText(totalBytes)} at ~200 MB/s adds ${(totalBytes / 200e6 / 3600).toFixed(1)} h of I/O.`,
    );
    // The similar profiles' work is Σ over genomes of (profiles holding it)² (derive/profiles.ts): with the families squared, over the genomes.
    const profiles = (TARGET.families / manifest.counts.families) ** 2 * (manifest.counts.genomes / TARGET.genomes);
    lines.push(...stageProjection(`${releaseDir}.log`, { proteins: TARGET.proteins / compile.proteins, pairs: target.pair / compile.pairRows, profiles }));
  }
  lines.push(
    "- **Splitting the compile across machines.** Per genome (independent, one task each): reading the proteome FASTA, GFF, GAF and cross-references; the sequence and peptide chunks of that genome's entry range (entry numbers are prefix sums of genome sizes, known after a first counting pass); each genome's k-mer postings and xref grams as sorted runs. Per family (independent, batches of families): parsing its orthoXML, HOG ids and levels, groups and fingerprints, relations and pair rows, GO by family, the family's genome profile. Merges: the pair rows are shuffled by genome pair (the ordered pair is the partition key: 6.25 M partitions, grouped into a few thousand reducers), relations by entry range, k-mer postings by k-mer code range, xref grams and the id index by key range (k-way merges of sorted runs), similar genome profiles by MinHash/LSH buckets instead of all-against-all (1 M families × 1 M is out of reach), and finally the directory pages, the header and the manifest, which only need every chunk's pack, offset, length and hash. Each reducer writes its own packs (named by the hash of their bytes) directly, so uploads can start as reducers finish; the pointer switch is still one write at the end.",
  );
  return lines.join("\n");
}

/** The task (release-compiler/tasks.ts) each stage line belongs to; the others are derive's. */
const TASK_OF_STAGE: Record<string, TaskName | "release"> = {
  // A log from before the relations were written in parts: counted as the task that puts them together.
  "write relations and pairs": "relations",
  [PUT_RELATIONS_TOGETHER]: "relations",
  "write group, family and pair directory tables": "family-tables",
  [ANNOTATION_TABLES_STAGE]: "annotation-tables",
  [PROTEIN_TABLES_STAGE]: "protein-tables",
  // A log from before the annotations and peptides were a task of their own: counted as the proteins'.
  "write protein, annotation and peptide tables": "protein-tables",
  // A log from before the row tables were two tasks: counted as the one after relations.
  "write protein, group, family and annotation tables": "family-tables",
  "write sequence index": "sequence-index",
  "write cross-reference search": "xref-search",
  [HOG_LISTS_STAGE]: "hog-lists",
  [INDEXES_STAGE]: "indexes",
  // A log from before the HOG lists were a task of their own: counted as the indexes.
  "write the other tables and indexes": "indexes",
  [HOG_INDEX_STAGE]: "hog-index",
  [SCORE_PROFILES_STAGE]: "profiles",
  [SIMILAR_PROFILES_STAGE]: "profiles",
  "put the release together": "release",
};

/** The task of a stage line: a part of the relations by its number, the others by TASK_OF_STAGE, else derive. */
const taskOfStage = (name: string): TaskName | "release" => {
  const part = PART_STAGE.exec(name);
  return part ? relationPart(Number(part[1])) : (TASK_OF_STAGE[name] ?? "derive");
};
const PART_STAGE = new RegExp(`^${relationsPartStage(0).replace("0", "(\\d+)")}$`);

/** What a stage's work grows with: the pair rows, the square of the families (over the genomes: the similar profiles), or the proteins. */
const growsWith = (name: string): keyof typeof GROWS_WITH =>
  ["pairwise relations", "write relations and pairs", PUT_RELATIONS_TOGETHER].includes(name) || PART_STAGE.test(name) ? "pairs" : name === SCORE_PROFILES_STAGE ? "profiles" : "proteins";
const GROWS_WITH = { pairs: "pair rows", profiles: "families² / genomes", proteins: "proteins" };
/**
 * The seconds the tasks take side by side on `cores`, started by the rule task-processes.ts
 * starts them by (tasksToStart). A task on every thread that starts with fewer threads free
 * than the cores is counted as running on those it holds (its threads share the others' cores).
 * With a machine's `memory`, a task also waits until its expected resident set over a derived
 * release of `scale` (tasks.ts, residentOf) fits in what the running tasks leave, as the
 * compile's own budget makes it wait; a task expected beyond the whole memory runs alone, and
 * is listed in `beyond`.
 */
function sideBySideSchedule(seconds: (name: TaskName, threads: number) => number, cores: number, machine?: { memory: number; scale: DerivedScale }): { seconds: number; beyond: TaskName[] } {
  const waiting = [...TASK_NAMES];
  const running: Array<{ name: TaskName; end: number; holds: number; memory: number }> = [];
  const finished = new Set<TaskName>();
  let now = 0;
  let free = cores;
  let memoryFree = machine?.memory ?? 0;
  while (waiting.length || running.length) {
    const allRunning = running.some(({ name }) => TASKS[name].threads === "all");
    const room = machine && { free: memoryFree, running: running.length > 0, scale: machine.scale };
    for (const { name, holds, memory } of tasksToStart(waiting, (need) => finished.has(need), free, cores, allRunning, room)) {
      free -= holds;
      memoryFree -= memory;
      running.push({ name, end: now + seconds(name, holds), holds, memory });
    }
    running.sort((a, b) => a.end - b.end);
    const next = running.shift()!;
    now = next.end;
    free += next.holds;
    memoryFree += next.memory;
    finished.add(next.name);
  }
  const beyond = machine ? TASK_NAMES.filter((name) => residentOf(name, machine.scale) > machine.memory) : [];
  return { seconds: now, beyond };
}

/** The jobs the measured compile had. */
const MEASURED_JOBS = 2;
const TARGET_CORES = 64;
/** The memory of the 64-core machines projected on: 1, 2 and 4 GiB a core, as cloud machines of 64 cores come. */
const TARGET_MEMORIES = [64 * 2 ** 30, 128 * 2 ** 30, 256 * 2 ** 30];

/**
 * The compile's stages (its own log, `--verbose`, beside the release) projected to the target:
 * each scaled by what it grows with. What the main thread did (its busy share, from the stage
 * line) stays on one thread; the rest of a stage ran on other threads (workers, the row
 * engine), at most MEASURED_JOBS of them, and is divided among the threads its task gets
 * (tasks.ts: every core, a few for a part of the relations, or one). The tasks are then laid
 * out as the compile lays them out: side by side on one 64-core machine as task-processes.ts
 * schedules them, and on a cluster as Snakemake does, each task a job of its own.
 */
function stageProjection(logFile: string, growth: { proteins: number; pairs: number; profiles: number }): string[] {
  if (!existsSync(logFile)) return [];
  const log = readFileSync(logFile, "utf8");
  const stages = compileStages(log).stages.map(({ name, seconds, mainBusy, cpuSeconds, peakMb }) => {
    const grows = growth[growsWith(name)];
    const scaled = seconds * grows;
    // Without a busy share (an older log), the stage counts as all main thread.
    const busy = mainBusy ?? 1;
    // On one core: the CPU time the stage took on all its threads, as its line gives it; from an
    // older log without it, the main thread's share and the rest as MEASURED_JOBS threads' worth.
    const oneCore = cpuSeconds !== undefined ? cpuSeconds * grows : scaled * (busy + (1 - busy) * MEASURED_JOBS);
    const mainThread = Math.min(scaled * busy, oneCore);
    const task = taskOfStage(name);
    const threads = task === "release" ? 1 : threadsOf(task, TARGET_CORES);
    const onThreads = (n: number) => Math.max(mainThread, oneCore / n);
    return { name, task, seconds, busy: mainBusy, cpuSeconds, oneCore, threads, onMany: onThreads(threads), onThreads, peakMb };
  });
  if (!stages.length) return [];
  const hours = (s: number) => (s / 3600).toFixed(1);
  const taskTime = new Map<string, number>();
  for (const st of stages) taskTime.set(st.task, (taskTime.get(st.task) ?? 0) + st.onMany);
  const time = (name: string) => taskTime.get(name) ?? 0;
  const release = time("release");
  const timeOn = (name: TaskName, threads: number) => stages.filter((st) => st.task === name).reduce((sum, st) => sum + st.onThreads(threads), 0);
  const machine = sideBySideSchedule(timeOn, TARGET_CORES).seconds + release;
  // The same with each machine's memory: the tasks' fits (tasks.ts, residentOf) over the derived
  // release grown with the proteins (it holds a row per protein), at the target's genomes.
  const derived = readDerivedLine(log);
  const scale: DerivedScale | undefined = derived && { bytes: derived.bytes * growth.proteins, genomes: TARGET.genomes };
  const withMemory = scale ? TARGET_MEMORIES.map((memory) => ({ memory, ...sideBySideSchedule(timeOn, TARGET_CORES, { memory, scale }) })) : [];
  // The relations parts are alike: named once.
  const largest = scale
    ? TASK_NAMES.filter((name) => name !== "derive" && (name === relationPart(1) || !name.startsWith("relations-")))
        .map((name) => [name === relationPart(1) ? `each relations part` : name, residentOf(name, scale)] as const)
        .sort((a, b) => b[1] - a[1])
    : [];
  // Derive holds the whole derived release: its measured peak grown with the proteins.
  const derivePeak = Math.max(0, ...stages.filter((st) => st.task === "derive").map((st) => st.peakMb ?? 0)) * 2 ** 20 * growth.proteins;
  const minutes = (s: number) => (s / 60).toFixed(0);
  const slowest = [...taskTime].filter(([name]) => name !== "release").sort((a, b) => b[1] - a[1]);
  // On a cluster, each task a Snakemake job on a machine of its own: a task starts once those it needs have finished.
  const finish = new Map<string, number>();
  for (const name of TASK_NAMES) finish.set(name, Math.max(0, ...TASKS[name].needs.map((need) => finish.get(need)!)) + time(name));
  const lastTask = [...finish].sort((a, b) => b[1] - a[1])[0][0] as TaskName;
  const path: TaskName[] = [lastTask];
  while (TASKS[path[0]].needs.length) path.unshift([...TASKS[path[0]].needs].sort((a, b) => finish.get(b)! - finish.get(a)!)[0]);
  const cluster = finish.get(lastTask)! + release;
  return [
    `- **On one ${TARGET_CORES}-core machine** (\`npm run compile -- --jobs ${TARGET_CORES}\`: the measured compile's own stage lines, each scaled by the pair rows, the proteins or (the similar profiles) the square of the families it grows with; its CPU time (all its threads) is divided among the threads of its task, but what the main thread did stays on one thread; the tasks side by side as the compile schedules them): ${hours(machine)} h, against a goal of 4 h. The longest tasks: ${slowest.slice(0, 4).map(([name, s]) => `${name} (${hours(s)} h)`).join(", ")}.`,
    ...(scale
      ? [
          `- **With the machine's memory** (the same schedule, each task also waiting until its expected resident set fits beside the running tasks', as \`--memory\` makes the compile wait; the fits of tasks.ts, \`residentOf\`, over the derived release of the measured compile, ${bytesText(derived!.bytes)}, grown with the proteins to ${bytesText(scale.bytes)}, at ${fmt(TARGET.genomes)} genomes): ${withMemory.map((m) => `${minutes(m.seconds + release)} min with ${bytesText(m.memory)}${m.beyond.length ? ` (${m.beyond.join(", ")} expected beyond it, run alone)` : ""}${derivePeak > m.memory ? " (derive expected beyond it: it would not finish)" : ""}`).join("; ")}, against ${minutes(machine)} min counting threads alone. The largest tasks expected: ${largest.slice(0, 4).map(([name, bytes]) => `${name} ${bytesText(bytes)}`).join(", ")}; derive, which runs alone, ${bytesText(derivePeak)} (its measured peak grown with the proteins: it holds the whole derived release).`,
        ]
      : [`- **With the machine's memory**: not projected (the compile's log, from before it named the derived release's size, gives no scale for the tasks' fits).`]),
    `- **On a cluster of ${TARGET_CORES}-core machines under Snakemake** (workflow/Snakefile: each of the compile's tasks a job with its threads, a task starting once those it needs have finished): ${hours(cluster)} h, the critical path ${path.map((t) => `${t} (${hours(time(t))} h)`).join(" → ")}. Each writing job reads the columns it uses from the derived release, within its stages' time (Compile as tasks). The relations and pairs are written in ${RELATION_PARTS} parts over runs of genomes (tasks relations-1 … relations-${RELATION_PARTS}), and derive reads each genome's files and derives the families' pairs on its worker threads; the other tasks are whole stages on one thread, so they are the next to split into partitions (genomes, key ranges), those on the critical path first.`,
    "",
    `| stage | task | measured | CPU | main thread busy | grows with | projected, one core | threads of its task on ${TARGET_CORES} cores | projected on them |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...stages.map(
      (st) =>
        `| ${st.name} | ${st.task} | ${st.seconds.toFixed(0)} s | ${st.cpuSeconds === undefined ? "–" : `${st.cpuSeconds.toFixed(0)} s`} | ${st.busy === undefined ? "–" : `${(100 * st.busy).toFixed(0)}%`} | ${GROWS_WITH[growsWith(st.name)]} | ${hours(st.oneCore)} h | ${st.threads} | ${hours(st.onMany)} h |`,
    ),
    "",
  ];
}
