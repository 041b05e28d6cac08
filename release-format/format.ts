/**
 * The release format: the one contract between the release compiler and the worker.
 * Documented for humans in release-format/FORMAT.md; bump FORMAT_VERSION on any change.
 *
 * A release is a manifest (a few hundred bytes of JSON, whatever the release's size) naming
 * its header, and immutable packs: large objects named by the hash of their bytes, holding
 * msgpack chunks that are read as byte ranges. Every table and index is a tree of chunks
 * (release-format/directory.ts): its root page sits in the header, its other directory pages
 * are chunks too, and each entry of a page carries the hash of the chunk it points to, so
 * every byte read is checked against a hash the manifest chain vouches for.
 */

import type { PackedRows } from "./rows.js";

export const FORMAT_VERSION = 13;

/** Hex digits of the SHA-256 that name a pack and check a chunk (128 bits). */
export const HASH_HEX_LENGTH = 32;
/** The same hash as bytes, as directory pages store it. */
export const HASH_BYTES = HASH_HEX_LENGTH / 2;

/**
 * Entry numbers the `entryIds` index keeps an id at most: one names a protein, two say the id
 * is ambiguous, and what an ambiguous id answers never lists them (404, a null target, a SOAP
 * fault). A gene name that 2,500 orthologs share would otherwise make one bucket of 10 kB.
 */
export const AMBIGUOUS_ENTRIES = 2;

/** Object-storage key of a pack, from its name (the hash of its bytes). */
export const packKey = (name: string): string => `packs/${name}.pack`;

/** Object-storage key of a release's manifest. */
export const manifestKey = (releaseName: string): string => `releases/${releaseName}/manifest.json`;

/**
 * Object-storage key of the pointer to the release served by default. It holds that release's
 * manifest file (the bytes of `releases/<name>/manifest.json`), a newline, and its header chunk
 * (`pointerBytes`), so a fresh isolate learns which release is current and opens it in one
 * read, not three. A pointer written before holds the manifest file alone, or the bare name
 * (`readPointer` reads all three).
 */
export const CURRENT_RELEASE_KEY = "releases/current";

/**
 * Bytes an isolate reads of the pointer to see whether the current release changed: the
 * manifest file, which is constant in size and a few hundred bytes, without the header.
 */
export const POINTER_PREFIX_BYTES = 4096;

/** What the current-release pointer says: the name, the manifest file and the header chunk's bytes when it carries them. */
export interface CurrentPointer {
  name: string;
  manifest?: ManifestFile;
  /** The header chunk, as the manifest's `header` ref names it (checked against its hash by the reader). */
  header?: Uint8Array;
}

/** The pointer to a release: its manifest file (compact JSON, so one line), a newline, its header chunk. */
export function pointerBytes(manifestText: string, header: Uint8Array): Uint8Array {
  const line = new TextEncoder().encode(`${manifestText.trim()}\n`);
  const out = new Uint8Array(line.length + header.length);
  out.set(line, 0);
  out.set(header, line.length);
  return out;
}

/**
 * Reads the pointer: a manifest file (JSON with a string `name`) up to the first newline, and
 * the header chunk after it; or a bare release name. Undefined for anything else (empty, JSON
 * without a name, a name with characters no release name has), which readers report as a
 * corrupt pointer. Of a prefix (POINTER_PREFIX_BYTES) only the name and manifest are whole.
 */
export function readPointer(bytes: Uint8Array): CurrentPointer | undefined {
  const newline = bytes.indexOf(0x0a);
  const text = new TextDecoder().decode(newline < 0 ? bytes : bytes.subarray(0, newline)).trim();
  const rest = newline < 0 ? bytes.subarray(bytes.length) : bytes.subarray(newline + 1);
  if (!text.startsWith("{")) return RELEASE_NAME.test(text) && !rest.some((b) => b !== 0x0a && b !== 0x0d && b !== 0x20) ? { name: text } : undefined;
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return undefined;
  }
  const name = (manifest as { name?: unknown } | null)?.name;
  if (typeof name !== "string" || !RELEASE_NAME.test(name)) return undefined;
  return rest.length ? { name, manifest: manifest as ManifestFile, header: rest } : { name, manifest: manifest as ManifestFile };
}

