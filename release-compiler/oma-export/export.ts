/**
 * A compiled release as OMA Browser bulk files (`../shared/reference/oma-file-formats.md`,
 * section A), the files a public OMA release is downloaded as, so the release can be mirrored
 * or read by the tools written for OMA's downloads:
 *
 * - `oma-species.txt`: `OMA code, OMA taxon id, NCBI taxon id, GTDB accession, scientific
 *   name, source, release` (the All.Jun2023 header, no column-name row; `n/a` where unknown);
 * - `oma-seqs.fa.gz`, `oma-cdna.fa.gz` (when the release has cDNA): `>{OMA id}`, 80 a line;
 * - `oma-groups.txt.gz`: `group number, fingerprint (or n/a), OMA ids…`;
 * - `oma-pairs.txt.gz`: every ortholog pair once (first entry < second), `OMA id 1, OMA id 2,
 *   type from the first protein's side (1:1, 1:n, m:1, m:n), group number when both are in the
 *   same group, else empty`;
 * - `oma-hogs.orthoXML.gz`: every HOG (gene `id` = entry number, `protId` = OMA id, HOG ids
 *   and TaxRange as the worker's `/api/downloads/hogs.orthoxml.gz` writes them);
 * - `oma-go.txt.gz`: `OMA id, GO term, evidence code, references`;
 * - `oma-uniprot.txt.gz` and one `oma-{source}.txt.gz` map per other cross-reference source
 *   family (ensembl, refseq, entrez, …): `OMA id, external id`; a map other than OMA's own
 *   (gene-name, pfam, …) first names its source: `# Format: OMA ID<tab>Gene Name ID`;
 * - `oma-protein-annotations.txt.gz`: `OMA id, original id, chromosome, location (exons),
 *   main isoform (self or its OMA id), description`;
 * - `speciestree.nwk`: the taxonomy, levels and species named.
 *
 * OMA ids are the release's orthids (code + 5-digit number within the genome); entry numbers,
 * group numbers and fingerprints, and HOG ids are the release's own. Every file is written
 * table shard by table shard: memory is that of a shard and of the open gzip streams.
 */
import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { once } from "node:events";
import { createGzip, type Gzip } from "node:zlib";
import {
  isOrthologType,
  REL_TYPES,
  type AnnotationRow,
  type GroupRow,
  type Manifest,
  type PairRow,
  type ProteinRow,
  type SequenceRow,
} from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { releaseOrthoXml } from "../../src/render/orthoxml.js";
import { orthid } from "../../src/render/protein.js";
import { openReleaseFolder } from "../local/folder-storage.js";

/** Rows read at once from a table (a few shards). */
const SLICE = 4096;
const FASTA_LINE = 80;

/** A text file written in order, gzipped when its name ends in `.gz`; `write` waits when the stream is full. */
class OutFile {
  private readonly file: WriteStream;
  private readonly sink: WriteStream | Gzip;
  constructor(path: string) {
    this.file = createWriteStream(path);
    if (path.endsWith(".gz")) {
      const gzip = createGzip({ level: 6 });
      gzip.pipe(this.file);
      this.sink = gzip;
    } else this.sink = this.file;
  }
  async write(text: string): Promise<void> {
    if (text && !this.sink.write(text)) await once(this.sink, "drain");
  }
  async close(): Promise<void> {
    const closed = once(this.file, "close");
    this.sink.end();
    await closed;
  }
}

async function writeFile(path: string, pieces: AsyncIterable<string>): Promise<void> {
  const out = new OutFile(path);
  try {
    for await (const piece of pieces) await out.write(piece);
  } finally {
    await out.close();
  }
}

/** Rows [0, count) of a table, SLICE at a time. */
async function* allRows<Row>(release: Release, table: Parameters<Release["rows"]>[0], count: number): AsyncIterable<Row> {
  for (let from = 0; from < count; from += SLICE) {
    for await (const row of await release.rows<Row>(table as never, from, Math.min(count, from + SLICE))) yield row;
  }
}

const omaId = (release: Release, entry: number) => orthid(release.genomeOfEntry(entry), entry);
const cell = (value: string | number) => String(value).replace(/[\t\r\n]+/g, " ");

/** OMA's own id maps (several sources each: SwissProt and TrEMBL, Ensembl's genes, transcripts and proteins, …). */
const OMA_ID_MAPS = new Set(["uniprot", "ensembl", "refseq", "entrez"]);

