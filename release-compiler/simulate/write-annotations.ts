/**
 * annotations/: GO ontology (go.obo) and annotations (go.gaf, GAF 2.2), cross-references
 * (xrefs.tsv), UniProt flat-file entries (uniprot.txt) and domain annotations (domains.tsv).
 *
 * - GO: every family has 1–4 GO terms (catalog.ts); in every other genome (genome numbers 0, 2,
 *   4, …) about 60% of genes carry all of their family's terms.
 * - xrefs: each main isoform gets a UniProtKB/SwissProt accession (about 70% of genes), its
 *   gene name (the family symbol, shared by in-species paralogs, so sometimes ambiguous), a
 *   RefSeq protein id, an EntrezGene id and a description; alternative isoforms get their gene
 *   name, own RefSeq id and a description.
 * - uniprot.txt: an entry for about 30% of the genes with an accession (about 20% of proteins),
 *   with that accession, the protein's sequence, DR lines for GO, Gene3D, InterPro and Pfam, and
 *   DOMAIN features.
 * - domains.tsv: CATH and Pfam domains of about 72% of the genes of families with domains
 *   (about half of all genes), coordinates scaled to each protein.
 * Accessions and ids are unique across the release (bijective scrambles of running numbers).
 */
import { join } from "node:path";
import { DOMAIN_KINDS } from "./catalog.js";
import type { Gene } from "./evolve.js";
import { GO_TERMS, type GoTerm } from "./go-terms.js";
import type { GeneStructure } from "./layout.js";
import { CLADES, ROOT_CLADE, type Organism } from "./organisms.js";
import { Rng } from "./rng.js";
import { crc64, molecularWeight } from "./sequences.js";
import { FileSink } from "./sink.js";

const GAF_DATE = "20261101";
const ENTRY_DATE = "01-NOV-2026";

const GO_BY_ID = new Map<string, GoTerm>(GO_TERMS.map((t) => [t.id, t]));
const ASPECT = { biological_process: "P", molecular_function: "F", cellular_component: "C" } as const;
const QUALIFIER = { biological_process: "involved_in", molecular_function: "enables", cellular_component: "located_in" } as const;

/** A UniProt-style accession ([A-NR-Z][0-9][A-Z][A-Z0-9]{2}[0-9]) for running number i, unique for i < 77,500,800. */
function uniprotAccession(i: number): string {
  const first = "ABCDEFGHIJKLMNRSTUVWXYZ";
  const letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const alnum = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const size = 23 * 10 * 26 * 36 * 36 * 10;
  let x = (i * 7777777 + 1234567) % size; // 7777777 is coprime with size
  const d5 = x % 10;
  x = Math.floor(x / 10);
  const c4 = x % 36;
  x = Math.floor(x / 36);
  const c3 = x % 36;
  x = Math.floor(x / 36);
  const c2 = x % 26;
  x = Math.floor(x / 26);
  const d1 = x % 10;
  x = Math.floor(x / 10);
  return `${first[x]}${d1}${letters[c2]}${alnum[c3]}${alnum[c4]}${d5}`;
}

/** Scrambles running number i into [0, 9,000,000), bijectively. */
function scramble(i: number): number {
  return (i * 1234577 + 4711) % 9000000;
}

/** The full-tree lineage of an organism (root excluded), for OC lines. */
const LINEAGES = (() => {
  const parent = new Map<string, string>();
  for (const [name, , children] of CLADES) for (const c of children) parent.set(c, name);
  return (code: string): string[] => {
    const out: string[] = [];
    for (let p = parent.get(code); p && p !== ROOT_CLADE; p = parent.get(p)) out.unshift(p);
    return out;
  };
})();