/** Characters of a release name (the `/release/{name}/` paths serve these). */
export const RELEASE_NAME = /^[A-Za-z0-9._-]+$/;

/** Naming profiles of a release's answers: the specification's `orth` names, or the original interface's. */
export const FIELD_NAMES = ["orth", "oma"] as const;
export type FieldNames = (typeof FIELD_NAMES)[number];

/**
 * Where a chunk lies: `[pack name, byte offset, byte length, hash of those bytes]` (the hash
 * as HASH_HEX_LENGTH hex digits). A chunk of a slotted tree (release-format/slots.ts) adds
 * `[index, count]`, its place in its run: its range is the slot, and the hash is the run's
 * Merkle root, which the slot's path leads to.
 */
export type ChunkRef = [pack: string, offset: number, length: number, hash: string, slot?: [index: number, count: number]];

/** A key naming a chunk among every chunk of a release (a chunk in a slot: the run's root and its index). */
export const chunkKey = (ref: ChunkRef): string => (ref[4] ? `${ref[3]}.${ref[4][0]}` : ref[3]);

/**
 * A directory page: the chunks of a tree (level 0), or the pages one level down (level n > 0),
 * in key order, as parallel columns. Entry i covers the keys from `starts[i]` up to the next
 * entry's start; it lies in pack `packs[pack[i]]` at `[offsets[i], offsets[i] + lengths[i])`,
 * and those bytes hash to `hashes[i·HASH_BYTES, (i+1)·HASH_BYTES)`.
 */
export interface DirectoryPage<Start extends number | string = number | string> {
  level: number;
  starts: Start[];
  packs: string[];
  pack: number[];
  offsets: number[];
  lengths: number[];
  hashes: Uint8Array;
}

/**
 * A tree of chunks keyed by row number (tables) or by string (key indexes): the root page, held
 * in the header, and `depth` levels of pages down to the chunks (depth 1: the root lists the
 * chunks themselves).
 */
export interface ChunkTree<Start extends number | string = number | string> {
  depth: number;
  root: DirectoryPage<Start>;
  /**
   * A slotted tree (release-format/slots.ts; depth 1): each root entry is a run of equal slots,
   * `slots[i]` bytes each. A table's chunks cover `stride` rows each from the entry's start; a
   * hash index's (`stride` 0) hold the keys of the run's key range that hash to their slot.
   */
  slotted?: { stride: number; slots: number[] };
}

/**
 * `releases/<name>/manifest.json`: constant in size, it names the release (the fields of
 * Manifest below that are not in the header) and its header.
 */
export type ManifestFile = Omit<Manifest, keyof ReleaseHeader> & {
  /** The ReleaseHeader chunk: read once per isolate, with the manifest, when the release is opened. */
  header: ChunkRef;
};

/**
 * The release header (a msgpack chunk): what every request may need, sized by the genomes and
 * levels, never by the proteins: the taxonomy, the genomes, the HOG list ranges, and the root
 * page of every table and index.
 */
export type ReleaseHeader = Pick<Manifest, "taxonomy" | "genomes" | "hogLists" | "tables" | "sequenceIndex" | "indexes" | "xrefSearch">;

