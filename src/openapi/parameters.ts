/**
 * Reusable parameters, response headers and error responses of the OpenAPI document
 * (conventions of the interface reference, sections A and B).
 */
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "../render/pagination.js";
import { ref, type Schema } from "./schemas.js";

/** Ids of the release served, so the document's examples resolve on this server. */
export interface Examples {
  entry: string;
  genome: string;
  genome2: string;
  group: string;
  hog: string;
  level: string;
}

const path = (name: string, description: string, example: string): Schema => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
  example,
});
const query = (name: string, description: string, schema: Schema, extra: Schema = {}): Schema => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
  ...extra,
});

const header = (name: string, description: string, schema: Schema): Schema => ({ name, in: "header", required: false, description, schema });

const ENTRY_ID =
  "Entry number, orthid (`HUMAN00042`), canonical id, or any cross-reference id that maps to exactly one entry. " +
  "Unknown → 404 `requested id '{id}' is unknown`; several entries → 404 `… is not unique`.";
const LEVEL =
  "A taxonomic level name (exact scientific name, URL-encode spaces), a species code, or `root` (any case) for the root HOG " +
  "at its deepest level. Unknown → 404 `Invalid or unknown level parameter for this HOG`.";

export function parameters(ex: Examples): Record<string, Schema> {
  return {
    entry_id: path("entry_id", ENTRY_ID, ex.entry),
    group_id: path(
      "group_id",
      "Group number, fingerprint (7 upper-case letters), or the entry id of a member. A member in no group → `{}`.",
      ex.group,
    ),
    genome_id: path("genome_id", "Species code (`HUMAN`) or NCBI taxon id. Unknown → 404 `Unknown species: {id}`.", ex.genome),
    genome_id1: path("genome_id1", "First genome: species code or NCBI taxon id.", ex.genome),
    genome_id2: path("genome_id2", "Second genome: species code or NCBI taxon id (the same genome gives paralogs).", ex.genome2),
    hog_id: path(
      "hog_id",
      "`HOG:` id (`HOG:E0000003.1a`; `%3A` works too) or any entry id (then the protein's deepest HOG). " +
        "Malformed → 404 `Invalid hog id`; another release's prefix → 410; a protein in no HOG → 404 `… is not part of any HOG.`",
      ex.hog,
    ),
    range: header(
      "Range",
      "One byte range of a download file: `bytes={first}-{last}`, `bytes={first}-` or `bytes=-{suffix length}`. Served (206) from the " +
        "edge cache once the whole file is in it; before that, and for several ranges or a malformed value, the whole file (200). " +
        "A first byte at or beyond the end → 416.",
      { type: "string", examples: ["bytes=0-1048575"] },
    ),
    if_range: header("If-Range", "The file's `ETag`: the `Range` applies only to that file; any other value → the whole file (200).", { type: "string" }),
    genome_file: path("file", "`{genome}.fa.gz` (proteins) or `{genome}.cdna.fa.gz` (cDNA); genome by species code or NCBI taxon id.", `${ex.genome}.fa.gz`),
    pairs_file: path("file", "`{genome_id2}.tsv.gz`: the second genome (species code or taxon id; the first genome again for paralogs and homoeologs).", `${ex.genome2}.tsv.gz`),
    hog_file: path("file", "`{hog_id}.fa`: a `HOG:` id or any entry id, as for the HOG endpoints.", `${ex.hog}.fa`),
    level_file: path("file", "`{level}.tsv.gz`: a level name (URL-encoded) or species code.", `${ex.level}.tsv.gz`),
    seq: query("seq", "`protein` (the default) or `cdna`.", { type: "string", enum: ["protein", "cdna"] }),
    root_id: path("root_id", "Root of the subtree: taxon id, scientific name, species code, or `LUCA` (the whole tree).", ex.level),
    page: query("page", "1-based page number. Not a positive integer → 400 `Invalid page.`; past the last page → 404 `Invalid page.`", {
      type: "integer",
      minimum: 1,
      default: 1,
    }),
    per_page: query(
      "per_page",
      `Items per page. Not a positive integer → 400 \`Invalid per_page.\`; above ${MAX_PER_PAGE} it is clipped to ${MAX_PER_PAGE}.`,
      { type: "integer", minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
      { example: 10 },
    ),
    format: query(
      "format",
      "`json` (default) or `api`: every URL in the body, nested ones included, gets `format=api` appended. " +
        "A browser (an `Accept` header preferring `text/html`) gets the JSON as a browsable HTML page unless `format=json` is given. " +
        "Any other value → 404 `Not found.`",
      { type: "string", enum: ["json", "api"], default: "json" },
    ),
    pairs_format: query(
      "format",
      "`json` (default), `api` (URLs with `format=api`), `csv` or `tsv` (a download with one header row). Other → 404.",
      { type: "string", enum: ["json", "api", "csv", "tsv"], default: "json" },
    ),
    hog_level: query("level", `${LEVEL} Without it: the deepest level that carries the id.`, { type: "string" }, { example: ex.level }),
    hog_list_level: query(
      "level",
      "List the HOGs that exist at this level, a species (by name or code) included (items gain `completeness_score` and `nr_genes`). " +
        "Without it: the root HOGs. Unknown → 404 `Invalid or unknown level parameter: give a level name of the taxonomy or a species code.`",
      { type: "string" },
      { example: ex.level },
    ),
    compare_with: query(
      "compare_with",
      "A more ancient level, only together with `level`: each item gains `event` (what happened between the two levels).",
      { type: "string" },
    ),
    rel_type: query(
      "rel_type",
      "Keep only this relation type (`1:1`, `1:n`, `m:1`, `m:n`, seen from the query). Any other value gives `[]`.",
      { type: "string", examples: ["1:1", "1:n", "m:1", "m:n"] },
      { example: "1:1" },
    ),
    target_species: query(
      "target_species",
      "Keep only partners of these genomes: species codes or NCBI taxon ids, repeated or comma-separated. Unknown → 400. " +
        "With `target_level`, a partner must match both.",
      { type: "array", items: { type: "string" } },
      { style: "form", explode: true },
    ),
    target_level: query(
      "target_level",
      "Keep only partners whose genome lies below this taxonomic level (a level name, species code or taxon id). Unknown → 400.",
      { type: "string" },
    ),
    pairs_rel_type: query(
      "rel_type",
      "Keep only this relation type: `1:1`, `1:n`, `m:1`, `m:n`; within one genome `close paralog` or `homeolog`. Other → `[]`. " +
        "Filters apply before counting and paging.",
      { type: "string", examples: ["1:1", "1:n", "m:1", "m:n", "close paralog", "homeolog"] },
      { example: "1:1" },
    ),
    chr1: query("chr1", "Keep pairs whose entry_1 lies on this chromosome (ids of the genome detail). Unknown → `[]`.", { type: "string" }),
    chr2: query("chr2", "Keep pairs whose entry_2 lies on this chromosome. Unknown → `[]`.", { type: "string" }),
    xrefs: query(
      "xrefs",
      "Cross-reference sources whose ids to add to each entry (`xrefs` object): repeated or a comma list, e.g. " +
        "`UniProtKB/SwissProt`, `UniProtKB/TrEMBL`, `EntrezGene`, `SourceID`, `SourceAC`, `Ensembl Gene`, `RefSeq`; at most 50 distinct sources (more → 400).",
      { type: "array", items: { type: "string" } },
      { style: "form", explode: true },
    ),
    filter: query(
      "filter",
      "`all` (default), `exact` (sequence matches exactly) or `maindb` (main database ids and gene names); case-insensitive. " +
        "Other → 400 `invalid argument for parameter filter: {v}`.",
      { type: "string", enum: ["all", "exact", "maindb"], default: "all" },
    ),
    sequence_query: query(
      "query",
      "Protein sequence; upper-cased, and every character outside `ACDEFGHIKLMNPQRSTVWXY` dropped (whitespace, digits, `*`, `-`, FASTA header text alike). " +
        "Fewer than 5 residues left → 400 `too shot query sequence`.",
      { type: "string" },
      { required: true, example: "MVHLTPEEKSAVTALWGKVNVDEVGGEALGRLLVVYPWTQRFFESFGDLSTPDAVMGNPKVKAHGKKVLGAFSDGLAHLDNLKGTFATLSELHCDKLHVDPENFRLLGNVLVCVLAHHFGKEFTPPVQAAYQKVVAGVANALAHKYH" },
    ),
    search: query(
      "search",
      "`exact` (containment), `approximate` (k-mer candidates aligned by Smith-Waterman, score ≥ 70) or `mixed` (exact, then approximate). " +
        "Other → 400 `search parameter invalid. Must be one of 'approximate', 'exact', 'mixed'.`",
      { type: "string", enum: ["exact", "approximate", "mixed"], default: "mixed" },
    ),
    full_length: query("full_length", "Exact search only: keep entries whose whole sequence equals the query.", {
      type: "boolean",
      default: false,
    }),
    function_query: query(
      "query",
      "Protein sequence; upper-cased, and every character outside `ACDEFGHIKLMNPQRSTVWXY` dropped. Fewer than 10 residues → 400 `The query sequence must be at least 10 amino acids long.`; " +
        "fewer than 25 → `[]`.",
      { type: "string" },
      { required: true, example: "MVHLTPEEKSAVTALWGKVNVDEVGGEALGRLLVVYPWTQRFFESFGDLSTPDAVMGNPKVKAHGKKVLGAFSDGLAHLDNLKGTFATLSELHCDKLHVDPENFRLLGNVLVCVLAHHFGKEFTPPVQAAYQKVVAGVANALAHKYH" },
    ),
    xref_search: query(
      "search",
      "Case-insensitive substring (taken literally) of cross-reference ids, canonical ids and orthids. " +
        "Missing or shorter than 3 characters → `[]`; more than 20,000 hits → 400 with a list body.",
      { type: "string" },
      { example: ex.entry },
    ),
    taxonomy_type: query(
      "type",
      "`dictionary` (default; alias `json`), `newick` (aliases `nk`, `nhx`) or `phyloxml`. " +
        "Other → 400 `Invalid type='{v}'. Choose from: …`",
      { type: "string", enum: ["dictionary", "json", "newick", "nk", "nhx", "phyloxml"], default: "dictionary" },
    ),
    members: query(
      "members",
      "Restrict the tree to these members: taxon ids, species codes or scientific names; a comma list or repeated.",
      { type: "array", items: { type: "string" } },
      { style: "form", explode: true },
    ),
    collapse: query("collapse", "Remove levels with a single child.", { type: "boolean", default: true }),
    newick_leaf_label: query("newick_leaf_label", "Leaf labels in Newick.", {
      type: "string",
      enum: ["sciname", "species_code"],
      default: "sciname",
    }),
    newick_internal_label: query("newick_internal_label", "Internal labels in Newick.", {
      type: "string",
      enum: ["sciname", "taxid", "none"],
      default: "sciname",
    }),
    newick_quote_labels: query("newick_quote_labels", "Quote the Newick labels.", { type: "boolean", default: false }),
    max_results: query("max_results", "Number of similar HOGs. Out of range → 400 `max_results must be positive value <= 50`.", {
      type: "integer",
      minimum: 1,
      maximum: 50,
      default: 10,
    }),
    ancestry_type: query("type", "`hogs` (with `mrca`) or `vps` (pairwise orthologs).", {
      type: "string",
      enum: ["hogs", "vps"],
      default: "hogs",
    }),
  };
}

export const HEADERS: Record<string, Schema> = {
  Allow: {
    description: "Methods of the endpoint: `GET, HEAD, OPTIONS`, or `POST, OPTIONS` for bulk_retrieve. Sent on errors too.",
    required: true,
    schema: { type: "string", examples: ["GET, HEAD, OPTIONS"] },
  },
  Vary: {
    description: "`Accept`: the version and the browsable page are negotiated by it.",
    required: true,
    schema: { type: "string", const: "Accept" },
  },
  Link: {
    description:
      'Absent when everything fits on one page; else `<URL>; rel="first"`, `rel="prev"`, `rel="next"`, `rel="last"` entries ' +
      "(no first/prev on the first page, no next/last on the last). The URLs are absolute and keep every other query parameter.",
    schema: { type: "string" },
  },
  "X-Total-Count": {
    description: "Number of items on all pages (`0` for an empty list).",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  "X-Blob-Reads": { description: "Storage reads the request cost (0 when the cache held everything).", schema: { type: "integer", minimum: 0 } },
  "Accept-Ranges": {
    description:
      "On a download file: `bytes` when a `Range` can be served from now on (the file's whole answer is in the edge cache, or this GET " +
      "stores it there); `none` otherwise (a HEAD before the file is cached, or a server without an edge cache).",
    schema: { type: "string", enum: ["bytes", "none"] },
  },
  "Content-Range": {
    description: "`bytes {first}-{last}/{size}` on a 206; `bytes */{size}` on a 416.",
    required: true,
    schema: { type: "string" },
  },
  "Content-Disposition": {
    description: "`attachment; filename=orth-Pairs_{g1}-{g2}_{YYYY-MM-DD_HHMMSS}.{csv|tsv}`.",
    schema: { type: "string" },
  },
};

const headerRef = (name: string): Schema => ({ $ref: `#/components/headers/${name}` });
/** Headers of every response. */
export const COMMON_HEADERS = { Allow: headerRef("Allow"), Vary: headerRef("Vary"), "X-Blob-Reads": headerRef("X-Blob-Reads") };
/** Headers of a page of a paginated list. */
export const PAGE_HEADERS = { ...COMMON_HEADERS, Link: headerRef("Link"), "X-Total-Count": headerRef("X-Total-Count") };

const errorResponse = (description: string, schema = ref("Error")): Schema => ({
  description,
  headers: COMMON_HEADERS,
  content: { "application/json": { schema } },
});

export const RESPONSES: Record<string, Schema> = {
  BadRequest: errorResponse("A parameter has a bad value."),
  NotFound: errorResponse(
    "Unknown or ambiguous id, unknown level, page past the last one, unknown route or unknown `format` (`Not found.`).",
  ),
  MethodNotAllowed: errorResponse('A method the endpoint does not answer: `Method "{METHOD}" not allowed.` (any path, with `Allow`).'),
  NotAcceptable: errorResponse('An unsupported `version` in `Accept`: `Invalid version in "Accept" header.`'),
  Gone: errorResponse("A HOG id of another release: `ID {id} is no longer valid.`", ref("Gone")),
  UnsupportedMediaType: errorResponse('A body that is not JSON: `Unsupported media type "{type}" in request.`'),
  ContentTooLarge: errorResponse("A request body over the size cap."),
  RangeNotSatisfiable: {
    ...errorResponse("A `Range` whose first byte is at or beyond the end of the (cached) file; `Content-Range: bytes */{size}`. Never cached."),
    headers: { ...COMMON_HEADERS, "Content-Range": headerRef("Content-Range") },
  },
  Unavailable: errorResponse("Storage failed; retry later. Never cached."),
};
