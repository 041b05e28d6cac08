/**
 * Response shapes of the interface reference (section C) as JSON Schema 2020-12, the dialect
 * of OpenAPI 3.1. Records whose fields the contract fixes are closed (`additionalProperties:
 * false`) and list every field they always carry as `required`, so a validator catches an
 * extra or a missing key. Shapes that extend another (Protein record, orthologs, isoforms…)
 * spell out the union of properties instead of `allOf`, which cannot close a schema.
 */

export type Schema = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({ type: "array", items, ...extra });

/** A closed object: every listed property is required unless named in `optional`. */
function record(description: string, properties: Record<string, Schema>, optional: string[] = []): Schema {
  return {
    type: "object",
    description,
    properties,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    additionalProperties: false,
  };
}

const url = (description: string): Schema => ({ type: "string", format: "uri", description });
const nullableUrl = (description: string): Schema => ({ type: ["string", "null"], format: "uri", description });
const int = (description: string, extra: Schema = {}): Schema => ({ type: "integer", description, ...extra });
const num = (description: string, extra: Schema = {}): Schema => ({ type: "number", description, ...extra });
const str = (description: string, extra: Schema = {}): Schema => ({ type: "string", description, ...extra });

const REL_TYPES = ["1:1", "1:n", "m:1", "m:n"];
/** Pair measures: a float, or null when the release has none (relations derived from the HOGs, not read from a pairs file). */
const NO_ESTIMATE_OR = (what: string): Schema => ({
  type: ["number", "null"],
  description:
    `${what}; null when the release has none: relations derived from the HOGs of a release compiled without ` +
    "`--align-pairs` (which gives the Smith-Waterman score, BLOSUM62 with gaps 11 + k, and Kimura's substitutions per site of " +
    "the pair's local alignment), unless a pairs file gave them.",
});

/**
 * A locus the release does not know: a protein without a locus in the release's GFF files (or a
 * release without them) has `chromosome` "", `locus` {start: 0, end: 0, strand: 0} and no exons.
 */
const locus = record(
  "Genomic locus of the gene. Unknown for a protein without a locus in the release's GFF files (or a release without loci): then `start`, `end` and `strand` are all 0 (and `chromosome` is \"\").",
  {
    start: int("First base, 1-based; 0 when the locus is unknown.", { minimum: 0 }),
    end: int("Last base, inclusive; 0 when the locus is unknown.", { minimum: 0 }),
    strand: int("1 (forward) or -1 (reverse); 0 when the strand is unknown: the locus is unknown, or its GFF gave the strand as `.` or `?`.", {
      enum: [1, -1, 0],
    }),
  },
);

/** Protein summary (C.0), in emission order. */
const PROTEIN_SUMMARY: Record<string, Schema> = {
  entry_nr: int("Entry number, 1..N over the release.", { minimum: 1 }),
  entry_url: url("`{base}/protein/{entry_nr}/`."),
  orthid: str("Species code and the entry's 1-based index in its genome, e.g. `HUMAN00042`.", {
    pattern: "^[A-Z0-9]{5}[0-9]{5,}$",
  }),
  canonicalid: str("Identifier in the source database; may be empty."),
  sequence_md5: str("MD5 of the amino-acid sequence.", { pattern: "^[0-9a-f]{32}$" }),
  sequence_length: int("Number of amino acids.", { minimum: 0 }),
  species: ref("GenomeInfo"),
  orth_group: int("Group number; 0 = in no group.", { minimum: 0 }),
  orth_hog_id: str("Deepest HOG id of the protein; empty = in no HOG.", { pattern: "^(HOG:.+)?$" }),
  chromosome: str("Chromosome or contig name; \"\" when the locus is unknown."),
  locus: ref("Locus"),
  is_main_isoform: { type: "boolean", description: "True for the gene's main isoform." },
};