/** An opened release: the manifest file and its header, as the worker and the tools use it. */
export interface Manifest {
  format: typeof FORMAT_VERSION;
  /** Release name, e.g. `All.Nov2026` (the version endpoint's `orth_version`). */
  name: string;
  /** Letters inserted after `HOG:` in this release's HOG ids (`E` in `HOG:E0000003`); may be "". */
  hogPrefix: string;
  /** Release date `YYYY-MM-DD` from the release config; "" when it gives none. */
  date: string;
  /**
   * The naming profile of the answers (config `field_names`): absent for `orth`, the
   * specification's names, so such a release's manifest is as before; `oma` for the original
   * interface's names (src/render/field-names.ts).
   */
  fieldNames?: "oma";
  counts: ReleaseCounts;
  taxonomy: Taxonomy;
  genomes: GenomeInfo[];
  tables: {
    /** Row = entry number - 1. */
    proteins: TableRef<ProteinRow>;
    /** Row = entry number - 1. */
    sequences: TableRef<SequenceRow>;
    /** Row = group number - 1. */
    groups: TableRef<GroupRow>;
    /** Row = family index - 1 (families in orthoXML document order). */
    families: TableRef<FamilyRow>;
    /**
     * The member summaries of wide families (FamilyRow `firstMember`), each family's members in
     * its tree order, families in order: a HOG of a wide family is a run of rows, read alone.
     */
    familyMembers: TableRef<ProteinSummary>;
    /**
     * HOG cards (HogCard) of the families of more than `hogCardsFromNodes` tree nodes: one row
     * per HOG id of such a family, its root's first, families in order. Its record on its
     * deepest level, so a HOG read in a 15,000-node family reads the card, not the tree.
     */
    hogCards: TableRef<HogCard>;
    /** Row as in `hogCards`: the id's records on each level it stands on, with every HOG a level query there lists. */
    hogLevelCards: TableRef<HogCard>;
    /** Row = entry number - 1. */
    annotations: TableRef<AnnotationRow>;
    /** Row = entry number - 1: the protein's pairwise relations (orthologs, close paralogs, homoeologs). */
    relations: TableRef<Relation[]>;
    /**
     * Every directed pair of main isoforms, sorted by (genome of entry 1, genome of entry 2,
     * entry 1, entry 2); the pairs of two genomes are the row range `pairDirectory` gives.
     */
    pairs: TableRef<PairRow>;
    /** Row = genome index 1 · number of genomes + genome index 2: see GenomePairRow. */
    pairDirectory: TableRef<GenomePairRow>;
    /** HOG list items: root HOGs in family order, then per level every HOG on it (ranges in `hogLists`). */
    hogList: TableRef<HogListRow>;
    /** Row = family index - 1: the family's genomes and the families of the most similar genome profiles. */
    profiles: TableRef<FamilyProfile>;
    /** Row = family index - 1: GO annotations of the family's members, in member (tree) order. */
    familyGo: TableRef<FamilyGo>;
    /** Row = entry number - 1: the amino-acid sequence alone, for sequence search (no cDNA to carry). */
    peptides: TableRef<string>;
    /**
     * Row = family index - 1: the family's gene tree (GeneTreeRow). Only in releases compiled
     * with gene trees (OrthoFinder's Resolved_Gene_Trees); absent otherwise.
     */
    geneTrees?: TableRef<GeneTreeRow>;
    /** Row = genome index: its chromosomes and gene ranges. */
    genomeDetails: TableRef<GenomeDetail>;
  };
  /** k-mer postings of every protein sequence, for sequence search (see KmerShard). */
  sequenceIndex: SequenceIndexRef;
  /** Row ranges `[first, count]` of `tables.hogList`: the root HOGs, and the HOGs of each level index. */
  hogLists: { roots: [number, number]; levels: Array<[number, number]> };
  indexes: {
    /**
     * Canonical ids, UniProt accessions and entry names, cross-reference ids → entry numbers,
     * the smallest AMBIGUOUS_ENTRIES of them: two mean the id names several proteins.
     */
    entryIds: HashIndexRef<number[]>;
    /** Group fingerprints → group numbers. */
    fingerprints: HashIndexRef<number[]>;
    /** Every HOG id (root and sub-HOGs) → where it is (HogPlace). */
    hogIds: HashIndexRef<HogPlace>;
    /** GO term id → name, aspect and information content. */
    goTerms: HashIndexRef<GoTerm>;
    /**
     * Ids another tool gave the release's HOGs (OrthoFinder's `N1.HOG0000005`, `OG0000005`) →
     * the HOG they name (HogAlias). Only in releases compiled from such results; absent otherwise.
     */
    hogAliases?: HashIndexRef<HogAlias>;
  };
  /** Cross-reference search: every searchable id and a gram index over them (see XrefSearchRef). */
  xrefSearch: XrefSearchRef;
}

