/**
 * Pair-row figures of a release, for sizing the pairs tables:
 *
 *   tsx release-compiler/simulate/pair-stats.ts DIR
 *
 * DIR is either a simulated input folder (its truth/: orthologs.tsv, paralogs.tsv,
 * homoeologs.tsv, summary.json) or a compiled release (manifest.json: the `pairs` table and
 * the `pairDirectory` rows). Prints one JSON object: genomes, proteins, main isoforms, ortholog
 * pairs and same-genome pairs (paralogs and homoeologs), the directed pair rows a release stores
 * for them (each relation in both directions, as the compiler's `pairs` table), rows per protein,
 * and the distribution of ortholog rows over ordered genome pairs (mean, median, p90, max, share
 * of genome pairs without any); the relations of a protein in a family (its row in the
 * `relations` table: orthologs, paralogs, homoeologs) and the members of a family (root HOG),
 * each as mean, median, p90, p99, max and the share the largest 1% hold.
 *
 * A simulated release's paralogs are all same-genome pairs whose common ancestor is a
 * duplication; a compiled release stores only close paralogs (a duplication after the genome's
 * last speciation), so its same-genome rows are at most those.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { openReleaseFolder } from "../local/folder-storage.js";

export interface PairStats {
  source: "simulation truth" | "compiled release";
  genomes: number;
  /** FASTA records (main and alternative isoforms). */
  proteins: number;
  /** Genes: pairs are between main isoforms. */
  mainIsoforms: number;
  orthologPairs: number;
  /** Same-genome pairs: paralogs and homoeologs (simulation: all paralogs; compiled: close paralogs). */
  sameGenomePairs: number;
  /** Directed rows: 2 × (orthologs + same-genome pairs). */
  pairRows: number;
  pairRowsPerProtein: number;
  orthologRowsPerProtein: number;
  /** Ortholog rows per protein over the other genomes: the share of genomes a protein's orthologs reach, on average. */
  orthologRowsPerProteinPerOtherGenome: number;
  /** Ortholog rows of an ordered genome pair (g1 ≠ g2), over all G·(G−1) ordered pairs. */
  perGenomePair: { mean: number; median: number; p90: number; max: number; empty: number; meanOverGenesPerGenome: number };
  /** Relations of a main isoform in a family: orthologs, paralogs (simulation: all; compiled: close ones), homoeologs. */
  relationsPerProtein: Quantiles;
  /** Genes of a family (root HOG). */
  familyMembers: Quantiles & { families: number };
}

interface Quantiles {
  mean: number;
  median: number;
  p90: number;
  p99: number;
  max: number;
  /** Share of the sum held by the largest 1% of the values. */
  top1PercentShare: number;
}

function quantiles(values: ArrayLike<number>): Quantiles {
  const sorted = Float64Array.from(values).sort();
  const n = sorted.length;
  const at = (q: number): number => (n > 0 ? sorted[Math.min(n - 1, Math.floor(n * q))] : 0);
  let sum = 0;
  let top = 0;
  sorted.forEach((v, i) => {
    sum += v;
    if (i >= n - Math.ceil(n / 100)) top += v;
  });
  return {
    mean: round(n > 0 ? sum / n : 0),
    median: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    max: n > 0 ? sorted[n - 1] : 0,
    top1PercentShare: round(sum > 0 ? top / sum : 0, 3),
  };
}

function distribution(counts: ArrayLike<number>, genesPerGenome: number): PairStats["perGenomePair"] {
  const sorted = Float64Array.from(counts).sort();
  const n = sorted.length;
  let sum = 0;
  let empty = 0;
  for (const c of sorted) {
    sum += c;
    if (c === 0) empty++;
  }
  const mean = n > 0 ? sum / n : 0;
  return {
    mean: round(mean),
    median: n > 0 ? sorted[Math.floor(n / 2)] : 0,
    p90: n > 0 ? sorted[Math.floor(n * 0.9)] : 0,
    max: n > 0 ? sorted[n - 1] : 0,
    empty: round(n > 0 ? empty / n : 0, 4),
    meanOverGenesPerGenome: round(genesPerGenome > 0 ? mean / genesPerGenome : 0, 4),
  };
}

function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

