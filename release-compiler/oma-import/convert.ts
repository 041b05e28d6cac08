/**
 * An OMA release's bulk files (`../shared/reference/oma-file-formats.md`, section A; what
 * release-compiler/oma-export/ writes) as the compiler's ordinary inputs, so a mirror keeps
 * OMA's own identifiers:
 *
 * - entry numbers and OMA ids: `oma-seqs.fa` gives the genomes in the order of their entries
 *   (each genome's ids numbered 1, 2, … without gaps: the OMA id `HUMAN00042` is the 42nd
 *   protein of HUMAN), so the mirror numbers every protein as the release did;
 * - the original ids (`oma-protein-annotations.txt`, column 2) are the proteins' ids, with the
 *   description (column 6); without that file, the OMA id is the protein's id;
 * - group numbers and fingerprints: `oma-groups.txt` must list the groups 1, 2, … in order,
 *   and its fingerprints are kept (`n/a` too) rather than computed again (`fingerprints`);
 * - HOG ids: `oma-hogs.orthoXML` (genes' `protId` the OMA ids) is rewritten with the protein ids;
 * - `oma-pairs.txt`: the ortholog pairs and their types; `oma-{source}.txt` id maps: cross-references
 *   (source: OMA's own maps' usual names, else the map's `# Format: OMA ID<tab>{source} ID` line, else `{source}`);
 * - `oma-species.txt` (code, taxon id, scientific name) and `speciestree.nwk` (leaves: codes);
 * - isoforms: a protein whose MainIsoform (`oma-protein-annotations.txt`, column 5) is another
 *   protein's OMA id is an isoform of that protein's gene.
 *
 * Every file may be gzipped (`NAME` or `NAME.gz`); comment lines (`#`) and a column-name row
 * are skipped. Files are read line by line; what is held is one string per protein (its id).
 * - loci: the chromosome and location (`12..40,51..80`, `complement(…)` on the minus strand,
 *   also inside `join(…)`) of `oma-protein-annotations.txt` as a GFF3 gene and its CDSs; the
 *   gene spans its exons.
 * - `oma-go.txt`: GO annotations, with the config's `go_ontology` (it gives each term's aspect,
 *   which the file does not); without one, they are left out with a warning.
 * Not carried: subgenomes (OMA's files name none).
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, type WriteStream } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, readLineBatches } from "../readers/lines.js";
import { readObo } from "../readers/obo.js";

/** What the compiler reads instead of the OMA files. */
export interface OmaInputs {
  speciesInfo: string;
  speciesTree: string;
  proteomes: string;
  cdna?: string;
  /** Splice files from the main isoforms of `oma-protein-annotations.txt` (column 5), when a protein names another. */
  isoforms?: string;
  /** GFF3 files from the chromosomes and locations of `oma-protein-annotations.txt` (columns 3 and 4), when it gives any. */
  loci?: string;
  hogs: string;
  groups?: string;
  pairs?: string;
  xrefs: string[];
  /** `oma-go.txt` as GAF, when the config gives the ontology (`go_ontology`) that names each term's aspect. */
  goAnnotations: string[];
  /** The letter of the HOG ids (`F` in `HOG:F0000001`), from the orthoXML; undefined for none. */
  hogReleaseLetter?: string;
  /** Per group number - 1: the fingerprint the release gave it (`n/a` for none). */
  fingerprints?: string[];
}

const OMA_ID_RE = /^(.+?)(\d{5})$/;

/** `NAME` in the folder, else `NAME.gz`; undefined when neither is there. */
export function omaFile(folder: string, name: string): string | undefined {
  for (const candidate of [name, `${name}.gz`]) if (existsSync(join(folder, candidate))) return join(folder, candidate);
  return undefined;
}

class Out {
  private readonly stream: WriteStream;
  constructor(path: string) {
    this.stream = createWriteStream(path);
  }
  async write(text: string): Promise<void> {
    if (!this.stream.write(text)) await once(this.stream, "drain");
  }
  async close(): Promise<void> {
    const closed = once(this.stream, "close");
    this.stream.end();
    await closed;
  }
}

/** Data rows of an OMA text file: `#` comments, blank lines and a column-name row left out. */
async function* rows(path: string, problems: Problems, header?: string): AsyncGenerator<{ cols: string[]; lineNo: number }> {
  for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (text.startsWith("#") || isBlank(text)) continue;
    const cols = text.split("\t");
    if (header && cols[0] === header) continue;
    yield { cols, lineNo };
  }
}