interface ReleaseCounts {
  genomes: number;
  proteins: number;
  groups: number;
  families: number;
  hogs: number;
}

/**
 * The species taxonomy as parallel arrays; a level's index is its id in every blob.
 * Species are levels too, named by their scientific name.
 */
export interface Taxonomy {
  names: string[];
  /** Parent level index; -1 for the root. */
  parents: number[];
  /** Genome index for a species level, -1 for internal levels. */
  genomes: number[];
  /**
   * Taxon id of each level: the genome's NCBI taxon id for a species; for an internal level the
   * number the species tree names it by (a tree labelled with taxon ids), else a negative id
   * `-(level index + 1)`, unique within the release (the tree gave no id).
   */
  taxonIds: number[];
}

export interface GenomeInfo {
  code: string;
  taxonId: number;
  species: string;
  /** Entry number of the genome's first protein; entries of a genome are contiguous. */
  firstEntry: number;
  nrEntries: number;
  /** The species' own level index in the taxonomy. */
  level: number;
  /** Main isoforms (genes) of the genome. */
  nrGenes: number;
  /** Subgenome letters of a polyploid genome (`["A", "B", "D"]`); [] for a diploid one. */
  subgenomes: string[];
}

/** Per-genome row (`genomeDetails` table): its chromosomes with the runs of entry numbers on each. */
export interface GenomeDetail {
  chromosomes: Array<{ id: string; entryRanges: Array<[number, number]> }>;
  /** Runs `[first, last]` of consecutive entry numbers of main isoforms (the genome's genes). */
  geneRanges: Array<[number, number]>;
}

/** A row table: chunks of consecutive rows, cut by bytes, keyed by their first row number. */
export interface TableRef<Row> {
  rows: number;
  tree: ChunkTree<number>;
  /**
   * The packs of the table's chunks, in the order it wrote them: present on a table whose
   * chunks other rows name directly (RowChunk: the families, their members, the HOG cards),
   * by their place in this list.
   */
  packs?: string[];
  /** Phantom field carrying the row type; never present at run time. */
  readonly __row?: Row;
}

/**
 * A chunk of a table named where a row is needed, so that no directory page is read to find it:
 * `[its first row, its pack's place in the table's \`packs\`, byte offset, byte length, hash
 * (HASH_BYTES)]`. The chunk naming it vouches for it, as a directory page does for its entries.
 */
export type RowChunk = [firstRow: number, pack: number, offset: number, length: number, hash: Uint8Array];

/**
 * Chunk content of a table: consecutive rows from `firstRow`, decoded with the chunk (`rows`) or
 * packed apart and decoded one by one (`packed`: the proteins, sequences, annotations and
 * family GO terms; release-format/rows.ts). Read them with rowOf, rowRange and rowCount.
 */
export type TableShard<Row> = PlainShard<Row> | { firstRow: number; packed: PackedRows; readonly __row?: Row };
/** A table chunk whose rows are decoded with it (the tables whose rows are not packed apart). */
export interface PlainShard<Row> {
  firstRow: number;
  rows: Row[];
}

/** A sorted key index: leaves cut by bytes, keyed by their first key (JavaScript string order). */
export interface KeyIndexRef<Value> {
  keys: number;
  tree: ChunkTree<string>;
  readonly __value?: Value;
}