/** Wraps `items` joined by `sep` into flat-file lines of at most 80 characters with `prefix`. */
function wrapLines(prefix: string, items: readonly string[], sep: string, end: string): string {
  const lines: string[] = [];
  let line = "";
  items.forEach((item, i) => {
    const piece = item + (i === items.length - 1 ? end : sep.trimEnd());
    if (line && (prefix + line + " " + piece).length > 80) {
      lines.push(prefix + line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  });
  if (line) lines.push(prefix + line);
  return lines.join("\n") + "\n";
}

interface AnnotationCounts {
  goAnnotations: number;
  xrefs: number;
  uniprotEntries: number;
  domainRows: number;
}

export class AnnotationWriter {
  private readonly gaf: FileSink;
  private readonly xrefs: FileSink;
  private readonly uniprot: FileSink;
  private readonly domains: FileSink;
  private accessions = 0;
  private refseqs = 0;
  private entrez = 0;
  private chains = 0;
  private entryNames = 0;
  readonly counts: AnnotationCounts = { goAnnotations: 0, xrefs: 0, uniprotEntries: 0, domainRows: 0 };

  constructor(
    private readonly dir: string,
    private readonly seed: number,
  ) {
    this.gaf = new FileSink(join(dir, "go.gaf"));
    this.xrefs = new FileSink(join(dir, "xrefs.tsv"));
    this.uniprot = new FileSink(join(dir, "uniprot.txt"));
    this.domains = new FileSink(join(dir, "domains.tsv"));
    this.gaf.write(`!gaf-version: 2.2\n!generated-by: orth-edge release simulator\n!date-generated: 2026-11-01\n`);
    this.xrefs.write("protein_id\tsource\txref\n");
    this.domains.write("protein_id\tsource\tdomain_id\tname\tstart\tend\n");
    writeOntology(join(dir, "go.obo"));
  }

  /** Starts a genome: annotation decisions come from the genome's own random stream. */
  genome(genome: number, organism: Organism): GenomeAnnotator {
    return new GenomeAnnotator(this, new Rng(this.seed, "annotations", genome), genome, organism);
  }

  /** @internal */
  annotate(rng: Rng, genome: number, organism: Organism, gene: Gene, structure: GeneStructure): void {
    const family = gene.family;
    const description = `${family.archetype.description} ${gene.symbol}`;
    const protein = structure.main.protein;
    const id = gene.proteinId;

    // Cross-references.
    const accession = rng.float() < 0.7 ? uniprotAccession(this.accessions++) : null;
    let x = "";
    if (accession) x += `${id}\tUniProtKB/SwissProt\t${accession}\n`;
    x += `${id}\tGene Name\t${gene.symbol}\n`;
    x += `${id}\tRefSeq\t${this.refseq(organism)}\n`;
    x += `${id}\tEntrezGene\t${100000 + scramble(this.entrez++)}\n`;
    x += `${id}\tDescription\t${description}\n`;
    this.counts.xrefs += accession ? 5 : 4;
    structure.alternatives.forEach((alt, i) => {
      x += `${alt.id}\tGene Name\t${gene.symbol}\n`;
      x += `${alt.id}\tRefSeq\t${this.refseq(organism)}\n`;
      x += `${alt.id}\tDescription\t${description} isoform ${i + 2}\n`;
      this.counts.xrefs += 3;
    });
    this.xrefs.write(x);

    // GO annotations.
    if (genome % 2 === 0 && rng.float() < 0.6) {
      let g = "";
      for (const goId of family.goTerms) {
        const term = GO_BY_ID.get(goId)!;
        const u = rng.float();
        const evidence = u < 0.5 ? "IEA" : u < 0.7 ? "IBA" : u < 0.85 ? "ISS" : "IDA";
        const domain = family.domains[0];
        const reference =
          evidence === "IEA" ? "GO_REF:0000002" : evidence === "IBA" ? "GO_REF:0000033" : evidence === "ISS" ? "GO_REF:0000024" : `PMID:${10000000 + rng.int(30000000)}`;
        const withFrom =
          evidence === "IEA" && domain ? `InterPro:${domain.kind.interpro.id}` : evidence === "IBA" ? `PANTHER:PTN${String(family.number).padStart(9, "0")}` : "";
        const assignedBy = evidence === "IEA" ? "InterPro" : evidence === "IBA" ? "GO_Central" : "SIMDB";
        g +=
          `SIMDB\t${id}\t${gene.symbol}\t${QUALIFIER[term.namespace]}\t${goId}\t${reference}\t${evidence}\t${withFrom}\t` +
          `${ASPECT[term.namespace]}\t${description}\t\tprotein\ttaxon:${organism.taxonId}\t${GAF_DATE}\t${assignedBy}\t\t\n`;
        this.counts.goAnnotations++;
      }
      this.gaf.write(g);
    }

    // Domains, scaled from the family's root coordinates to this protein.
    const scale = protein.length / family.rootLength;
    const located = family.domains.map((d) => ({
      kind: d.kind,
      start: Math.min(protein.length, Math.floor(d.start * scale) + 1),
      end: Math.min(protein.length, Math.max(Math.floor(d.start * scale) + 2, Math.round(d.end * scale))),
    }));
    if (located.length > 0 && rng.float() < 0.72) {
      let d = "";
      for (const dom of located) {
        if (dom.kind.cath) {
          d += `${id}\tCATH\t${dom.kind.cath.id}\t${dom.kind.cath.name}\t${dom.start}\t${dom.end}\n`;
          this.counts.domainRows++;
        }
        d += `${id}\tPfam\t${dom.kind.pfam.id}\t${dom.kind.pfam.name}\t${dom.start}\t${dom.end}\n`;
        this.counts.domainRows++;
      }
      this.domains.write(d);
    }

    // UniProt entry.
    if (accession && rng.float() < 0.3) this.entry(organism, gene, description, accession, protein, located);
  }

  private refseq(organism: Organism): string {
    const n = scramble(this.refseqs++);
    return organism.kingdom === "E"
      ? `NP_${String(1000000 + n).padStart(9, "0")}.${1 + (n % 3)}`
      : `WP_${String(10000000 + n).padStart(9, "0")}.1`;
  }

  private entry(
    organism: Organism,
    gene: Gene,
    description: string,
    accession: string,
    protein: Uint8Array,
    domains: ReadonlyArray<{ kind: (typeof DOMAIN_KINDS)[string]; start: number; end: number }>,
  ): void {
    const u = this.uniprot;
    const name = `Y${(this.entryNames++).toString(36).toUpperCase().padStart(4, "0")}_${organism.code}`;
    let e = `ID   ${name.padEnd(24)}Reviewed;${String(protein.length).padStart(12)} AA.\n`;
    e += `AC   ${accession};\n`;
    e += `DT   ${ENTRY_DATE}, integrated into UniProtKB/Swiss-Prot.\n`;
    e += `DT   ${ENTRY_DATE}, sequence version 1.\n`;
    e += `DT   ${ENTRY_DATE}, entry version 1.\n`;
    e += `DE   RecName: Full=${description};\n`;
    e += `GN   Name=${gene.symbol};\n`;
    e += wrapLines("OS   ", organism.scientificName.split(" "), " ", ".");
    // A synthetic organism (synthetic.ts) has the real lineage of the organism it radiates from.
    e += wrapLines("OC   ", LINEAGES("anchor" in organism ? String(organism.anchor) : organism.code), "; ", ".");
    e += `OX   NCBI_TaxID=${organism.taxonId};\n`;
    e += `DR   RefSeq; ${this.refseq(organism)}; -.\n`;
    for (const goId of gene.family.goTerms) {
      const term = GO_BY_ID.get(goId)!;
      e += `DR   GO; ${goId}; ${ASPECT[term.namespace]}:${term.name}; IEA:InterPro.\n`;
    }
    const count = <T>(items: T[], key: (t: T) => string): Array<[T, number]> => {
      const seen = new Map<string, [T, number]>();
      for (const item of items) {
        const k = key(item);
        const entry = seen.get(k);
        if (entry) entry[1]++;
        else seen.set(k, [item, 1]);
      }
      return [...seen.values()];
    };
    const kinds = domains.map((d) => d.kind);
    for (const [kind, n] of count(kinds.filter((k) => k.cath), (k) => k.cath!.id)) {
      e += `DR   Gene3D; ${kind.cath!.id}; ${kind.cath!.name}; ${n}.\n`;
    }
    for (const [kind] of count(kinds, (k) => k.interpro.id)) e += `DR   InterPro; ${kind.interpro.id}; ${kind.interpro.shortName}.\n`;
    for (const [kind, n] of count(kinds, (k) => k.pfam.id)) e += `DR   Pfam; ${kind.pfam.id}; ${kind.pfam.name}; ${n}.\n`;
    e += `PE   3: Inferred from homology;\n`;
    e += `FT   CHAIN           1..${protein.length}\n`;
    e += `FT                   /note="${description}"\n`;
    e += `FT                   /id="PRO_${String(++this.chains).padStart(10, "0")}"\n`;
    for (const d of domains) {
      if (!d.kind.uniprotNote) continue;
      e += `FT   DOMAIN          ${d.start}..${d.end}\n`;
      e += `FT                   /note="${d.kind.uniprotNote}"\n`;
    }
    e += `SQ   SEQUENCE ${String(protein.length).padStart(5)} AA; ${String(molecularWeight(protein)).padStart(6)} MW;  ${crc64(protein)} CRC64;\n`;
    u.write(e);
    for (let i = 0; i < protein.length; i += 60) {
      u.write("    ");
      const end = Math.min(protein.length, i + 60);
      for (let j = i; j < end; j += 10) {
        u.write(" ");
        u.writeBytes(protein, j, Math.min(end, j + 10));
      }
      u.write("\n");
    }
    u.write("//\n");
    this.counts.uniprotEntries++;
  }

  close(): void {
    this.gaf.close();
    this.xrefs.close();
    this.uniprot.close();
    this.domains.close();
  }
}

class GenomeAnnotator {
  constructor(
    private readonly writer: AnnotationWriter,
    private readonly rng: Rng,
    private readonly genome: number,
    private readonly organism: Organism,
  ) {}

  gene(gene: Gene, structure: GeneStructure): void {
    this.writer.annotate(this.rng, this.genome, this.organism, gene, structure);
  }
}

/** annotations/go.obo: the GO terms of go-terms.ts in OBO 1.2. */
function writeOntology(path: string): void {
  const s = new FileSink(path);
  s.write("format-version: 1.2\ndata-version: releases/2022-07-01\n");
  s.write("remark: subset of go-basic.obo (GO release 2022-07-01) written by the orth-edge release simulator; closed under is_a.\n");
  s.write("ontology: go\n");
  const names = new Map(GO_TERMS.map((t) => [t.id, t.name]));
  for (const term of GO_TERMS) {
    s.write(`\n[Term]\nid: ${term.id}\nname: ${term.name}\nnamespace: ${term.namespace}\n`);
    if (term.def) s.write(`def: ${term.def}\n`);
    for (const parent of term.isA) s.write(`is_a: ${parent} ! ${names.get(parent)}\n`);
  }
  s.close();
}