function summarize(
  source: PairStats["source"],
  genomes: number,
  proteins: number,
  mainIsoforms: number,
  orthologPairs: number,
  sameGenomePairs: number,
  orderedPairCounts: ArrayLike<number>,
): Omit<PairStats, "relationsPerProtein" | "familyMembers"> {
  const pairRows = 2 * (orthologPairs + sameGenomePairs);
  return {
    source,
    genomes,
    proteins,
    mainIsoforms,
    orthologPairs,
    sameGenomePairs,
    pairRows,
    pairRowsPerProtein: round(pairRows / proteins),
    orthologRowsPerProtein: round((2 * orthologPairs) / proteins),
    orthologRowsPerProteinPerOtherGenome: round((2 * orthologPairs) / proteins / Math.max(1, genomes - 1), 4),
    perGenomePair: distribution(orderedPairCounts, mainIsoforms / genomes),
  };
}

/** Calls `line(bytes, start, end)` for every line of a file after its header, reading 4 MiB at a time. */
function forEachLine(path: string, line: (bytes: Buffer, start: number, end: number) => void): void {
  const fd = openSync(path, "r");
  let buffer = Buffer.allocUnsafe(1 << 22);
  let kept = 0;
  let header = true;
  try {
    for (;;) {
      const read = readSync(fd, buffer, kept, buffer.length - kept, null);
      const end = kept + read;
      let start = 0;
      for (let i = buffer.indexOf(10, start); i >= 0 && i < end; i = buffer.indexOf(10, start)) {
        if (!header) line(buffer, start, i);
        header = false;
        start = i + 1;
      }
      kept = end - start;
      if (read === 0) {
        if (kept > 0 && !header) line(buffer, start, end);
        break;
      }
      if (start === 0 && kept === buffer.length) {
        const bigger = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(bigger, 0, 0, kept);
        buffer = bigger;
      } else buffer.copy(buffer, 0, start, end);
    }
  } finally {
    closeSync(fd);
  }
}

/** Figures from a simulated folder's truth/ (protein ids `SIM<CODE>P<n>` name their genome). */
export function truthPairStats(dir: string): PairStats {
  const summary = JSON.parse(readFileSync(join(dir, "truth", "summary.json"), "utf8"));
  const codes = readFileSync(join(dir, "species_info.tsv"), "latin1")
    .split("\n")
    .slice(1)
    .filter((l) => l)
    .map((l) => l.split("\t")[0]);
  const genomes = codes.length;
  // Genome of an id `SIM<CODE>P<number>` from its 5 code bytes, packed in a number.
  const key = (b: Buffer, at: number): number => (((b[at] * 64 + b[at + 1]) * 64 + b[at + 2]) * 64 + b[at + 3]) * 64 + b[at + 4];
  const genomeOf = new Map<number, number>();
  codes.forEach((code, g) => genomeOf.set(key(Buffer.from(code, "latin1"), 0), g));
  const number = (b: Buffer, at: number, end: number): number => {
    let n = 0;
    for (let i = at; i < end; i++) n = n * 10 + b[i] - 48;
    return n;
  };

  // Families and the largest protein number of each genome, from hogs.tsv (one line a gene in a family).
  const largest = new Float64Array(genomes);
  const members = new Map<string, number>();
  forEachLine(join(dir, "truth", "hogs.tsv"), (b, start) => {
    const tab = b.indexOf(9, start);
    const g = genomeOf.get(key(b, start + 3))!;
    largest[g] = Math.max(largest[g], number(b, start + 9, tab));
    const family = b.toString("latin1", tab + 1, b.indexOf(9, tab + 1));
    members.set(family, (members.get(family) ?? 0) + 1);
  });
  const offset = new Float64Array(genomes + 1);
  for (let g = 0; g < genomes; g++) offset[g + 1] = offset[g] + largest[g];
  const relations = new Uint32Array(offset[genomes]);
  const protein = (b: Buffer, at: number, end: number): number => {
    const g = genomeOf.get(key(b, at + 3))!;
    return offset[g] + number(b, at + 9, end) - 1;
  };

  const counts = new Float64Array(genomes * genomes);
  let orthologs = 0;
  forEachLine(join(dir, "truth", "orthologs.tsv"), (b, start) => {
    const tab = b.indexOf(9, start);
    const tab2 = b.indexOf(9, tab + 1);
    const g1 = genomeOf.get(key(b, start + 3))!;
    const g2 = genomeOf.get(key(b, tab + 4))!;
    counts[g1 * genomes + g2]++;
    counts[g2 * genomes + g1]++;
    relations[protein(b, start, tab)]++;
    relations[protein(b, tab + 1, tab2)]++;
    orthologs++;
  });
  let sameGenome = 0;
  for (const file of ["paralogs.tsv", "homoeologs.tsv"]) {
    forEachLine(join(dir, "truth", file), (b, start, end) => {
      const tab = b.indexOf(9, start);
      relations[protein(b, start, tab)]++;
      relations[protein(b, tab + 1, end)]++;
      sameGenome++;
    });
  }
  const offDiagonal: number[] = [];
  for (let a = 0; a < genomes; a++) for (let b = 0; b < genomes; b++) if (a !== b) offDiagonal.push(counts[a * genomes + b]);
  // Relations of the proteins in families (genes in hogs.tsv); alternative isoforms have none.
  const inFamilies: number[] = [];
  forEachLine(join(dir, "truth", "hogs.tsv"), (b, start) => {
    inFamilies.push(relations[protein(b, start, b.indexOf(9, start))]);
  });
  return {
    ...summarize("simulation truth", genomes, summary.proteins, summary.mainIsoforms, orthologs, sameGenome, offDiagonal),
    relationsPerProtein: quantiles(inFamilies),
    familyMembers: { families: members.size, ...quantiles([...members.values()]) },
  };
}