/**
 * A hash index (release-format/slots.ts): key → value, for lookups by exact key. Its keys, in
 * JavaScript string order, are cut into runs of about equal bytes, the root of a slotted tree
 * (`stride` 0) keyed by each run's first key; a run of n buckets holds in bucket j the keys of
 * its range with `bucketOf(key, n)` = j, sorted (a KeyIndexLeaf). A lookup is one range read
 * whatever the release's size, and ids that sort together (one genome's canonical ids) lie in
 * one run, read in one range by a bulk lookup.
 */
export interface HashIndexRef<Value> {
  keys: number;
  /** Buckets in all. */
  buckets: number;
  tree: ChunkTree<string>;
  readonly __value?: Value;
}

/** Chunk content of a key-index leaf or hash bucket: parallel sorted keys and their values. */
export interface KeyIndexLeaf<Value> {
  keys: string[];
  values: Value[];
}

/** Locus on the genome: `[start, end, strand]`, 1-based inclusive; `[0, 0, 0]` when unknown. */
export type Locus = [number, number, number];

/**
 * What a protein summary needs, embedded wherever proteins are listed (group and HOG
 * members, genome pages) so that a list never reads one shard per member.
 */
export interface ProteinSummary {
  entry: number;
  canonicalId: string;
  md5: string;
  length: number;
  /** Group number, 0 = none. */
  group: number;
  /** The protein's deepest HOG id, "" = none. */
  hog: string;
  chromosome: string;
  locus: Locus;
  isMain: boolean;
}

/**
 * The tables whose chunks holding a protein's rows its proteins chunk names (ProteinShard):
 * `sequences`, `annotations` and `relations` (row = entry − 1), and `families` (its row's
 * `family` − 1). A protein's answer reads its proteins chunk anyway; what it reads besides
 * needs no directory page of those tables then, however deep their trees.
 */
export const BESIDE_TABLES = ["sequences", "annotations", "relations", "families"] as const;
export type BesideTable = (typeof BESIDE_TABLES)[number];

/**
 * Chunk content of the `proteins` table: its rows, and per BESIDE_TABLES table a level-0
 * directory page listing that table's chunks that hold rows of these proteins (and no other),
 * checked like any page: the proteins chunk's hash vouches for them.
 */
export type ProteinShard = TableShard<ProteinRow> & {
  beside: Record<BesideTable, DirectoryPage<number>>;
};

export interface ProteinRow extends ProteinSummary {
  /** Family index of the protein's root HOG, 0 = none. */
  family: number;
  /** Numeric part of the root HOG id, 0 = none. */
  rootHog: number;
  /** How many levels of the genome's lineage (species first) the family spans; 0 = none. */
  hogLevelCount: number;
  /** Entry numbers of every isoform of the protein's gene, itself included; [] for a single isoform. */
  isoforms: number[];
  /**
   * In a family with HOG cards (FORMAT.md, "HOG cards"), the rows of its HOG id's cards and of
   * its family root's (as HogPlace): its HOG is read from them, not from the family's tree.
   * Absent otherwise.
   */
  hogCards?: [number, number];
  /** CDS segments `[start, end]`. */
  exons: Array<[number, number]>;
  description: string;
}

export interface SequenceRow {
  sequence: string;
  cdna: string;
}

export interface GroupRow {
  nr: number;
  fingerprint: string;
  /** The most common description of its members ("" when none has one). */
  description: string;
  /** Members in entry-number order. */
  members: ProteinSummary[];
  /**
   * `[group number, hits]`: other groups that the members' pairwise orthologs fall into,
   * with how many ortholog pairs point there; most hits first, then by group number.
   */
  closeGroups: Array<[number, number]>;
}

/** Node kinds of a HOG tree: speciation (orthologGroup) or duplication (paralogGroup). */
export const SPECIATION = 0;
export const DUPLICATION = 1;

/**
 * One node of a HOG family in preorder. A node's members are the contiguous slice
 * `members[lo, hi)` of its family (members are stored in tree order).
 */
