import type { AnnotationRow, ProteinSummary } from "./format.js";

export type SeqMatch = "exact" | "modified" | "unchecked";

export interface Xref {
  source: string;
  id: string;
  seqMatch: SeqMatch;
}

/** The source name the canonical id is listed under (as the pairs endpoint's `xrefs=SourceID`). */
const CANONICAL_SOURCE = "SourceID";

const UNIPROT_SOURCES = new Set(["UniProtKB/SwissProt", "UniProtKB/TrEMBL", "UniProtKB"]);

/**
 * Main databases and gene names: what `filter=maindb` keeps. These are the sources that name
 * the protein, its gene or its transcript in a sequence or gene database (UniProtKB, Ensembl,
 * RefSeq, NCBI Gene) plus gene names and the release's own source id. Everything else, such as
 * the family, domain, structure and pathway databases of UniProt's DR lines (Pfam, InterPro,
 * Gene3D, PDB, KEGG, …) and free text, is left out.
 */
const MAIN_SOURCES: ReadonlySet<string> = new Set([
  CANONICAL_SOURCE,
  "SourceAC",
  ...UNIPROT_SOURCES,
  "Ensembl",
  "Ensembl Gene",
  "Ensembl Protein",
  "Ensembl Transcript",
  "RefSeq",
  "EntrezGene",
  "GeneID",
  "Gene Name",
]);

/**
 * The cross-references of a protein with how far their sequence is known to match, the
 * canonical id included (as source `SourceID`), sorted by source, then id (JavaScript string
 * order; the sort is stable, so equal pairs keep their input order).
 *
 * `seq_match`: the compiler never compares sequences. Xref TSV rows are attached by protein id,
 * and UniProt entries are matched by accession or entry name; the sequence of their SQ block is
 * read but neither compared nor kept (release-compiler/derive/annotations.ts). So the only ids
 * whose sequence is known to be the served one are:
 * - the canonical id: the record the served sequence was read from;
 * - the UniProtKB ids of a protein whose proteome record was that UniProt entry, i.e. whose
 *   canonical id is itself one of its UniProtKB accessions (a `sp|ACC|NAME` FASTA header): the
 *   entry's accessions and entry name all name the record the sequence came from.
 * Those are `exact`; every other id is `unchecked`. Nothing is `modified`: no input says so.
 */
export function xrefsOf(protein: ProteinSummary, annotations: Pick<AnnotationRow, "xrefs">): Xref[] {
  const canonical = protein.canonicalId;
  const fromUniProtRecord =
    canonical !== "" && annotations.xrefs.some(([source, id]) => UNIPROT_SOURCES.has(source) && id === canonical);
  const out: Xref[] = [];
  if (canonical) out.push({ source: CANONICAL_SOURCE, id: canonical, seqMatch: "exact" });
  for (const [source, id] of annotations.xrefs) {
    const exact = fromUniProtRecord && UNIPROT_SOURCES.has(source);
    out.push({ source, id, seqMatch: exact ? "exact" : "unchecked" });
  }
  return out.sort((a, b) => compare(a.source, b.source) || compare(a.id, b.id));
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export type XrefFilter = "all" | "exact" | "maindb";

export function filterXrefs(xrefs: Xref[], filter: XrefFilter): Xref[] {
  if (filter === "exact") return xrefs.filter((x) => x.seqMatch === "exact");
  if (filter === "maindb") return xrefs.filter((x) => MAIN_SOURCES.has(x.source));
  return xrefs;
}