/**
 * Writes the compiler's inputs for the OMA files in `folder` into `out` (created). Problems are
 * reported as `file:line`; the result is undefined when a required file is missing.
 */
export async function convertOmaRelease(folder: string, out: string, problems: Problems, options: { goOntology?: string } = {}): Promise<OmaInputs | undefined> {
  const files = {
    species: omaFile(folder, "oma-species.txt"),
    tree: omaFile(folder, "speciestree.nwk"),
    seqs: omaFile(folder, "oma-seqs.fa"),
    cdna: omaFile(folder, "oma-cdna.fa"),
    hogs: omaFile(folder, "oma-hogs.orthoXML"),
    groups: omaFile(folder, "oma-groups.txt"),
    pairs: omaFile(folder, "oma-pairs.txt"),
    annotations: omaFile(folder, "oma-protein-annotations.txt"),
    go: omaFile(folder, "oma-go.txt"),
  };
  for (const [name, key] of [["oma-species.txt", "species"], ["speciestree.nwk", "tree"], ["oma-seqs.fa", "seqs"], ["oma-hogs.orthoXML", "hogs"]] as const) {
    if (!files[key]) problems.report(folder, 0, `oma_release: ${name} (or ${name}.gz) not found`);
  }
  if (!files.species || !files.tree || !files.seqs || !files.hogs) return undefined;
  mkdirSync(join(out, "proteomes"), { recursive: true });

  // Genomes: taxon ids and names from oma-species.txt.
  const speciesRow = new Map<string, { taxonId: string; name: string }>();
  for await (const { cols, lineNo } of rows(files.species, problems, "OMA_Code")) {
    if (cols.length < 5) {
      problems.report(fileLabel(files.species), lineNo, `expected 7 tab-separated columns (OMA code, OMA taxon id, NCBI taxon id, GTDB accession, scientific name, source, release), found ${cols.length}`);
      continue;
    }
    speciesRow.set(cols[0].trim(), { taxonId: cols[1].trim(), name: cols[4].trim() });
  }

  // Original ids and descriptions, in the order of oma-seqs.fa (read in step with it).
  const annotations = files.annotations ? rows(files.annotations, problems, "OMA ID") : undefined;

  // Proteins: genome by genome in entry order; ids[entry] is the protein's id.
  const ids: string[] = [""];
  const genomes: Array<{ code: string; first: number; count: number }> = [];
  let proteome: Out | undefined;
  let gff: Out | undefined;
  let hasLoci = false;
  if (annotations) mkdirSync(join(out, "loci"), { recursive: true });
  let current: { code: string; first: number; count: number } | undefined;
  let skip = false;
  /** `[main isoform's OMA id, protein id]` of every protein that is not its gene's main isoform. */
  const alternatives: Array<[string, string]> = [];
  const seqsFile = fileLabel(files.seqs);
  for await (const { lines, firstLineNo } of readLineBatches(files.seqs, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (!text.startsWith(">")) {
      if (!skip && proteome) await proteome.write(`${text}\n`);
      continue;
    }
    const omaId = text.slice(1).trim().split(/\s/)[0];
    const m = OMA_ID_RE.exec(omaId);
    skip = true;
    if (!m) {
      problems.report(seqsFile, lineNo, `"${omaId}" is not an OMA id (species code and a 5-digit number)`);
      continue;
    }
    const [, code, digits] = m;
    if (!current || current.code !== code) {
      if (genomes.some((g) => g.code === code)) {
        problems.report(seqsFile, lineNo, `the proteins of ${code} are not together: ${omaId} follows those of ${current?.code}`);
        continue;
      }
      await proteome?.close();
      await gff?.close();
      current = { code, first: ids.length, count: 0 };
      genomes.push(current);
      proteome = new Out(join(out, "proteomes", `${code}.fa`));
      if (annotations) {
        gff = new Out(join(out, "loci", `${code}.gff`));
        await gff.write("##gff-version 3\n");
      }
    }
    if (Number(digits) !== current.count + 1) {
      problems.report(seqsFile, lineNo, `${omaId} should be ${code}${String(current.count + 1).padStart(5, "0")}: OMA ids of a genome are numbered 1, 2, … in order`);
      continue;
    }
    let id = omaId;
    let description = "";
    if (annotations) {
      const next = await annotations.next();
      if (next.done || next.value.cols[0] !== omaId) {
        problems.report(fileLabel(files.annotations!), next.done ? 0 : next.value.lineNo, `expected the row of ${omaId} (the rows follow oma-seqs.fa's order)`);
        continue;
      }
      const cols = next.value.cols;
      if (cols[1]?.trim()) id = cols[1].trim();
      description = (cols[5] ?? "").trim();
      const locus = gffLines(id, (cols[2] ?? "").trim(), (cols[3] ?? "").trim());
      if (locus) {
        hasLoci = true;
        await gff!.write(locus);
      }
      const main = (cols[4] ?? "").trim();
      if (main && main !== "self" && main !== omaId) alternatives.push([main, id]);
    }
    current.count++;
    ids.push(id);
    skip = false;
    await proteome!.write(`>${id}${description ? ` ${description}` : ""}\n`);
  }
  await proteome?.close();
  await gff?.close();

  const speciesInfo = join(out, "species_info.tsv");
  const info = new Out(speciesInfo);
  await info.write("Name\tNCBITaxonId\tScientificName\n");
  for (const g of genomes) {
    const row = speciesRow.get(g.code);
    if (!row) problems.report(fileLabel(files.species), 0, `species ${g.code} of oma-seqs.fa has no row`);
    await info.write(`${g.code}\t${row?.taxonId ?? 0}\t${row?.name ?? g.code}\n`);
  }
  await info.close();

  /** The protein id of an OMA id; undefined (reported) for an unknown one. */
  const byGenome = new Map(genomes.map((g) => [g.code, g]));
  const idOf = (omaId: string, file: string, lineNo: number): string | undefined => {
    const m = OMA_ID_RE.exec(omaId);
    const g = m && byGenome.get(m[1]);
    const n = m ? Number(m[2]) : 0;
    if (!g || n < 1 || n > g.count) {
      problems.report(fileLabel(file), lineNo, `unknown OMA id ${omaId}`);
      return undefined;
    }
    return ids[g.first + n - 1];
  };

  // Isoforms: each gene with alternatives as a splice line, main isoform first, per genome.
  let isoforms: string | undefined;
  if (alternatives.length) {
    isoforms = join(out, "splice");
    mkdirSync(isoforms, { recursive: true });
    const genes = new Map<string, Map<string, string[]>>(genomes.map((g) => [g.code, new Map()]));
    for (const [main, id] of alternatives) {
      const code = OMA_ID_RE.exec(main)?.[1] ?? "";
      const gene = genes.get(code);
      if (!gene || idOf(main, files.annotations!, 0) === undefined) continue;
      gene.set(main, [...(gene.get(main) ?? []), id]);
    }
    for (const [code, gene] of genes) {
      const file = new Out(join(isoforms, `${code}.splice`));
      for (const [main, ids] of gene) await file.write(`${[idOf(main, files.annotations!, 0)!, ...ids].join("; ")}\n`);
      await file.close();
    }
  }

  // cDNA: the same records under the protein ids, from oma-cdna.fa and OMA's
  // {eukaryotes,prokaryotes,viruses}.cdna.fa; each genome's records together in one file.
  let cdna: string | undefined;
  const cdnaFiles = [
    ...(files.cdna ? [files.cdna] : []),
    ...readdirSync(folder)
      .filter((name) => /^[^.]+\.cdna\.fa(\.gz)?$/.test(name))
      .sort()
      .map((name) => join(folder, name)),
  ];
  if (cdnaFiles.length) {
    cdna = join(out, "cdna");
    mkdirSync(cdna, { recursive: true });
    const done = new Set<string>();
    for (const path of cdnaFiles) {
      let file: Out | undefined;
      let code = "";
      let keep = false;
      for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
        const text = lines[i], lineNo = firstLineNo + i;
        if (!text.startsWith(">")) {
          if (keep) await file!.write(`${text}\n`);
          continue;
        }
        const omaId = text.slice(1).trim().split(/\s/)[0];
        const id = idOf(omaId, path, lineNo);
        keep = id !== undefined;
        if (!keep) continue;
        const genome = OMA_ID_RE.exec(omaId)![1];
        if (genome !== code) {
          await file?.close();
          if (done.has(genome)) {
            problems.report(fileLabel(path), lineNo, `the cDNA of ${genome} is not together: ${omaId} follows those of another genome`);
            file = undefined;
            keep = false;
            code = "";
            continue;
          }
          done.add(genome);
          code = genome;
          file = new Out(join(cdna, `${code}.fa`));
        }
        await file!.write(`>${id}\n`);
      }
      await file?.close();
    }
  }

  // HOGs: the orthoXML with the protein ids as protId (OMA ids there name the proteins).
  const hogs = join(out, "hogs.orthoxml");
  let hogReleaseLetter: string | undefined;
  {
    const file = new Out(hogs);
    for await (const { lines, firstLineNo } of readLineBatches(files.hogs, problems)) for (let i = 0; i < lines.length; i++) {
      const text = lines[i], lineNo = firstLineNo + i;
      const line = text.replace(/\bprotId="([^"]*)"/, (_, omaId: string) => `protId="${xmlAttr(idOf(omaId, files.hogs!, lineNo) ?? omaId)}"`);
      if (hogReleaseLetter === undefined) hogReleaseLetter = /<orthologGroup\b[^>]*\bid="HOG:([A-Z])\d{7}\b/.exec(text)?.[1];
      await file.write(`${line}\n`);
    }
    await file.close();
  }

  // Groups 1, 2, … with their fingerprints.
  let groups: string | undefined;
  let fingerprints: string[] | undefined;
  if (files.groups) {
    groups = join(out, "groups.tsv");
    fingerprints = [];
    const file = new Out(groups);
    await file.write("Group\tProtein\n");
    for await (const { cols, lineNo } of rows(files.groups, problems)) {
      const nr = Number(cols[0]);
      if (nr !== fingerprints.length + 1) {
        problems.report(fileLabel(files.groups), lineNo, `group ${cols[0]} should be group ${fingerprints.length + 1}: groups are numbered 1, 2, … in order`);
        continue;
      }
      fingerprints.push((cols[1] ?? "").trim() || "n/a");
      for (const member of cols.slice(2)) {
        if (!member.trim()) continue;
        const id = idOf(member.trim(), files.groups, lineNo);
        if (id !== undefined) await file.write(`${nr}\t${id}\n`);
      }
    }
    await file.close();
  }

  // Ortholog pairs: the group column is dropped (the groups file gives it).
  let pairs: string | undefined;
  if (files.pairs) {
    pairs = join(out, "pairs.tsv");
    const file = new Out(pairs);
    for await (const { cols, lineNo } of rows(files.pairs, problems)) {
      if (cols.length < 2) {
        problems.report(fileLabel(files.pairs), lineNo, `expected 3 or 4 tab-separated columns (protein 1, protein 2, orthology type, OMA group), found ${cols.length}`);
        continue;
      }
      const a = idOf(cols[0].trim(), files.pairs, lineNo);
      const b = idOf(cols[1].trim(), files.pairs, lineNo);
      const type = OMA_TYPES[(cols[2] ?? "").trim()];
      if (cols[2]?.trim() && type === undefined) {
        problems.report(fileLabel(files.pairs), lineNo, `orthology type "${cols[2].trim()}" is not one of 1:1, 1:n, m:1, m:n`);
        continue;
      }
      if (a !== undefined && b !== undefined) await file.write(`${a}\t${b}${type ? `\t${type}` : ""}\n`);
    }
    await file.close();
  }

  // Id maps as cross-references.
  const xrefs: string[] = [];
  const maps = readdirSync(folder)
    .map((name) => /^oma-(.+)\.txt(\.gz)?$/.exec(name))
    .filter((m): m is RegExpExecArray => m !== null && !NOT_ID_MAPS.has(m[1]))
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  for (const m of maps) {
    const path = join(out, `xrefs-${m[1]}.tsv`);
    // OMA's own maps merge sources (SwissProt and TrEMBL, Ensembl's genes, transcripts and
    // proteins) and are named here; any other map is named by its `# Format: OMA ID<tab>{source} ID`
    // line (oma-export writes one), else by its file name.
    let source: string | undefined = SOURCE_OF_MAP[m[1]];
    const file = new Out(path);
    for await (const { lines, firstLineNo } of readLineBatches(join(folder, m[0]), problems)) for (let i = 0; i < lines.length; i++) {
      const text = lines[i], lineNo = firstLineNo + i;
      if (text.startsWith("#")) {
        source ??= FORMAT_SOURCE_RE.exec(text)?.[1].trim() || undefined;
        continue;
      }
      if (isBlank(text)) continue;
      source ??= m[1];
      const cols = text.split("\t");
      if (cols.length !== 2 || !cols[1].trim()) {
        problems.report(fileLabel(join(folder, m[0])), lineNo, `expected 2 tab-separated columns (OMA id, ${source} id), found ${cols.length}`);
        continue;
      }
      const id = idOf(cols[0].trim(), join(folder, m[0]), lineNo);
      if (id !== undefined) await file.write(`${id}\t${source}\t${cols[1].trim()}\n`);
    }
    await file.close();
    xrefs.push(path);
  }

  // GO annotations as GAF 2.2, each term's aspect from the ontology.
  const goAnnotations: string[] = [];
  if (files.go && !options.goOntology) {
    problems.warn(fileLabel(files.go), 0, "left out: the GO annotations need the config's go_ontology, which gives each term's aspect");
  } else if (files.go && options.goOntology) {
    const aspectOf = new Map<string, string>();
    for (const term of (await readObo(options.goOntology, problems)).values()) {
      const aspect = ASPECTS[term.namespace];
      for (const id of [term.id, ...term.altIds]) aspectOf.set(id, aspect);
    }
    const path = join(out, "go.gaf");
    const file = new Out(path);
    await file.write("!gaf-version: 2.2\n");
    for await (const { cols, lineNo } of rows(files.go, problems)) {
      if (cols.length < 3) {
        problems.report(fileLabel(files.go), lineNo, `expected 4 tab-separated columns (OMA id, GO term, evidence code, references), found ${cols.length}`);
        continue;
      }
      const [omaId, term, evidence, references = ""] = cols.map((c) => c.trim());
      const id = idOf(omaId, files.go, lineNo);
      const aspect = aspectOf.get(term);
      if (aspect === undefined) problems.report(fileLabel(files.go), lineNo, `${term} is not a term of ${options.goOntology}`);
      if (id === undefined || aspect === undefined) continue;
      await file.write(`OMA\t${id}\t${id}\t\t${term}\t${references}\t${evidence}\t\t${aspect}\t\t\tprotein\t\t\tOMA\n`);
    }
    await file.close();
    goAnnotations.push(path);
  }

  return {
    goAnnotations,
    speciesInfo,
    speciesTree: files.tree,
    proteomes: join(out, "proteomes"),
    ...(cdna ? { cdna } : {}),
    ...(isoforms ? { isoforms } : {}),
    ...(hasLoci ? { loci: join(out, "loci") } : {}),
    hogs,
    ...(hogReleaseLetter ? { hogReleaseLetter } : {}),
    ...(groups ? { groups, fingerprints } : {}),
    ...(pairs ? { pairs } : {}),
    xrefs,
  };
}

