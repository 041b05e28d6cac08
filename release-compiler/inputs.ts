/**
 * The records the input readers produce: one interface per input format of the
 * release config (see release-format/FORMAT.md and the README's input contract).
 * Readers stream; every record keeps the line it came from for later error messages.
 */

export interface SpeciesInfoRow {
  /** 5-character species code, also the proteome file name (`HUMAN`). */
  code: string;
  taxonId: number;
  /** Scientific name, or the code when the column is absent or empty. */
  scientificName: string;
  /** Subgenome letters of a polyploid genome (`Subgenomes` column, e.g. `A,B,D`); empty when diploid. */
  subgenomes: string[];
  /** `File` column: the proteome's file name without extension (OrthoFinder's species name), if given. */
  file?: string;
  /** The proteome's path when it is not `CODE.fa` in the proteomes folder (OrthoFinder's `<species>.faa`, …). */
  proteomePath?: string;
  line: number;
}

/** A node of a Newick tree; leaves are species codes in the species tree. */
export interface TreeNode {
  name: string;
  children: TreeNode[];
  branchLength?: number;
}

export interface FastaRecord {
  /** First word of the header: the protein id used in every other input. */
  id: string;
  /** For UniProt headers `sp|ACC|NAME` / `tr|ACC|NAME`. */
  uniprot?: { reviewed: boolean; accession: string; entryName: string };
  /** Rest of the header after the first word (description), trimmed. */
  description: string;
  /** Upper-cased residues, whitespace removed, a trailing `*` dropped. */
  sequence: string;
  /** Line of the header. */
  line: number;
}

/** orthoXML `<gene>` in a `<species>` block. */
export interface OrthoXmlGene {
  id: string;
  protId: string;
  geneId?: string;
  line: number;
}

export interface OrthoXmlSpecies {
  name: string;
  taxonId?: string;
  ncbiTaxId?: string;
  genes: OrthoXmlGene[];
  line: number;
}

/** orthoXML `<taxonomy>` (0.5): `taxon` elements with id and name. */
export interface OrthoXmlTaxon {
  id: string;
  name: string;
  children: OrthoXmlTaxon[];
  line: number;
}

/** One node of a HOG as written in orthoXML: a speciation, a duplication, or a gene leaf. */
export type HogXmlNode = HogXmlGroup | { kind: "geneRef"; ref: string; line: number };

/** An orthologGroup (speciation) or paralogGroup (duplication). */
export type HogXmlGroup = {
      kind: "orthologGroup" | "paralogGroup";
      /** `id` attribute as written (e.g. `HOG:0000003.1a_11`), if any. */
      id?: string;
      /** `taxonId` attribute (0.5), pointing into `<taxonomy>`. */
      taxonId?: string;
      /** `<property name="TaxRange" value=…>`. */
      taxRange?: string;
      /** `<score id="CompletenessScore" value=…>`. */
      completeness?: number;
      children: HogXmlNode[];
      line: number;
    };

export interface GffLocus {
  chromosome: string;
  start: number;
  end: number;
  /** 1 or -1 (0 when the strand is unknown). */
  strand: 1 | -1 | 0;
  /** CDS segments `[start, end]`, sorted by start. */
  exons: Array<[number, number]>;
  line: number;
}

export interface GafRow {
  db: string;
  objectId: string;
  symbol: string;
  qualifier: string;
  goId: string;
  reference: string;
  evidence: string;
  withFrom: string;
  aspect: "P" | "F" | "C";
  date: string;
  assignedBy: string;
  line: number;
}

export interface OboTerm {
  id: string;
  name: string;
  namespace: "biological_process" | "molecular_function" | "cellular_component";
  isA: string[];
  altIds: string[];
  obsolete: boolean;
}

export interface XrefRow {
  proteinId: string;
  source: string;
  xref: string;
  line: number;
}

export interface DomainRow {
  proteinId: string;
  source: string;
  domainId: string;
  name: string;
  start: number;
  end: number;
  line: number;
}

/** One UniProt flat-file entry, reduced to what a release uses. */
export interface UniProtEntry {
  accessions: string[];
  entryName: string;
  reviewed: boolean;
  /** DR lines: database and its first identifier (and the rest of the fields). */
  crossRefs: Array<{ database: string; id: string; extra: string[] }>;
  /** FT DOMAIN features. */
  domains: Array<{ name: string; start: number; end: number }>;
  sequence: string;
  /** OS lines, joined, without the final `.` (e.g. `Aquifex aeolicus (strain VF5)`). */
  organism?: string;
  /** OX `NCBI_TaxID`. */
  taxonId?: number;
  /** DE lines: the recommended full name (`RecName: Full=`), else the first submitted one (`SubName: Full=`, TrEMBL). */
  description?: string;
  line: number;
}

export interface PairRow {
  protein1: string;
  protein2: string;
  relType?: string;
  distance?: number;
  score?: number;
  line: number;
  /** The file of the row when pairs come from several files (OrthoFinder's Orthologues); else the pairs file. */
  file?: string;
}

export interface GroupRow {
  group: string;
  protein: string;
  line: number;
}