/** Protein record (C.0) = the summary, then these. */
const PROTEIN_RECORD: Record<string, Schema> = {
  ...PROTEIN_SUMMARY,
  roothog_id: int("Family number of the root HOG; 0 = in no HOG.", { minimum: 0 }),
  hog_levels: arrayOf({ type: "string" }, {
    description: "Levels of the lineage (species first, up to `LUCA`) on which the family exists; on each, `/hog/{orth_hog_id}/?level=` and its members answer the HOG containing the protein.",
  }),
  sequence: str("Amino-acid sequence."),
  cdna: str("Coding nucleotide sequence."),
  description: str("Free-text protein description; may be empty."),
  domains: url("`{base}/protein/{entry_nr}/domains/`."),
  xref: url("`{base}/protein/{entry_nr}/xref/`."),
  orthologs: url("`{base}/protein/{entry_nr}/orthologs/`."),
  gene_ontology: url("`{base}/protein/{entry_nr}/gene_ontology/`."),
  homoeologs: nullableUrl("`{base}/protein/{entry_nr}/homoeologs/`; null unless the genome is polyploid."),
  orth_group_url: nullableUrl("`{base}/group/{orth_group}/`; null when `orth_group` is 0."),
  orth_hog_members: nullableUrl("`{base}/hog/{orth_hog_id}/members/`; null when there is no HOG."),
  isoforms: url("`{base}/protein/{entry_nr}/isoforms/`."),
  alternative_isoforms_urls: arrayOf(url("`entry_url` of another isoform of the same gene."), {
    description: "The other isoforms of the gene; empty if none.",
  }),
};

const CHILD_HOG: Record<string, Schema> = {
  hog_id: str("HOG id.", { pattern: "^HOG:" }),
  levels_url: url("`{base}/hog/{hog_id}/` (no `level`)."),
  members_url: url("`{base}/hog/{hog_id}/members/` (no `level`)."),
  alternative_levels: arrayOf({ type: "string" }, { description: "Every level on which a group of the HOG tree carries this id, most ancient first (nearer the root of the taxonomy first; levels as near the root in the taxonomy's order)." }),
};

const HOG_LIST_ITEM: Record<string, Schema> = {
  hog_id: str("HOG id.", { pattern: "^HOG:" }),
  level: str("`root`, or the level asked for."),
  levels_url: url("`{base}/hog/{hog_id}/?level={level}`."),
  members_url: url("`{base}/hog/{hog_id}/members/?level={level}`."),
  roothog_id: int("Family number.", { minimum: 1 }),
  description: str("Description most members share; may be empty."),
  similar_profile_hogs: url("`{base}/hog/{hog_id}/similar_profile_hogs/`."),
  completeness_score: num("Share of the level's genomes with a member, 0..1 (with `level` only).", { minimum: 0, maximum: 1 }),
  nr_genes: int("Number of member genes (with `level` only).", { minimum: 0 }),
  event: str("What happened between `compare_with` and `level` (with `compare_with` only).", {
    examples: ["retained", "duplicated", "gained", "lost"],
  }),
};

const GO_TERM: Record<string, Schema> = {
  GO_term: str("GO term id.", { pattern: "^GO:[0-9]{7}$" }),
  name: str("GO term name."),
  aspect: str("GO aspect.", { enum: ["molecular_function", "biological_process", "cellular_component"] }),
  ic: num("Information content of the term."),
};

const XREF: Record<string, Schema> = {
  xref: str("The cross-reference id."),
  source: str("Source database, e.g. `UniProtKB/SwissProt`."),
  seq_match: str("How the source's sequence matches the entry's.", { enum: ["exact", "modified", "unchecked"] }),
  entry_nr: int("Entry number.", { minimum: 1 }),
  orthid: str("orthid of the entry."),
};

const TAXON_REF = record("A taxon.", { name: str("Scientific name."), taxon_id: int("Taxon id.") });