/**
 * Figures from a compiled release, read as the worker reads it (openReleaseFolder: the manifest,
 * its header, then chunks of the tables): the pair directory's rows (first pairs row, count, …)
 * per ordered genome pair, the `relations` row of each family member, the `families` rows'
 * members.
 */
export async function releasePairStats(dir: string): Promise<PairStats> {
  const release = await openReleaseFolder(dir);
  const { genomes, tables } = release.manifest;
  const g = genomes.length;
  if (tables.pairDirectory.rows !== g * g) throw new Error(`pairDirectory has ${tables.pairDirectory.rows} rows, expected ${g}²`);
  const offDiagonal: number[] = [];
  let directedOrthologs = 0;
  let directedSame = 0;
  let i = 0;
  for await (const row of await release.rows(tables.pairDirectory, 0, tables.pairDirectory.rows)) {
    if (Math.floor(i / g) === i % g) directedSame += row[1];
    else {
      offDiagonal.push(row[1]);
      directedOrthologs += row[1];
    }
    i++;
  }
  // Relations per entry (row = entry number - 1), kept as counts only.
  const relationCounts = new Uint32Array(tables.relations.rows);
  let entry = 0;
  for await (const row of await release.rows(tables.relations, 0, tables.relations.rows)) relationCounts[entry++] = row.length;
  const relationsPerProtein: number[] = [];
  const familyMembers: number[] = [];
  for await (const family of await release.rows(tables.families, 0, tables.families.rows)) {
    familyMembers.push(family.entries.length);
    for (const e of family.entries) relationsPerProtein.push(relationCounts[e - 1]);
  }
  const proteins = genomes.reduce((s, x) => s + x.nrEntries, 0);
  const mainIsoforms = genomes.reduce((s, x) => s + x.nrGenes, 0);
  return {
    ...summarize("compiled release", g, proteins, mainIsoforms, directedOrthologs / 2, directedSame / 2, offDiagonal),
    relationsPerProtein: quantiles(relationsPerProtein),
    familyMembers: { families: familyMembers.length, ...quantiles(familyMembers) },
  };
}

const isRelease = (dir: string): boolean => existsSync(join(dir, "manifest.json"));
const isSimulation = (dir: string): boolean => existsSync(join(dir, "truth", "summary.json"));

/**
 * Figures of a simulated folder, synchronously (its truth/ files). A compiled release is read
 * asynchronously, as the worker reads it: `releasePairStats`, or `folderPairStats` for either.
 */
export function pairStats(dir: string): PairStats {
  if (isSimulation(dir)) return truthPairStats(dir);
  if (isRelease(dir)) throw new Error(`${dir}: a compiled release; read it with releasePairStats (or folderPairStats)`);
  throw new Error(`${dir}: neither a compiled release (manifest.json) nor a simulated folder (truth/summary.json)`);
}

/** Figures of a compiled release (manifest.json) or of a simulated folder (truth/summary.json). */
export async function folderPairStats(dir: string): Promise<PairStats> {
  if (isRelease(dir)) return releasePairStats(dir);
  return pairStats(dir);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write("usage: tsx release-compiler/simulate/pair-stats.ts DIR (a simulated folder or a compiled release)\n");
    process.exitCode = 2;
  } else {
    folderPairStats(resolve(dir))
      .then((stats) => process.stdout.write(`${JSON.stringify(stats, null, 2)}\n`))
      .catch((error) => {
        process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
        process.exitCode = 1;
      });
  }
}