export interface HogNode {
  kind: typeof SPECIATION | typeof DUPLICATION;
  /** Parent node index, -1 for the root. */
  parent: number;
  lo: number;
  hi: number;
  /** Speciation nodes: the HOG id and the level it was written at. Duplications: "" and -1. */
  id: string;
  level: number;
  /**
   * Speciation nodes: every level on which this node stands for its HOG, most ancient first:
   * its own level plus the levels skipped between it and the nearest speciation above it.
   */
  levels: number[];
  /** CompletenessScore, or -1 when the input has none. */
  completeness: number;
}

/**
 * A HOG family: its tree and its members in tree order (a node's members are positions
 * `[lo, hi)`). The entry numbers are always here; the members' summaries are too for a family
 * of up to 128 members (the compiler's `familyInlineMembers`, ~110 bytes a summary: a 16 kB
 * chunk's worth), so one read answers its HOGs and orthologs. A wider
 * family keeps them in the `familyMembers` table instead (`members` null), so its row stays
 * small and a HOG's members are read as the run of rows its range names, not as the family.
 */
export interface FamilyRow {
  family: number;
  rootId: string;
  rootHog: number;
  /** The most common description of its members ("" when none has one). */
  description: string;
  nodes: HogNode[];
  /** Entry numbers of the members, in tree order. */
  entries: number[];
  /** The members' summaries in tree order; null for a wide family (see `firstMember`). */
  members: ProteinSummary[] | null;
  /** A wide family's first row in `familyMembers` (its member at position p is row firstMember + p); -1 when `members` holds them. */
  firstMember: number;
  /** A wide family's chunks of `familyMembers`, in order (its rows only: its members start a chunk): read with no directory page. */
  memberChunks?: RowChunk[];
}

/**
 * Members a HOG's answer reads at once: a larger HOG's stream in slices of this many. A HOG card
 * names the `familyMembers` chunks of its own records up to this size (HogCard `memberChunks`).
 */
export const MEMBER_SLICE = 512;

/**
 * Chunk content of the `annotations` table: its rows, and the name, aspect and information
 * content of every GO term they cite (sorted by id), so a protein's GO answer needs no lookup
 * in the `goTerms` index, whose leaves its terms would scatter over.
 */
export type AnnotationShard = TableShard<AnnotationRow> & {
  goTerms: KeyIndexLeaf<GoTerm>;
};

/** Cross-references, GO annotations and domains of one protein. */
export interface AnnotationRow {
  /** `[source, id]`. */
  xrefs: Array<[string, string]>;
  /** `[GO id, evidence code, reference, aspect letter]`. */
  go: Array<[string, string, string, "P" | "F" | "C"]>;
  /** `[source, domain id, name, start, end]`, 1-based inclusive. */
  domains: Array<[string, string, string, number, number]>;
}

/**
 * Relation types, by their code in blobs. Orthologs are typed from the first protein's side
 * (`1:n`: it has several co-orthologs in the other genome); the reverse pair has the
 * mirrored type. `close paralog` and `homeolog` relate proteins of one genome.
 */
export const REL_TYPES = ["1:1", "1:n", "m:1", "m:n", "close paralog", "homeolog"] as const;
export type RelType = (typeof REL_TYPES)[number];
export const HOMEOLOG = 5;

/** True for the ortholog types (`1:1` to `m:n`, codes 0 to 3); the others relate proteins of one genome. */
export const isOrthologType = (code: number): boolean => code >= 0 && code < 4;

/**
 * One relation of a protein: `[partner entry, relation type code, distance, score]`;
 * distance and score are null when the input gave none (relations derived from HOGs).
 */
export type Relation = [number, number, number | null, number | null];

/** One directed pair: `[entry 1, entry 2, relation type code, distance, score]`. */
export type PairRow = [number, number, number, number | null, number | null];

/**
 * What genome 1 shares with genome 2: `[first pairs row, pairs, genes of genome 1 in a HOG
 * family that has genes of genome 2, genes of genome 1 with a pairwise ortholog in genome 2]`.
 */
