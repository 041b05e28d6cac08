/**
 * Scale on paper: per-unit sizes measured on a compiled release, projected to a large public
 * release (2,500 genomes, 20 million proteins, 1 million HOG families, 3 million genome pairs).
 * Every projected figure is a measured per-unit size times a target count; the assumptions
 * that are not measured are stated beside the table.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Manifest } from "../release-format/format.js";

export const TARGET = { genomes: 2_500, proteins: 20_000_000, families: 1_000_000, genomePairs: 3_000_000 };
/** Shard hashes per directory page once shard lists leave the manifest (16-byte hashes: 64 kB pages). */
const DIRECTORY_PAGE = 4096;

interface Part {
  name: string;
  /** What the part's bytes grow with. */
  unit: keyof typeof UNITS;
  /** What its row count (so its shard count) grows with, when not the same: relations are a row per protein. */
  rowUnit?: keyof typeof UNITS;
  hashes: string[];
}

const UNITS = {
  protein: "protein",
  pair: "pair row",
  family: "HOG family",
  hog: "HOG id",
  genomePair: "genome pair",
  genome: "genome",
} as const;

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const bytesText = (n: number) =>
  n >= 2 ** 40 ? `${(n / 2 ** 40).toFixed(1)} TiB` : n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : `${(n / 1024).toFixed(0)} kiB`;

/**
 * The markdown section. `compile` is the measured compile of the largest simulated release
 * (proteins, pair rows, seconds), from the compile benchmark, for the time projection.
 */