/** The OMA id map a cross-reference source goes to (`oma-{name}.txt.gz`), undefined for none. */
export function idMapOf(source: string): string | undefined {
  const s = source.toLowerCase();
  if (s.startsWith("uniprot") || s === "swissprot" || s === "trembl") return "uniprot";
  if (s.startsWith("ensembl")) return "ensembl";
  if (s.startsWith("refseq")) return "refseq";
  if (s.startsWith("entrez") || s === "geneid" || s === "ncbi gene") return "entrez";
  if (s === "description" || s === "sourceid" || s === "sourceac") return undefined;
  const name = s.replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
  return name || undefined;
}

export interface OmaExportResult {
  files: string[];
}

/** Writes the OMA bulk files of the release in `releaseDir` into `outDir` (created if missing). */
export async function exportOmaFiles(releaseDir: string, outDir: string): Promise<OmaExportResult> {
  const release = await openReleaseFolder(releaseDir);
  const { manifest } = release;
  const { tables, counts, genomes, taxonomy } = manifest;
  mkdirSync(outDir, { recursive: true });
  const files: string[] = [];
  const path = (name: string) => {
    files.push(name);
    return join(outDir, name);
  };

  // Genomes.
  await writeFile(
    path("oma-species.txt"),
    (async function* () {
      yield "# Mapping of OMA species codes to NCBI taxon IDs and scientific names.\n";
      yield "# Format: OMA code<tab>OMA Taxon ID<tab>NCBI Taxon ID<tab>GTDB genome accession<tab>Scientific name<tab>Genome source<tab>Version/Release\n";
      for (const g of [...genomes].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
        yield `${[g.code, g.taxonId, g.taxonId > 0 ? g.taxonId : "n/a", "n/a", cell(g.species), "n/a", cell(manifest.name)].join("\t")}\n`;
      }
    })(),
  );

  // Sequences (proteins, and cDNA when the release has it), in entry order.
  const hasCdna = counts.proteins > 0 && (await release.row<SequenceRow>(tables.sequences, 0)).cdna !== "";
  const fasta = (header: string, sequence: string) => {
    let out = `>${header}\n`;
    for (let i = 0; i < sequence.length; i += FASTA_LINE) out += `${sequence.slice(i, i + FASTA_LINE)}\n`;
    return out;
  };
  const seqs = new OutFile(path("oma-seqs.fa.gz"));
  const cdna = hasCdna ? new OutFile(path("oma-cdna.fa.gz")) : undefined;
  let entry = 0;
  for await (const row of allRows<SequenceRow>(release, tables.sequences, counts.proteins)) {
    entry++;
    const id = omaId(release, entry);
    await seqs.write(fasta(id, row.sequence));
    if (cdna && row.cdna) await cdna.write(fasta(id, row.cdna));
  }
  await seqs.close();
  await cdna?.close();

  // OMA groups.
  await writeFile(
    path("oma-groups.txt.gz"),
    (async function* () {
      let covered = 0;
      for await (const g of allRows<GroupRow>(release, tables.groups, counts.groups)) covered += g.members.length;
      yield `# Orthologous groups from OMA release of ${manifest.name}\n`;
      yield `# This release has ${counts.groups} groups covering ${covered} proteins from ${counts.genomes} species\n`;
      yield "# Format: group number<tab>Fingerprint<tab>tab-separated list of OMA Entry IDs\n";
      for await (const g of allRows<GroupRow>(release, tables.groups, counts.groups)) {
        yield `${[g.nr, g.fingerprint || "n/a", ...g.members.map((m) => omaId(release, m.entry))].join("\t")}\n`;
      }
    })(),
  );

  // Pairwise orthologs, each pair once; the group column needs each entry's group (proteins table).
  const groupOf = new Uint32Array(counts.proteins + 1);
  const annotations = new OutFile(path("oma-protein-annotations.txt.gz"));
  await annotations.write(
    "# Dump of protein annotations (taken from original genome source, except for\n" +
      '# "MainIsoform", which is the splicing form that has the most homologous matches).\n' +
      "#   Note: MainIsoform=='self' indicates that this protein is OMA's main isoform,\n" +
      "#         otherwise it is an OMA ID of the main isoform.\n" +
      "# Format: OMA ID\tOriginal ID\tChromosome/Scaffold\tLocation\tMainIsoform\tDescription\n",
  );
  const isMain = new Uint8Array(counts.proteins + 1);
  const proteinRows: ProteinRow[] = [];
  for await (const p of allRows<ProteinRow>(release, tables.proteins, counts.proteins)) {
    groupOf[p.entry] = p.group;
    isMain[p.entry] = p.isMain ? 1 : 0;
    proteinRows.push(p);
    // A gene's main isoform may come after its other isoforms, within its genome: written genome by genome.
    const genome = release.genomeOfEntry(p.entry);
    if (genome.firstEntry + genome.nrEntries - 1 === p.entry) {
      await annotations.write(annotationLines(release, proteinRows, isMain));
      proteinRows.length = 0;
    }
  }
  await annotations.write(annotationLines(release, proteinRows, isMain));
  await annotations.close();

  await writeFile(
    path("oma-pairs.txt.gz"),
    (async function* () {
      yield "# Format: Protein 1<tab>Protein 2<tab>Orthology type<tab>OMA group (if any)\n";
      yield "# Every pair is listed only once, and in no particular order.\n";
      let out = "";
      for await (const [a, b, type] of allRows<PairRow>(release, tables.pairs, tables.pairs.rows)) {
        if (a >= b || !isOrthologType(type)) continue;
        const group = groupOf[a] && groupOf[a] === groupOf[b] ? String(groupOf[a]) : "";
        out += `${omaId(release, a)}\t${omaId(release, b)}\t${REL_TYPES[type]}\t${group}\n`;
        if (out.length > 1 << 16) {
          yield out;
          out = "";
        }
      }
      yield out;
    })(),
  );

  // HOGs.
  await writeFile(path("oma-hogs.orthoXML.gz"), releaseOrthoXml(release));

  // GO annotations and id maps, from the annotations table.
  const go = new OutFile(path("oma-go.txt.gz"));
  await go.write(`# Mapping of OMA IDs to Gene Ontology (GO) annotations for OMA release ${manifest.name}\n`);
  await go.write("# Format: OMA ID<tab>GO term<tab>Evidence code<tab>Reference codes (comma-separated)\n");
  const maps = new Map<string, OutFile>();
  entry = 0;
  for await (const a of allRows<AnnotationRow>(release, tables.annotations, counts.proteins)) {
    entry++;
    const id = omaId(release, entry);
    for (const [term, evidence, reference] of a.go) await go.write(`${id}\t${term}\t${evidence}\t${cell(reference)}\n`);
    for (const [source, xref] of a.xrefs) {
      const map = idMapOf(source);
      if (!map) continue;
      let out = maps.get(map);
      if (!out) {
        out = new OutFile(path(`oma-${map}.txt.gz`));
        maps.set(map, out);
        // A map of OMA's own merges sources and is known by its name; any other is named by
        // this line (the source of its first id: one whose name only differs in case or
        // punctuation shares the file), so a mirror keeps the source's name, `Gene Name` not `gene-name`.
        if (!OMA_ID_MAPS.has(map)) await out.write(`# Format: OMA ID<tab>${cell(source)} ID\n`);
      }
      await out.write(`${id}\t${cell(xref)}\n`);
    }
  }
  await go.close();
  for (const out of maps.values()) await out.close();

  // The species tree.
  await writeFile(
    path("speciestree.nwk"),
    (async function* () {
      yield `${newick(taxonomy, genomes.map((g) => g.code))};\n`;
    })(),
  );
  return { files };
}