export type GenomePairRow = [number, number, number, number];

/** Families whose genome sets are closest (Jaccard) to a family's: `[family, root HOG id, Jaccard, genome indexes, levels of the root id]`. */
type SimilarProfile = [number, string, number, number[], number[]];

export interface FamilyProfile {
  /** Genome indexes with members in the family, ascending. */
  genomes: number[];
  /** At most 50, most similar first (ties by family index). */
  similar: SimilarProfile[];
}

export interface FamilyGo {
  /** `[GO id, name, aspect letter, information content]` of every term annotated to a member. */
  terms: Array<[string, string, "P" | "F" | "C", number]>;
  /** Per member (in the family's member order): indexes into `terms`. */
  members: number[][];
}

/**
 * One item of a HOG list: `[HOG id, root HOG number, description, completeness score
 * (-1 when unknown), number of genes, most ancient level of the id, most ancient level of
 * its family]`. The two levels let `compare_with` tell what happened to the HOG between
 * two levels without reading its family.
 */
export type HogListRow = [string, number, string, number, number, number, number];

/**
 * The sequence search index: for every k-mer of the 20 standard amino acids (`KMER_ALPHABET`,
 * code = the k-mer read as a base-20 number), the sorted entry numbers whose sequence holds it.
 * Chunks (KmerShard) cover consecutive code ranges of about `SEQUENCE_SHARD_BYTES`, keyed by
 * their first code.
 */
export interface SequenceIndexRef {
  k: number;
  /** Entries holding each k-mer, summed over k-mers (postings). */
  postings: number;
  tree: ChunkTree<number>;
}

export const KMER_ALPHABET = "ACDEFGHIKLMNPQRSTVWY";

/**
 * Blob content of a sequence index shard, as unsigned LEB128 varints: `codes` the k-mer codes
 * present, as gaps from the previous (the first from `firstCode`); `counts` the number of
 * entries of each; `entries` each k-mer's entry numbers as gaps from the previous (the first
 * from 0).
 */
export interface KmerShard {
  firstCode: number;
  codes: Uint8Array;
  counts: Uint8Array;
  entries: Uint8Array;
}

/**
 * Cross-reference search (`/api/xref/?search=`). `rows`: one XrefSearchRow per (id, entry) of
 * every searchable id (a protein's cross-references, its canonical id as `SourceID`, its orthid
 * as source `orthid`; of one id's sources the first in string order), sorted by (lower-cased
 * id, id, entry). `grams`: lower-cased gram → XrefGram. Every trigram (of code points) of a
 * lower-cased id is a key; a gram in more than `maxHits` rows is common: it keeps its count but
 * no postings, and the grams one character longer that extend it at the same place in an id
 * are keys too, up to `maxGram` characters. Leaves are cut by bytes of postings.
 */
export interface XrefSearchRef {
  /** A query with more hits answers 400; no gram with postings is in more rows than this. */
  maxHits: number;
  maxGram: number;
  /** Source names by code (XrefSearchRow's second field). */
  sources: string[];
  rows: TableRef<XrefSearchRow>;
  grams: KeyIndexRef<XrefGram>;
}

/** `[id, source code, entry number, seq_match code]`. */
export type XrefSearchRow = [string, number, number, number];

/** Codes of `seq_match` in XrefSearchRow. */
export const SEQ_MATCH_CODES = ["exact", "modified", "unchecked"] as const;

/** The source under which the search lists a protein's orthid. */
export const XREF_ORTHID_SOURCE = "orthid";

/**
 * `[rows holding the gram, postings]`: postings are the row numbers, ascending, as unsigned
 * LEB128 varints of the gaps from the previous (the first from 0); null for a common gram.
 */
export type XrefGram = [number, Uint8Array | null];

export interface GoTerm {
  name: string;
  aspect: "biological_process" | "molecular_function" | "cellular_component";
  /** Information content computed from this release's annotations. */
  ic: number;
}