/** A GFF3 gene and its CDSs for a protein's chromosome and OMA location; "" when it has none. */
export function gffLines(id: string, chromosome: string, location: string): string {
  if (!chromosome || !location || location === "n/a") return "";
  const exons: Array<[number, number, string]> = [];
  const whole = /^complement\((.*)\)$/.exec(location);
  for (const part of (whole ? whole[1] : location).replace(/^join\((.*)\)$/, "$1").split(",")) {
    const m = /^(complement\()?(\d+)\.\.(\d+)\)?$/.exec(part.trim());
    if (!m) return "";
    exons.push([Number(m[2]), Number(m[3]), whole || m[1] ? "-" : "+"]);
  }
  if (!exons.length) return "";
  const strand = exons[0][2];
  const attr = encodeURIComponent(id).replace(/%7C/gi, "|");
  const seqid = chromosome;
  const start = Math.min(...exons.map((e) => e[0]));
  const end = Math.max(...exons.map((e) => e[1]));
  let out = `${seqid}\tOMA\tgene\t${start}\t${end}\t.\t${strand}\t.\tID=${attr}\n`;
  for (const [s, e] of exons) out += `${seqid}\tOMA\tCDS\t${s}\t${e}\t.\t${strand}\t0\tParent=${attr};protein_id=${attr}\n`;
  return out;
}

const ASPECTS: Record<string, string> = { biological_process: "P", molecular_function: "F", cellular_component: "C" };

/** OMA's relation types (and convert.py's aliases) as the release's. */
const OMA_TYPES: Record<string, string> = { "1:1": "1:1", "1:n": "1:n", "m:1": "m:1", "m:n": "m:n", "n:1": "m:1", "1:m": "1:n", "n:m": "m:n", "": "" };

/** `oma-{name}.txt` files that are not id maps. */
const NOT_ID_MAPS = new Set(["species", "groups", "pairs", "go", "protein-annotations", "close-groups"]);

const SOURCE_OF_MAP: Record<string, string> = { uniprot: "UniProtKB", ensembl: "Ensembl", refseq: "RefSeq", entrez: "EntrezGene" };

/** The source an id map's header names: `# Format: OMA ID<tab>Gene Name ID` (`<tab>` literal, as OMA writes it, or a tab). */
const FORMAT_SOURCE_RE = /^# Format: OMA ID(?:<tab>|\t)(.+) ID\s*$/;

function xmlAttr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}
