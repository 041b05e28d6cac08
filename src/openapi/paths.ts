/**
 * The endpoints of the interface reference (C.1–C.7) as OpenAPI path items, relative to the
 * server `{origin}/api` (the OrthoXML export also lives outside it, under `/orth/`).
 */
import { arrayOf, ref, type Schema } from "./schemas.js";
import { COMMON_HEADERS, HEADERS, PAGE_HEADERS } from "./parameters.js";

const RESPONSE_BY_STATUS: Record<number, string> = {
  400: "BadRequest",
  404: "NotFound",
  406: "NotAcceptable",
  410: "Gone",
  413: "ContentTooLarge",
  415: "UnsupportedMediaType",
  416: "RangeNotSatisfiable",
  503: "Unavailable",
};

interface Operation {
  id: string;
  tag: string;
  summary: string;
  description: string;
  /** Names of `components.parameters`. */
  params?: string[];
  /** The 200 response. */
  ok: Schema;
  /** Error statuses besides the 404, 406 and 503 every operation can answer. */
  errors?: number[];
  deprecated?: boolean;
  requestBody?: Schema;
  /** Responses that differ from the shared ones, by status. */
  special?: Record<string, Schema>;
}

function operation(o: Operation): Schema {
  const responses: Record<string, Schema> = { "200": o.ok };
  for (const status of [...new Set([...(o.errors ?? []), 404, 406, 503])].sort((a, b) => a - b)) {
    responses[String(status)] = { $ref: `#/components/responses/${RESPONSE_BY_STATUS[status]}` };
  }
  Object.assign(responses, o.special);
  return {
    operationId: o.id,
    tags: [o.tag],
    summary: o.summary,
    description: o.description,
    ...(o.deprecated ? { deprecated: true } : {}),
    ...(o.params?.length ? { parameters: o.params.map((p) => ({ $ref: `#/components/parameters/${p}` })) } : {}),
    ...(o.requestBody ? { requestBody: o.requestBody } : {}),
    responses,
  };
}

const get = (o: Operation): Schema => ({ get: operation(o) });

const json = (description: string, schema: Schema): Schema => ({
  description,
  headers: COMMON_HEADERS,
  content: { "application/json": { schema } },
});
const page = (description: string, items: Schema): Schema => ({
  description: `${description} One page; see \`Link\` and \`X-Total-Count\`.`,
  headers: PAGE_HEADERS,
  content: { "application/json": { schema: arrayOf(items) } },
});
const xml = (description: string): Schema => ({
  description,
  headers: COMMON_HEADERS,
  content: { "application/xml": { schema: { type: "string" } } },
});

/** A streamed file named with the release in `Content-Disposition`. */
const DOWNLOAD_HEADERS = {
  ...COMMON_HEADERS,
  "Content-Disposition": { description: "`attachment; filename=\"{release}_{name}\"`.", schema: { type: "string" } },
  "Accept-Ranges": { $ref: "#/components/headers/Accept-Ranges" },
};
const download = (description: string, type: string): Schema => ({
  description,
  headers: DOWNLOAD_HEADERS,
  content: { [type]: { schema: { type: "string", format: "binary" } } },
});

const RANGES =
  "`Range` is honoured where the store allows: once the whole file is in the edge cache, one byte range (`bytes=a-b`, `bytes=a-`, " +
  "`bytes=-n`) → 206 with `Content-Range` and the whole file's `Content-Type`, `Content-Disposition`, `ETag` and cache headers; a first " +
  "byte at or beyond the end → 416. Until the file is cached (the first GET stores it), and for several ranges or a malformed `Range`, " +
  "the whole file (200). `If-Range` with the file's `ETag` is honoured; `Accept-Ranges: bytes` says a range can be served.";

/** A download file: whole (200), or one byte range of it once the whole file is in the edge cache (206, 416). */
const file = (o: Operation & { type: string }): Schema =>
  get({
    ...o,
    description: `${o.description} ${RANGES}`,
    params: [...(o.params ?? []), "range", "if_range"],
    errors: [...(o.errors ?? []), 416],
    special: {
      "206": {
        description: "One byte range of the file, from the edge cache.",
        headers: { ...DOWNLOAD_HEADERS, "Content-Range": { $ref: "#/components/headers/Content-Range" } },
        content: { [o.type]: { schema: { type: "string", format: "binary" } } },
      },
    },
  });