/**
 * A family's gene tree: `[the id its input gave it (an OrthoFinder orthogroup), Newick text as
 * written there]`; null for a family without one.
 */
export type GeneTreeRow = [string, string] | null;

/**
 * What an alias names: `[family index, HOG id, level index, the family's chunk]`, the HOG of
 * that id on that level (the level a HOG route takes when its request gives none), followed in
 * a family with HOG cards by the id's CardPlace, as HogPlace.
 */
export type HogAlias = [...AliasTarget, RowChunk] | [...AliasTarget, RowChunk, ...CardPlace];

/** The HOG an alias names: `[family index, HOG id, level index]` (what the compiler derives; HogAlias adds where it is). */
export type AliasTarget = [family: number, hogId: string, level: number];

/**
 * Where a HOG id's cards are, in a family with HOG cards: `[row of the id's cards, row of its
 * family root's cards, the hogCards chunk of its card, the hogLevelCards chunk of its level
 * card, the hogCards chunk of its root's card]` (RowChunk: read with no directory page).
 */
export type CardPlace = [card: number, root: number, cardChunk: RowChunk, levelChunk: RowChunk, rootChunk: RowChunk];

/**
 * Where a HOG id is: `[family index, the families chunk of its row]`, in a family with HOG cards
 * followed by its CardPlace. Both read with no directory page.
 */
export type HogPlace = [number, RowChunk] | [number, RowChunk, ...CardPlace];

/**
 * The card rows of a HOG id in a family with HOG cards, and where the index named their chunks
 * (absent where the rows come from a protein's row: its proteins chunk is written beside the
 * cards, not after them).
 */
export interface HogCardRows {
  card: number;
  root: number;
  chunks?: { card: RowChunk; level: RowChunk; root: RowChunk };
}

/** The card rows and chunks a CardPlace names. */
function cardRows([card, root, cardChunk, levelChunk, rootChunk]: CardPlace): HogCardRows {
  return { card, root, chunks: { card: cardChunk, level: levelChunk, root: rootChunk } };
}

/** Where a HogPlace (or an alias after its HOG id and level) says a HOG id is. */
export interface HogWhere {
  family: number;
  /** The families chunk holding the family's row. */
  familyChunk: RowChunk;
  cards?: HogCardRows;
}

/** The family, its chunk and the card rows (if any) a HogPlace names. */
export function hogPlace([family, familyChunk, ...cards]: HogPlace): HogWhere {
  return { family, familyChunk, ...(cards.length ? { cards: cardRows(cards as CardPlace) } : {}) };
}

/**
 * The HOG records of one HOG id of a wide family, made by the compiler with the worker's own
 * functions (release-format/hog-tree.ts), so reading one needs nothing of the family's tree.
 */
export interface HogCard {
  family: number;
  rootId: string;
  rootHog: number;
  description: string;
  /** The family's first row in `familyMembers`, -1 when its row holds its members (FamilyRow). */
  firstMember: number;
  /**
   * The `familyMembers` chunks holding the members of the card's records of its own id of up to
   * MEMBER_SLICE members (none when the family's row holds its members), in order.
   */
  memberChunks: RowChunk[];
  /**
   * Every HOG id the records name, with every level it stands on, most ancient first (alternative
   * levels), and its own cards' row: where a level query on a level above the id asked reads an
   * ancestor's level card (FORMAT.md, "HOG cards"). In a level card, an ancestor of the card's
   * id (an id it extends) whose level card lies in an earlier chunk adds that chunk; one
   * without lies in this card's chunk.
   */
  ids: Array<[string, number[], number] | [string, number[], number, RowChunk]>;
  /**
   * `[id, level, completeness, parent ids, child ids, members]`, ids as indexes into `ids`,
   * members as runs `[lo, hi, lo, hi, …]` of their tree positions (one run for a node's HOG).
   */
  records: HogCardRecord[];
}

export type HogCardRecord = [number, number, number, number[], number[], number[]];