export function scaleProjection(releaseDir: string, compile?: { proteins: number; pairRows: number; seconds: number; peakBytes: number }): string {
  const manifest = JSON.parse(readFileSync(resolve(releaseDir, "manifest.json"), "utf8")) as Manifest;
  const size = (hash: string) => statSync(resolve(releaseDir, "blobs", `${hash}.msgpack`)).size;
  const t = manifest.tables;
  const pairRows = t.pairs.rows;
  const measured: Record<keyof typeof UNITS, number> = {
    protein: manifest.counts.proteins,
    pair: pairRows,
    family: manifest.counts.families,
    hog: manifest.counts.hogs,
    genomePair: manifest.counts.genomes ** 2,
    genome: manifest.counts.genomes,
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
  };
  const table = (name: string, ref: { shards: string[] }, unit: keyof typeof UNITS, rowUnit?: keyof typeof UNITS): Part => ({ name, unit, rowUnit, hashes: ref.shards });
  const leaves = (name: string, ref: { leaves: Array<[string, string]> }, unit: keyof typeof UNITS): Part => ({ name, unit, hashes: ref.leaves.map(([, h]) => h) });
  const parts: Part[] = [
    table("proteins", t.proteins, "protein"),
    table("sequences (protein + cDNA)", t.sequences, "protein"),
    table("peptides", t.peptides, "protein"),
    table("annotations", t.annotations, "protein"),
    table("relations (per protein)", t.relations, "pair", "protein"),
    table("pairs (per genome pair)", t.pairs, "pair"),
    table("pair directory", t.pairDirectory, "genomePair"),
    table("groups", t.groups, "protein"),
    // A family row holds its members and HOG nodes: it grows with proteins, its count with families.
    table("families", t.families, "protein", "family"),
    table("profiles", t.profiles, "family"),
    table("family GO", t.familyGo, "family"),
    table("HOG lists", t.hogList, "hog"),
    leaves("id index", manifest.indexes.entryIds, "protein"),
    leaves("HOG id index", manifest.indexes.hogIds, "hog"),
    leaves("fingerprint index", manifest.indexes.fingerprints, "protein"),
    { name: "k-mer index", unit: "protein", hashes: manifest.sequenceIndex.shards.map(([, h]) => h) },
    { name: "xref search", unit: "protein", hashes: [...manifest.xrefSearch.rows.shards, ...manifest.xrefSearch.grams.leaves.map(([, h]) => h)] },
    { name: "genome details", unit: "genome", hashes: manifest.genomes.map((g) => g.detail) },
  ];

  const rows: string[] = [];
  let totalBytes = 0;
  let totalBlobs = 0;
  let measuredBytes = 0;
  for (const part of parts) {
    const bytes = part.hashes.reduce((sum, h) => sum + size(h), 0);
    measuredBytes += bytes;
    const perUnit = bytes / Math.max(1, measured[part.unit]);
    const projectedBytes = perUnit * target[part.unit];
    // Shards hold a fixed number of rows (or bytes), so their count grows with the rows.
    const rowUnit = part.rowUnit ?? part.unit;
    const blobs = Math.ceil((part.hashes.length / Math.max(1, measured[rowUnit])) * target[rowUnit]);
    totalBytes += projectedBytes;
    totalBlobs += blobs;
    rows.push(`| ${part.name} | ${UNITS[part.unit]} | ${fmt(perUnit, 1)} B | ${bytesText(bytes)} in ${fmt(part.hashes.length)} | ${bytesText(projectedBytes)} | ${fmt(blobs)} | ${bytesText(projectedBytes / Math.max(1, blobs))} |`);
  }
  // Shard lists at 16 bytes a hash: in the manifest now; directory pages beyond the budget.
  const shardListBytes = totalBlobs * 16;
  const relationsBytes = t.relations.shards.reduce((sum, h) => sum + size(h), 0);
  const directoryPages = Math.ceil(totalBlobs / DIRECTORY_PAGE);

  const lines = [
    `Measured on \`${manifest.name}\`: ${fmt(manifest.counts.genomes)} genomes, ${fmt(manifest.counts.proteins)} proteins, ${fmt(manifest.counts.families)} HOG families (${fmt(manifest.counts.hogs)} HOG ids), ${fmt(pairRows)} directed pair rows (${pairDensity.toFixed(2)} per protein and other genome), ${bytesText(measuredBytes)} in all.`,
    `Target: ${fmt(TARGET.genomes)} genomes, ${fmt(TARGET.proteins)} proteins, ${fmt(TARGET.families)} HOG families, ${fmt(TARGET.genomePairs)} genome pairs (unordered; ${fmt(TARGET.genomes ** 2)} ordered pair-directory rows).`,
    "",
    "| part | grows with | bytes per unit (measured) | measured | projected bytes | projected blobs | mean blob |",
    "|---|---|---|---|---|---|---|",
    ...rows,
    `| **total** | | | ${bytesText(measuredBytes)} | **${bytesText(totalBytes)}** | **${fmt(totalBlobs)}** | ${bytesText(totalBytes / totalBlobs)} |`,
    "",
    `- **Pairs dominate.** ${fmt(target.pair / 1e9, 1)} billion directed pair rows, each stored twice (by genome pair for \`/pairs/\`, by protein for \`/orthologs/\`). Projecting the measured density of ${pairDensity.toFixed(2)} rows per protein and other genome is an upper bound: over 2,500 genomes families are narrower than in a 100-genome simulation, and a protein has orthologs in a smaller share of the other genomes.`,
    `- **Relations by protein** keep ${t.relations.rowsPerShard} proteins a shard: at ${fmt(target.pair / TARGET.proteins)} relations a protein a shard grows to ${bytesText((target.pair / TARGET.proteins) * t.relations.rowsPerShard * (relationsBytes / Math.max(1, pairRows)))}, too much for one \`/orthologs/\` answer to read. At this scale the compiler must cut relation shards by bytes (~64 kB, a few proteins each, a row directory per shard), as the k-mer index already does.`,
    `- **Index depth.** Today every shard list is in the manifest; at this size the lists are ${bytesText(shardListBytes)} (16 bytes a hash), far over a manifest budget of ~1 MB. They move into directory pages of ${fmt(DIRECTORY_PAGE)} hashes (64 kB; ${fmt(directoryPages)} pages), named in the manifest: manifest → directory page → shard, depth 3 instead of 2. Key indexes do the same with their leaf lists (first keys + hashes), a B-tree of depth 3 at ${fmt(TARGET.proteins * 3)} ids (4,096 keys a leaf, 4,096 leaves a page).`,
    `- **Worst-case blob reads per request, cold, manifest excluded:** each table a request touches costs one more read (its directory page), which every later request on those ${fmt(DIRECTORY_PAGE)} shards shares, so the isolate cache keeps them hot: ${fmt(directoryPages)} pages × 64 kB is ${bytesText(directoryPages * 65536)} in all, and a busy isolate holds the few hundred it uses. A protein record: 2 shards + 2 pages = 4 (2 warm). A protein by xref: index page + leaf + 2 shards + 2 pages = 6. A HOG members page: 2 + shards spanned + pages. A pairs page: pair-directory row + pairs shard + partner shards, each with its page. Sequence search: 8 (exact) or 64 (approximate) k-mer shards, at most ~${fmt(Math.ceil(Math.min(manifest.sequenceIndex.shards.length / Math.max(1, manifest.counts.proteins) * TARGET.proteins, 1e9) / DIRECTORY_PAGE))} directory pages of the k-mer index.`,
  ];
  if (compile) {
    const perProtein = compile.seconds / compile.proteins;
    const perPair = compile.seconds / compile.pairRows;
    const byProteins = perProtein * TARGET.proteins;
    const byPairs = perPair * target.pair;
    lines.push(
      `- **Compile time on one machine** (this 2-core machine, the measured compile of ${fmt(compile.proteins)} proteins in ${compile.seconds.toFixed(0)} s, peak ${bytesText(compile.peakBytes)}): scaled by proteins, ${(byProteins / 3600).toFixed(1)} h; scaled by pair rows (which grow with genomes × proteins), ${(byPairs / 3600).toFixed(1)} h. The second is the honest figure: the pair and relation shuffles dominate at 2,500 genomes. Writing ${bytesText(totalBytes)} at ~200 MB/s adds ${(totalBytes / 200e6 / 3600).toFixed(1)} h of I/O.`,
    );
  }
  lines.push(
    "- **Splitting the compile across machines.** Per genome (independent, one task each): reading the proteome FASTA, GFF, GAF and cross-references; the sequence and peptide shards of that genome's entry range (entry numbers are prefix sums of genome sizes, known after a first counting pass); each genome's k-mer postings and xref grams as sorted runs. Per family (independent, batches of families): parsing its orthoXML, HOG ids and levels, groups and fingerprints, relations and pair rows, GO by family, the family's genome profile. Merges: the pair rows are shuffled by genome pair (the ordered pair is the partition key: 6.25 M partitions, grouped into a few thousand reducers), relations by entry range, k-mer postings by k-mer code range, xref grams and the id index by key range (k-way merges of sorted runs), similar genome profiles by MinHash/LSH buckets instead of all-against-all (1 M families × 1 M is out of reach), and finally the directory pages and the manifest, which only need every shard's hash. Each reducer writes content-hashed blobs directly, so uploads can start as reducers finish; the pointer switch is still one write at the end.",
  );
  return lines.join("\n");
}