const PAGED = ["page", "per_page", "format"];

const orthoxml = (id: string, augmented: boolean): Schema =>
  get({
    id,
    tag: "HOGs",
    summary: augmented ? "HOG as OrthoXML, with sub-HOG ids" : "HOG as OrthoXML",
    description:
      "OrthoXML 0.5 (namespace `http://orthoXML.org/2011/`) of the root HOG that contains `hog_id`: `<species>` blocks with `<gene id=\"{entry_nr}\" protId=\"{orthid}\">`, " +
      "and nested `<orthologGroup id=\"{hog_id}\">` (with a `TaxRange` property) and `<paralogGroup>`." +
      (augmented ? " The augmented form names the sub-HOG id on every level." : ""),
    params: ["hog_id"],
    ok: xml("OrthoXML document."),
    errors: [410],
  });

/** The OrthoXML export also answers outside `/api/`, where client libraries build its path. */
const outsideApi = (root: string, item: Schema): Schema => ({
  servers: [{ url: root, description: "The server root (outside `/api`)." }],
  ...item,
});

export function paths(root: string): Record<string, Schema> {
  return {
    "/": get({
      id: "apiRoot",
      tag: "Service",
      summary: "Resource list",
      description: "Resource names mapped to their absolute list URLs.",
      params: ["format"],
      ok: json("The resource list.", ref("ApiRoot")),
    }),
    "/version/": get({
      id: "readVersion",
      tag: "Service",
      summary: "Release and interface version",
      description: "The release served (`orth_version`) and the interface version. Clients use it to invalidate caches.",
      params: ["format"],
      ok: json("Versions.", ref("Version")),
    }),
    "/schema/": get({
      id: "readSchema",
      tag: "Service",
      summary: "This OpenAPI document",
      description: "The OpenAPI 3.1 document of the REST interface; `servers` is the origin the request came in on.",
      ok: {
        description: "OpenAPI 3.1 document.",
        headers: COMMON_HEADERS,
        content: {
          "application/json": { schema: ref("OpenApiDocument") },
          "application/vnd.oai.openapi+json": { schema: ref("OpenApiDocument") },
        },
      },
    }),
    "/docs/": get({
      id: "readDocs",
      tag: "Service",
      summary: "Documentation page",
      description: "This document as a self-contained HTML page, with example requests on this server.",
      ok: { description: "HTML page.", headers: COMMON_HEADERS, content: { "text/html": { schema: { type: "string" } } } },
    }),

    // C.1 Proteins
    "/protein/{entry_id}/": get({
      id: "readProtein",
      tag: "Proteins",
      summary: "Protein record",
      description: "A protein by entry number, orthid, canonical id or cross-reference (B).",
      params: ["entry_id", "format"],
      ok: json("The Protein record.", ref("ProteinRecord")),
    }),
    "/protein/bulk_retrieve/": {
      post: operation({
        id: "bulkRetrieveProteins",
        tag: "Proteins",
        summary: "Several proteins at once",
        description:
          "Body `{\"ids\": [...]}` or the bare list; ids are strings or integers, at most 1000 (else 400 " +
          "`POST request exceeded max number of ids. Please limit to 1000`). A body without `ids` → 404 `No results found`. " +
          "The answer depends on the interface version the `Accept` header names: from 1.7 (the default), one `{query_id, target}` per id in request " +
          "order, `target` null for an unknown or ambiguous id; up to 1.6 (`Accept: application/json; version=1.6`), a plain " +
          "list of the records that resolved, in request order. Also answered without the trailing slash (a redirect would lose the body). " +
          "`Allow: POST, OPTIONS`; GET → 405.",
        params: ["format"],
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: ref("BulkRequest"),
              examples: { object: { value: { ids: ["HUMAN00001", 2, "NOPE"] } }, list: { value: ["HUMAN00001", 2] } },
            },
          },
        },
        ok: {
          description: "One result per id (version ≥ 1.7), or the records that resolved (version ≤ 1.6).",
          headers: COMMON_HEADERS,
          content: {
            "application/json": { schema: arrayOf(ref("BulkResult")) },
            "application/json; version=1.6": { schema: arrayOf(ref("ProteinRecord")) },
          },
        },
        errors: [400, 413, 415],
      }),
    },
    "/protein/orthologs/bulk_retrieve/": {
      post: operation({
        id: "bulkRetrieveOrthologs",
        tag: "Proteins",
        summary: "The orthologs of several proteins at once",
        description:
          "Body as for the protein bulk retrieve (`{\"ids\": [...]}` or the bare list, at most 1000 ids). One `{query_id, orthologs}` " +
          "per id in request order, each list as `/protein/{entry_id}/orthologs/` answers it with the same `rel_type`, " +
          "`target_species` and `target_level`; `orthologs` null for an unknown or ambiguous id. Also answered without the " +
          "trailing slash. `Allow: POST, OPTIONS`; GET → 405.",
        params: ["rel_type", "target_species", "target_level", "format"],
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref("BulkRequest"), examples: { object: { value: { ids: ["HUMAN00001", 2] } } } } },
        },
        ok: json("One result per id.", arrayOf(ref("OrthologsBulkResult"))),
        errors: [400, 413, 415],
      }),
    },
    "/protein/{entry_id}/orthologs/": get({
      id: "listProteinOrthologs",
      tag: "Proteins",
      summary: "Pairwise orthologs",
      description: "The pairwise (graph-based) orthologs of the protein, by the partner's entry number; `rel_type` (`1:1`, `1:n`, `m:1`, `m:n`) seen from the query's side: `1:n` when one gene of the query's genome (the query) stands against several of the partner's.",
      params: ["entry_id", "rel_type", "target_species", "target_level", "format"],
      ok: json("Orthologs.", arrayOf(ref("Ortholog"))),
    }),
    "/protein/{entry_id}/hog_derived_orthologs/": get({
      id: "listProteinHogDerivedOrthologs",
      tag: "Proteins",
      summary: "HOG-derived orthologs",
      description: "The orthologs implied by the HOG structure: the proteins of other genomes sharing a HOG with the query at the level of the two genomes' most recent common ancestor, with `rel_type` from the number of genes of each genome in that HOG (`1:1`, `1:n`, `m:1`, `m:n`, seen from the query's side).",
      params: ["entry_id", "rel_type", "target_species", "target_level", "format"],
      ok: json("Orthologs.", arrayOf(ref("HogDerivedOrtholog"))),
    }),
    "/protein/{entry_id}/homoeologs/": get({
      id: "listProteinHomoeologs",
      tag: "Proteins",
      summary: "Homoeologs",
      description: "In-genome partners related as homoeologs. A genome that is not polyploid → 404 `query protein does not belong to a polyploid genome`.",
      params: ["entry_id", "format"],
      ok: json("Homoeologs.", arrayOf(ref("ProteinSummary"))),
    }),
    "/protein/{entry_id}/gene_ontology/": get({
      id: "listProteinGeneOntology",
      tag: "Proteins",
      summary: "GO annotations",
      description: "GO annotations by aspect, then by information content descending; `[]` when none.",
      params: ["entry_id", "format"],
      ok: json("Annotations.", arrayOf(ref("GoAnnotation"))),
    }),
    "/protein/{entry_id}/ontology/": get({
      id: "listProteinOntology",
      tag: "Proteins",
      summary: "GO annotations (deprecated alias)",
      description: "The same as `gene_ontology`.",
      params: ["entry_id", "format"],
      ok: json("Annotations.", arrayOf(ref("GoAnnotation"))),
      deprecated: true,
    }),
    "/protein/{entry_id}/domains/": get({
      id: "readProteinDomains",
      tag: "Proteins",
      summary: "Domains",
      description: "Domain architecture; with no known domain, one `n/a` region spanning 10%–90% of the sequence.",
      params: ["entry_id", "format"],
      ok: json("Domains.", ref("Domains")),
    }),
    "/protein/{entry_id}/isoforms/": get({
      id: "listProteinIsoforms",
      tag: "Proteins",
      summary: "Isoforms of the gene",
      description: "All isoforms of the protein's gene, the queried one included, each with its exons.",
      params: ["entry_id", "format"],
      ok: json("Isoforms.", arrayOf(ref("Isoform"))),
    }),
    "/protein/{entry_id}/xref/": get({
      id: "listProteinXrefs",
      tag: "Proteins",
      summary: "Cross-references",
      description: "Cross-references of the protein.",
      params: ["entry_id", "filter", "format"],
      ok: json("Cross-references.", arrayOf(ref("Xref"))),
      errors: [400],
    }),

    // C.2 Groups
    "/group/": get({
      id: "listGroups",
      tag: "Groups",
      summary: "Orthologous groups",
      description: "Groups 1..N in order.",
      params: PAGED,
      ok: page("Groups.", ref("GroupListItem")),
      errors: [400],
    }),
    "/group/{group_id}/": get({
      id: "readGroup",
      tag: "Groups",
      summary: "Orthologous group",
      description: "A group by number, fingerprint or member; `{}` for a protein in no group.",
      params: ["group_id", "format"],
      ok: json("The group, or `{}`.", ref("GroupRecord")),
    }),
    "/group/{group_id}/close_groups/": get({
      id: "listCloseGroups",
      tag: "Groups",
      summary: "Closely related groups",
      description:
        "Groups hit by the pairwise orthologs of the members, by hits descending, then group number. " +
        "A protein in no group → `[]` without pagination headers.",
      params: ["group_id", ...PAGED],
      ok: {
        ...page("Related groups.", ref("CloseGroup")),
        headers: { ...PAGE_HEADERS, "X-Total-Count": { ...HEADERS["X-Total-Count"], required: false } },
      },
      errors: [400],
    }),

    // C.3 Genomes
    "/genome/": get({
      id: "listGenomes",
      tag: "Genomes",
      summary: "Genomes",
      description: "All genomes of the release, in release order.",
      params: PAGED,
      ok: page("Genomes.", ref("GenomeInfo")),
      errors: [400],
    }),
    "/genome/{genome_id}/": get({
      id: "readGenome",
      tag: "Genomes",
      summary: "Genome",
      description: "A genome with its lineage and chromosomes.",
      params: ["genome_id", "format"],
      ok: json("The genome.", ref("Genome")),
    }),
    "/genome/{genome_id}/proteins/": get({
      id: "listGenomeProteins",
      tag: "Genomes",
      summary: "Proteins of a genome",
      description: "All entries of the genome, alternative isoforms included, by entry number.",
      params: ["genome_id", ...PAGED],
      ok: page("Proteins.", ref("ProteinSummary")),
      errors: [400],
    }),
    "/genome/{genome_id}/genes/": get({
      id: "listGenomeGenes",
      tag: "Genomes",
      summary: "Genes of a genome",
      description: "The main isoforms of the genome, by entry number.",
      params: ["genome_id", ...PAGED],
      ok: page("Main isoforms.", ref("ProteinSummary")),
      errors: [400],
    }),

    // C.4 HOGs
    "/hog/": get({
      id: "listHogs",
      tag: "HOGs",
      summary: "HOGs",
      description:
        "Without `level`: all root HOGs in family order. With `level`: every HOG that exists at that level, in family and tree order; " +
        "on a species, the HOGs its genes form there (each gene's deepest HOG, see `readHog`).",
      params: ["hog_list_level", "compare_with", ...PAGED],
      ok: page("HOGs.", ref("HogListItem")),
      errors: [400],
    }),
    "/hog/{hog_id}/": get({
      id: "readHog",
      tag: "HOGs",
      summary: "HOG records",
      description:
        "Without `level`: one record, on the deepest level that carries the id. `level=X`: one record per HOG at X whose id is a " +
        "prefix of `hog_id` or has it as prefix (possibly `[]`). `level=root`: the root HOG at its deepest level. A HOG stands on " +
        "every level of its genes' lineages down to their species, also where the orthoXML writes no group (the species, or a " +
        "level the file skips): there it holds the genes of its deepest group that descend from that level, and has no children. " +
        "So every level of a protein's `hog_levels` answers the HOG containing it.",
      params: ["hog_id", "hog_level", "format"],
      ok: json("HOG records.", arrayOf(ref("HogRecord"))),
      errors: [410],
    }),
    "/hog/{hog_id}/members/": get({
      id: "listHogMembers",
      tag: "HOGs",
      summary: "HOG members",
      description:
        "The members of the id on its deepest level; with a more ancient `level`, the members of the ancestral HOG there " +
        "(`hog_id` becomes that HOG's id); `level=root`: the root HOG. A level where the id has no HOG → 404 " +
        "`hog_id / level combination does not identify a unique HOG.`",
      params: ["hog_id", "hog_level", "format"],
      ok: json("Members.", ref("HogMembers")),
      errors: [410],
    }),
    "/downloads/": get({
      id: "listDownloads",
      tag: "Downloads",
      summary: "Release-wide files",
      description:
        "Every genome's proteins (and cDNA when the release has it), every level's HOG table and all HOGs as OrthoXML, each " +
        "`{name, url, format, description}`. Files of a genome pair and of one HOG are not listed: their URLs are the patterns below.",
      params: ["format"],
      ok: json("The files.", arrayOf(ref("DownloadItem"))),
    }),
    "/downloads/genome/{file}": file({
      id: "downloadGenome",
      tag: "Downloads",
      summary: "A genome's proteins or cDNA (FASTA, gzip)",
      description:
        "Every entry of the genome in entry order; headers `>{orthid} {canonical id} hog={HOG id or -} group={group, 0 for none} [{species}]`, " +
        "sequences in lines of 60. Named `{release}_{genome}.fa.gz` in `Content-Disposition`; streamed.",
      params: ["genome_file"],
      ok: download("Gzipped FASTA.", "application/gzip"),
      type: "application/gzip",
    }),
    "/downloads/pairs/{genome_id1}/{file}": file({
      id: "downloadGenomePair",
      tag: "Downloads",
      summary: "Every relation of a genome pair (TSV, gzip)",
      description: "All pages of `/pairs/{genome_id1}/{genome_id2}/?format=tsv` in one file (one header line); `xrefs` as there.",
      params: ["genome_id1", "pairs_file", "xrefs"],
      ok: download("Gzipped TSV.", "application/gzip"),
      type: "application/gzip",
      errors: [400],
    }),
    "/downloads/hog/{file}": file({
      id: "downloadHogMembers",
      tag: "Downloads",
      summary: "A HOG's members (FASTA)",
      description: "The members the members endpoint lists for the same HOG and `level`, by entry number, with the genome files' headers.",
      params: ["hog_file", "hog_level", "seq"],
      ok: download("FASTA.", "text/x-fasta"),
      type: "text/x-fasta",
      errors: [400, 410],
    }),
    "/downloads/hogs/{file}": file({
      id: "downloadLevelHogs",
      tag: "Downloads",
      summary: "The HOGs of a level with their members (TSV, gzip)",
      description:
        "Columns `hog_id, level, roothog_id, description, completeness_score, nr_members, members_orthid, members_canonicalid` " +
        "(members comma-separated, by entry number), the HOGs in the order of `/hog/?level=`.",
      params: ["level_file"],
      ok: download("Gzipped TSV.", "application/gzip"),
      type: "application/gzip",
    }),
    "/downloads/hogs.orthoxml.gz": file({
      id: "downloadAllHogs",
      tag: "Downloads",
      summary: "Every HOG of the release (OrthoXML 0.5, gzip)",
      description: "One document: the genes of every genome in a family, then every family's groups as its own export writes them.",
      ok: download("Gzipped OrthoXML.", "application/gzip"),
      type: "application/gzip",
    }),
    "/hog/{hog_id}/orthoxml/": orthoxml("readHogOrthoxml", false),
    "/hog/{hog_id}/orthoxml/augmented/": orthoxml("readHogOrthoxmlAugmented", true),
    "/orth/hog/{hog_id}/orthoxml/": outsideApi(root, orthoxml("readHogOrthoxmlOutsideApi", false)),
    "/orth/hog/{hog_id}/orthoxml/augmented/": outsideApi(root, orthoxml("readHogOrthoxmlAugmentedOutsideApi", true)),
    "/hog/{hog_id}/svg/": get({
      id: "readHogDrawing",
      tag: "HOGs",
      summary: "HOG family drawn on the species tree (SVG)",
      description:
        "The HOG's whole family drawn on the species tree, as one SVG document to embed (no script; its own stylesheet): a row per level " +
        "of the family's clade with the family's HOGs there (each a link to its HOG page on that level), the duplications and losses on " +
        "the branch leading to it and its genes; columns for the HOGs on the level in focus with each species' genes in them (each a link " +
        "to the protein). The HOG in focus is what `readHog` answers for the same `hog_id` and `level`, highlighted with its lineage; the " +
        "root element's `data-genes` is its number of genes. Large families stay bounded: at most 60 rows (clades folded, the way to the " +
        "level in focus kept open) and 30 columns (the rest summed in one). Browsers opening `readHog` get the same drawing in the HOG's page.",
      params: ["hog_id", "hog_level"],
      ok: { description: "SVG document.", headers: COMMON_HEADERS, content: { "image/svg+xml": { schema: { type: "string" } } } },
      errors: [410],
    }),
    "/hog/{hog_id}/gene_ontology/": get({
      id: "listHogGeneOntology",
      tag: "HOGs",
      summary: "GO annotations of a HOG",
      description: "GO terms enriched among the members of the HOG on a level.",
      params: ["hog_id", "hog_level", "format"],
      ok: json("Annotations.", arrayOf(ref("HogGoAnnotation"))),
      errors: [410],
    }),
    "/hog/{hog_id}/similar_profile_hogs/": get({
      id: "readSimilarProfileHogs",
      tag: "HOGs",
      summary: "HOGs with a similar profile",
      description: "The HOG with the species it has members in, and the HOGs whose presence profiles are most similar.",
      params: ["hog_id", "max_results", "format"],
      ok: json("Similar HOGs.", ref("SimilarProfileHogs")),
      errors: [400, 410],
    }),
    "/hog/{hog_id}/gene_tree/": get({
      id: "readHogGeneTree",
      tag: "HOGs",
      summary: "Gene tree of a HOG family",
      description:
        "The gene tree of the HOG family that contains `hog_id` (a HOG id, an OrthoFinder HOG or orthogroup id such as " +
        "`N1.HOG0000005` or `OG0000005`, or a protein id), in Newick, exactly as the release's input wrote it: for a release " +
        "compiled from OrthoFinder results, the resolved gene tree of the family's orthogroup, leaves `<species>_<protein id>`. " +
        "404 when the release has no gene trees or the family has none.",
      params: ["hog_id"],
      ok: { description: "Newick text.", headers: COMMON_HEADERS, content: { "text/x-nh": { schema: { type: "string" } } } },
      errors: [410],
    }),

    // C.5 Pairs
    "/pairs/{genome_id1}/{genome_id2}/": get({
      id: "listPairs",
      tag: "Pairs",
      summary: "Pairwise relations between two genomes",
      description:
        "Orthologs between two genomes, or close paralogs and homoeologs within one, of main isoforms, by (entry_1, entry_2). " +
        "Filters apply before counting and paging. `format=csv`/`tsv` give a download with the header " +
        "`orthid_1,{src}_1…,orthid_2,{src}_2…,RelType,OrthGroup` and the same pagination headers.",
      params: ["genome_id1", "genome_id2", "chr1", "chr2", "pairs_rel_type", "xrefs", "page", "per_page", "pairs_format"],
      ok: {
        description: "One page of pairs; see `Link` and `X-Total-Count`.",
        headers: { ...PAGE_HEADERS, "Content-Disposition": { $ref: "#/components/headers/Content-Disposition" } },
        content: {
          "application/json": { schema: arrayOf(ref("Pair")) },
          "text/csv": { schema: { type: "string" } },
          "text/tab-separated-values": { schema: { type: "string" } },
        },
      },
      errors: [400],
    }),
    "/pairs/{genome_id1}/{genome_id2}/minimal/": get({
      id: "listPairsMinimal",
      tag: "Pairs",
      summary: "Pairs as entry numbers",
      description: "Every pair of the two genomes as `[entry_nr1, entry_nr2]`, not paginated.",
      params: ["genome_id1", "genome_id2", "format"],
      ok: json("Pairs.", ref("PairsMinimal")),
    }),

    // C.6 Search
    "/sequence/": get({
      id: "searchSequence",
      tag: "Search",
      summary: "Proteins by sequence",
      description:
        "Exact containment search (k-mer index, every candidate checked against its sequence), approximate search (the 50 entries sharing most sampled 5-mers, aligned by Smith-Waterman with BLOSUM62 and gaps of 11 + k; scores under 70 dropped), or mixed: exact, then approximate when exact finds nothing. No hit → `targets: []`. A query found in more than 2,000 entries → 400.",
      params: ["sequence_query", "search", "full_length", "format"],
      ok: json("Search result.", ref("SequenceSearch")),
      errors: [400],
    }),
    "/function/": get({
      id: "annotateFunction",
      tag: "Search",
      summary: "GO functions of a sequence",
      description: "GO annotations transferred from exact matches (every annotation of every protein containing the query), else from the best approximate match that has annotations (score at least 70 and at least 0.8 of the best); `[]` when nothing qualifies or the query has fewer than 25 residues.",
      params: ["function_query", "format"],
      ok: json("GAF-like annotations.", arrayOf(ref("FunctionAnnotation"))),
      errors: [400],
    }),
    "/xref/": get({
      id: "searchXrefs",
      tag: "Search",
      summary: "Cross-references by substring",
      description:
        "Case-insensitive substring search (the query taken literally, at least 3 characters) over every cross-reference id, " +
        "canonical id (source `SourceID`) and orthid (source `orthid`) of the release; items sorted by (xref, entry_nr), one per " +
        "(xref, entry_nr): the one whose source sorts first. Not paginated. More than 20,000 hits → 400 with a list body " +
        '`["Query too unspecific. Matches >20000 elements"]`.',
      params: ["xref_search", "format"],
      ok: json("Matches.", arrayOf(ref("XrefSearchItem"))),
      special: { "400": { ...json("Too many matches: the body is a list.", ref("ErrorList")) } },
    }),

    // C.7 Taxonomy, summary
    "/taxonomy/": get(taxonomy("readTaxonomy", "The whole species taxonomy.", [])),
    "/taxonomy/{root_id}/": get(taxonomy("readTaxonomySubtree", "The subtree below a taxon. Unknown → 404 `root level '{id}' not found`.", ["root_id"])),
    "/summary/shared_ancestry/{genome_id1}/{genome_id2}/": get({
      id: "readSharedAncestry",
      tag: "Taxonomy",
      summary: "Shared ancestry of two genomes",
      description: "Fraction of genes of the two genomes that are orthologous.",
      params: ["genome_id1", "genome_id2", "ancestry_type", "format"],
      ok: json("Shared ancestry.", ref("SharedAncestry")),
      errors: [400],
    }),
  };
}

function taxonomy(id: string, description: string, params: string[]): Operation {
  return {
    id,
    tag: "Taxonomy",
    summary: params.length ? "Taxonomy subtree" : "Taxonomy",
    description:
      `${description} \`type=dictionary\`: nested \`{name, id, children}\`; \`newick\`: \`{root_taxon, newick}\`; ` +
      "`phyloxml`: `{root_taxon, phyloxml}` (version 1.11) or raw PhyloXML (version ≤ 1.10). " +
      "With `Accept: text/x-nh` (or `application/x-newick`) and no `type`: raw Newick.",
    params: [...params, "taxonomy_type", "members", "collapse", "newick_leaf_label", "newick_internal_label", "newick_quote_labels", "format"],
    ok: {
      description: "The tree.",
      headers: COMMON_HEADERS,
      content: {
        "application/json": { schema: { oneOf: [ref("TaxonomyNode"), ref("TaxonomyNewick"), ref("TaxonomyPhyloxml")] } },
        "application/vnd.phyloxml+xml": { schema: { type: "string" } },
        "text/x-nh": { schema: { type: "string" } },
      },
    },
    errors: [400],
  };
}