function annotationLines(release: Release, rows: ProteinRow[], isMain: Uint8Array): string {
  let out = "";
  for (const p of rows) {
    const main = p.isMain ? "self" : omaId(release, p.isoforms.find((e) => isMain[e]) ?? p.entry);
    const location = p.exons.length ? p.exons.map(([s, e]) => (p.locus[2] < 0 ? `complement(${s}..${e})` : `${s}..${e}`)).join(",") : p.locus[0] ? `${p.locus[0]}..${p.locus[1]}` : "";
    out += `${[omaId(release, p.entry), cell(p.canonicalId), cell(p.chromosome), location, main, cell(p.description)].join("\t")}\n`;
  }
  return out;
}

/** Newick of the taxonomy: internal levels by name, species leaves by genome code. */
function newick(taxonomy: Manifest["taxonomy"], codes: string[]): string {
  const kids: number[][] = taxonomy.names.map(() => []);
  let root = 0;
  taxonomy.parents.forEach((p, i) => (p >= 0 ? kids[p].push(i) : (root = i)));
  const label = (name: string) => (/^[A-Za-z0-9_.\-]+$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);
  const write = (level: number): string => {
    const name = taxonomy.genomes[level] >= 0 ? codes[taxonomy.genomes[level]] : taxonomy.names[level];
    return kids[level].length ? `(${kids[level].map(write).join(",")})${label(name)}` : label(name);
  };
  return write(root);
}