export const SCHEMAS: Record<string, Schema> = {
  Error: record("Every error body.", { detail: str("What went wrong.") }),
  Gone: record(
    "A HOG id of another release (410).",
    {
      detail: str("`ID {id} is no longer valid.`"),
      replacement_ids: arrayOf(record("A HOG of this release that replaces the id.", { hog_id: str("HOG id."), jaccard: num("Jaccard similarity of the member sets.") })),
    },
    ["replacement_ids"],
  ),
  ErrorList: arrayOf({ type: "string" }, {
    description: 'The one error that is a list: `["Query too unspecific. Matches >{N} elements"]` (xref search).',
    minItems: 1,
  }),
  ApiRoot: {
    type: "object",
    description: "Resource names mapped to their absolute list URLs.",
    properties: Object.fromEntries(
      ["protein", "group", "version", "xref", "genome", "hog", "taxonomy", "synteny"].map((k) => [k, url(`List URL of \`${k}\`.`)]),
    ),
    required: ["protein", "group", "version", "xref", "genome", "hog", "taxonomy", "synteny"],
    additionalProperties: url("List URL of a further resource."),
  },
  Version: record("Release and interface version.", {
    orth_version: str("Release name, e.g. `All.Jul2024`; clients invalidate caches when it changes."),
    api_version: str("Interface version: the newest, which `Accept: application/json; version=…` can lower.", { examples: ["1.11"] }),
    field_names: str(
      "Naming profile of the release: `orth`, the neutral names, or `oma`, the original interface's names (of JSON fields, the pairs table header, SOAP operations, parts and namespace). This document uses the release's.",
      { enum: ["orth", "oma"] },
    ),
  }),
  GenomeInfo: record("Genome info (GI).", {
    code: str("Species code.", { maxLength: 5, minLength: 1 }),
    taxon_id: int("NCBI taxon id."),
    species: str("Scientific name."),
    genome_url: url("`{base}/genome/{code}/`."),
  }),
  Genome: record("Genome detail (no `genome_url`).", {
    code: str("Species code.", { maxLength: 5, minLength: 1 }),
    taxon_id: int("NCBI taxon id."),
    species: str("Scientific name."),
    nr_entries: int("Number of protein entries, isoforms included.", { minimum: 0 }),
    lineage: arrayOf({ type: "string" }, { description: "Level names from the species up to the root.", minItems: 1 }),
    proteins: url("`{base}/genome/{code}/proteins/`."),
    chromosomes: arrayOf(
      record("A chromosome and the runs of consecutive entry numbers on it.", {
        id: str("Chromosome id (as `chr1`/`chr2` of the pairs endpoint)."),
        entry_ranges: arrayOf(
          { type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], minItems: 2, maxItems: 2, items: false },
          { description: "`[first, last]` entry numbers, inclusive." },
        ),
      }),
    ),
  }),
  Locus: locus,
  Exon: record("One exon.", {
    start: int("First base, 1-based."),
    end: int("Last base, inclusive."),
    strand: int("The gene's strand: 1 or -1; 0 when its GFF gave the strand as `.` or `?`.", { enum: [1, -1, 0] }),
  }),
  ProteinSummary: record("Protein summary (PS).", PROTEIN_SUMMARY),
  ProteinRecord: record("Protein record (PR): the summary, then sequences, levels and links.", PROTEIN_RECORD),
  BulkResult: record("One requested id and what it resolved to (version ≥ 1.7).", {
    query_id: str("The id as sent, turned into a string."),
    target: { oneOf: [ref("ProteinRecord"), { type: "null" }], description: "null for an unknown or ambiguous id." },
  }),
  DownloadItem: record("A release-wide file.", {
    name: str("File name, e.g. `HUMAN.fa.gz` or `hogs/Mammalia.tsv.gz`."),
    url: str("Absolute URL of the file.", { format: "uri" }),
    format: str("`fasta+gzip`, `tsv+gzip` or `orthoxml+gzip`."),
    description: str("What the file holds."),
  }),
  OrthologsBulkResult: record("One requested id and its pairwise orthologs.", {
    query_id: str("The id as sent, turned into a string."),
    orthologs: { oneOf: [arrayOf(ref("Ortholog")), { type: "null" }], description: "As the orthologs endpoint lists them; null for an unknown or ambiguous id." },
  }),
  BulkRequest: {
    description: "`{\"ids\": [...]}` or the bare list; ids are strings or integers, at most 1000. Other keys of the object are ignored (OMA's R client sends `auto_unbox`).",
    oneOf: [
      {
        type: "object",
        properties: { ids: arrayOf({ type: ["string", "integer"] }, { maxItems: 1000 }) },
        // Without `ids` the service answers 404 "No results found".
      },
      arrayOf({ type: ["string", "integer"] }, { maxItems: 1000 }),
    ],
  },
  Ortholog: record("A pairwise ortholog: the partner's summary plus the relation.", {
    ...PROTEIN_SUMMARY,
    rel_type: str("Relation seen from the query's side: `1:n` when one gene of the query's genome (the query) stands against several of the partner's; the reverse pair has the mirrored type.", { enum: REL_TYPES }),
    distance: NO_ESTIMATE_OR("Evolutionary distance estimate"),
    score: NO_ESTIMATE_OR("Alignment score"),
  }),
  HogDerivedOrtholog: record("An ortholog implied by the HOGs: a protein of another genome in the query's HOG at the level of the two genomes' most recent common ancestor.", {
    ...PROTEIN_SUMMARY,
    rel_type: str("Relation seen from the query's side: `1:n` when one gene of the query's genome (the query) stands against several of the partner's; the reverse pair has the mirrored type.", { enum: REL_TYPES }),
  }),
  GoAnnotation: record("A GO annotation of a protein.", {
    id: str("orthid of the protein."),
    ...GO_TERM,
    entry_nr: int("Entry number.", { minimum: 1 }),
    evidence: str("Evidence code, e.g. `IEA`."),
    reference: str("Reference of the annotation."),
  }),
  HogGoAnnotation: record("A GO annotation of a HOG.", {
    id: str("HOG id."),
    ...GO_TERM,
    score: num("Enrichment score."),
  }),
  Domains: record("Domain architecture.", {
    seq_id: str("`sequence_md5` of the protein.", { pattern: "^[0-9a-f]{32}$" }),
    length: int("Sequence length.", { minimum: 0 }),
    regions: arrayOf(
      record("A domain; with no known domain, one `n/a` placeholder spanning 10%–90% of the sequence.", {
        source: str("e.g. `CATH`, or `n/a`."),
        domainid: str("e.g. `1.10.490.10`, or `n/a`."),
        name: str("Domain name, or `n/a`."),
        location: str("`start:end`, 1-based.", { pattern: "^[0-9]+:[0-9]+$" }),
      }),
      { minItems: 1 },
    ),
  }),
  Isoform: record("An isoform of the gene: a summary whose `locus` is the list of exons.", {
    ...PROTEIN_SUMMARY,
    locus: arrayOf(ref("Exon"), { description: "The exons, in order; [] when the locus is unknown." }),
    nr_exons: int("Number of exons.", { minimum: 0 }),
  }),
  Xref: record("A cross-reference of a protein.", XREF),
  XrefSearchItem: record("A cross-reference found by the xref search.", { ...XREF, genome: ref("GenomeInfo") }),
  GroupListItem: record("A group of the group list.", {
    orth_group: int("Group number.", { minimum: 1 }),
    group_url: url("`{base}/group/{orth_group}/`."),
  }),
  Group: record("An orthologous group.", {
    group_nr: int("Group number.", { minimum: 1 }),
    fingerprint: str("Seven upper-case letters; usable as the group id.", { pattern: "^[A-Z]{7}$" }),
    description: str("Description most members share; may be empty."),
    related_groups: url("`{base}/group/{group_nr}/close_groups/`."),
    members: arrayOf(ref("ProteinSummary")),
  }),
  NoGroup: { type: "object", description: "`{}`: the id is a protein in no group.", properties: {}, additionalProperties: false },
  GroupRecord: { description: "A group, or `{}` for a protein in no group.", oneOf: [ref("Group"), ref("NoGroup")] },
  CloseGroup: record("A group ranked by the ortholog pairs pointing into it.", {
    orth_group: int("Group number.", { minimum: 1 }),
    group_url: url("`{base}/group/{orth_group}/`."),
    hits: int("Ortholog pairs from the query group's members into this group.", { minimum: 1 }),
  }),
  ChildHog: record("A parent or child HOG: no `level`, level-less URLs.", CHILD_HOG),
  HogRecord: record(
    "A HOG on one level.",
    {
      hog_id: str("HOG id.", { pattern: "^HOG:" }),
      level: str("The level of this record."),
      levels_url: url("`{base}/hog/{hog_id}/?level={level}`."),
      members_url: url("`{base}/hog/{hog_id}/members/?level={level}`."),
      alternative_levels: arrayOf({ type: "string" }, {
        description: `Other levels on which a group of the HOG tree carries the same id, most ancient first (nearer the root of the taxonomy first; levels as near the root in the taxonomy's order); omitted when none. The levels below a gene's deepest group down to its species, where the id also stands, are not listed.`,
        minItems: 1,
      }),
      roothog_id: int("Family number.", { minimum: 1 }),
      completeness_score: num("Share of the level's genomes with a member, 0..1.", { minimum: 0, maximum: 1 }),
      description: str("Description most members share; may be empty."),
      similar_profile_hogs: url("`{base}/hog/{hog_id}/similar_profile_hogs/`."),
      parent_hogs: arrayOf(ref("ChildHog"), { description: "Ids that are strict prefixes of this id." }),
      children_hogs: arrayOf(ref("ChildHog"), { description: "Ids that extend this id; `[]` below a gene's deepest group (e.g. on its species)." }),
    },
    ["alternative_levels"],
  ),
  HogListItem: record("A HOG of the HOG list.", HOG_LIST_ITEM, ["completeness_score", "nr_genes", "event"]),
  HogMembers: record("The members of a HOG on a level.", {
    hog_id: str("The HOG the members form on `level` (an ancestral id for a more ancient level).", { pattern: "^HOG:" }),
    level: str("Level name."),
    members: arrayOf(ref("ProteinSummary")),
  }),
  SimilarProfileHogs: record("HOGs whose gene presence profile is similar.", {
    ...HOG_LIST_ITEM,
    in_species: arrayOf({ type: "string" }, { description: "Species codes with a member." }),
    similar_profile_hogs: arrayOf(
      record("A similar HOG.", {
        ...CHILD_HOG,
        in_species: arrayOf({ type: "string" }),
        jaccard_similarity: num("Jaccard similarity of the profiles.", { minimum: 0, maximum: 1 }),
      }),
    ),
  }, ["completeness_score", "nr_genes", "event"]),
  PairEntry: record("One side of a pair: a protein summary plus the requested cross-references.", {
    ...PROTEIN_SUMMARY,
    xrefs: {
      type: ["object", "null"],
      additionalProperties: { type: "string" },
      description: "null without the `xrefs` parameter; else each requested source mapped to an id (`\"\"` if none).",
    },
  }),
  Pair: record("A pairwise relation between two genomes.", {
    entry_1: ref("PairEntry"),
    entry_2: ref("PairEntry"),
    rel_type: str("Relation from entry_1's side; `close paralog` and `homeolog` within one genome.", {
      enum: [...REL_TYPES, "close paralog", "homeolog"],
    }),
    distance: NO_ESTIMATE_OR("Evolutionary distance estimate"),
    score: NO_ESTIMATE_OR("Alignment score"),
    orth_group: {
      description: 'The shared group number when both are in the same non-zero group, else `""`.',
      oneOf: [{ type: "integer", minimum: 1 }, { const: "" }],
    },
  }),
  PairsMinimal: record("Pairs as entry numbers only.", {
    pairs: arrayOf({ type: "array", prefixItems: [{ type: "integer" }, { type: "integer" }], minItems: 2, maxItems: 2, items: false }),
  }),
  SequenceTarget: record(
    "A protein record found by sequence; approximate hits carry the alignment.",
    {
      ...PROTEIN_RECORD,
      alignment_score: num("Smith-Waterman score (approximate hits)."),
      alignment: arrayOf({ type: "string" }, { description: "Gapped query and target (approximate hits).", minItems: 2, maxItems: 2 }),
    },
    ["alignment_score", "alignment"],
  ),
  SequenceSearch: record("Result of a sequence search.", {
    query: str("The query as searched: upper-cased, every character outside `ACDEFGHIKLMNPQRSTVWXY` dropped."),
    identified_by: str("The last strategy tried.", { enum: ["exact match", "approximate match"] }),
    targets: arrayOf(ref("SequenceTarget")),
  }),
  FunctionAnnotation: record(
    "A GAF 2.0-like annotation of the query sequence, transferred from an exact or approximate match (`With`).",
    Object.fromEntries(
      [
        ["DB", "`orth_FastMap`"],
        ["Qualifier", "Qualifier; usually empty."],
        ["GO_ID", "GO term id."],
        ["DB:Reference", "e.g. `orth_Fun:002`."],
        ["Evidence", "Evidence code, e.g. `IEA`."],
        ["With", "`Exact:{orthid}` or `Approx:{orthid}:{score}`."],
        ["Aspect", "`F`, `P` or `C`."],
        ["DB_Object_Name", "Usually empty."],
        ["Synonym", "Usually empty."],
        ["DB_Object_Type", "`protein`."],
        ["Date", "`YYYYMMDD`."],
        ["Assigned_By", "`orth_FastMap`."],
        ["GO_name", "GO term name."],
      ].map(([k, d]) => [k, str(d, k === "Aspect" ? { enum: ["F", "P", "C"] } : k === "Date" ? { pattern: "^[0-9]{8}$" } : {})]),
    ),
  ),
  TaxonomyNode: {
    type: "object",
    description: "A level of the taxonomy; leaves (genomes) carry `code` and no `children`.",
    properties: {
      name: str("Scientific name; `<name> (disambiguate <CODE>)` for a genome that is also an inner level."),
      id: int("Taxon id."),
      code: str("Species code (leaves)."),
      children: arrayOf(ref("TaxonomyNode"), { minItems: 1 }),
    },
    required: ["name", "id"],
    additionalProperties: false,
  },
  TaxonomyNewick: record("The taxonomy as Newick.", { root_taxon: TAXON_REF, newick: str("Newick text; spaces become `_`.") }),
  TaxonomyPhyloxml: record("The taxonomy as PhyloXML (version 1.11).", { root_taxon: TAXON_REF, phyloxml: str("PhyloXML document.") }),
  SharedAncestry: record(
    "Shared ancestry of two genomes.",
    {
      fraction: num("Fraction of shared genes.", { minimum: 0, maximum: 1 }),
      details: arrayOf(
        record("Per genome.", { species: str("Species code."), nr_genes: int("Genes."), nr_orthologs: int("Genes with an ortholog in the other genome.") }),
        { minItems: 2, maxItems: 2 },
      ),
      mrca: record("Most recent common ancestor (`type=hogs` only).", { taxon_id: int("Taxon id."), name: str("Level name.") }),
    },
    ["mrca"],
  ),
  OpenApiDocument: {
    type: "object",
    description: "This OpenAPI 3.1 document.",
    required: ["openapi", "info", "paths"],
    properties: {
      openapi: { type: "string", pattern: "^3\\.1\\." },
      info: { type: "object" },
      servers: { type: "array", items: { type: "object" }, minItems: 1 },
      paths: { type: "object" },
    },
  },
};
