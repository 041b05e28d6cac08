/**
 * The OpenAPI 3.1 document of the REST interface. Everything is static data except the
 * server (the origin and base path the request came in on) and the example ids (taken from
 * the release served, so the examples resolve on this server).
 */
import { renameText, type FieldNames } from "../render/field-names.js";
import { HEADERS, parameters, RESPONSES, type Examples } from "./parameters.js";
import { paths } from "./paths.js";
import { SCHEMAS, type Schema } from "./schemas.js";

export type { Examples };

const DESCRIPTION = `Read-only orthology database: genomes, proteins, orthologous groups, hierarchical orthologous groups (HOGs), pairwise relations.

**Conventions.** Paths end with \`/\` (without it: 301 to the slashed path, except POST bulk_retrieve, which is answered directly). Every URL in a body is absolute, built from the request's origin (honouring \`X-Forwarded-Proto\`/\`X-Forwarded-Host\`). Responses carry \`Vary: Accept\` and \`Allow\` (\`GET, HEAD, OPTIONS\`, or \`POST, OPTIONS\` for bulk_retrieve), errors included. \`HEAD\` answers the headers of \`GET\` without a body; \`OPTIONS\` answers 200 with \`Allow\` and a JSON description of the endpoint; any other method → 405 \`Method "{METHOD}" not allowed.\` Errors are \`{"detail": "…"}\`, except the list body of an over-broad xref search.

**Versions.** \`Accept: application/json; version=1.6\` selects an interface version (1.0–1.11, default 1.11); an unknown one → 406. It changes the shape of bulk_retrieve (≤ 1.6: plain list) and of \`taxonomy?type=phyloxml\` (≤ 1.10: raw XML).

**Pagination.** Lists are bare JSON arrays; \`page\` (from 1) and \`per_page\` (default 100) select a page; \`X-Total-Count\` gives the total and \`Link\` the first/prev/next/last pages.

**Browsable API.** \`format=api\` appends \`format=api\` to every URL of the body. A browser (an \`Accept\` header that prefers \`text/html\`) gets any JSON answer as an HTML page with the request, the status and headers, the JSON with every URL a link, and page controls; \`format=json\` returns the raw JSON to a browser.

**SOAP.** A legacy SOAP 1.1 RPC interface (namespace \`urn:ORTH\`; operations TestOrthology, ListOrthologs, GetOrthGroup, GetEntry, IdentifySequence, GetMatrixInfo, ListIDTypes, MapIDs) is served at its own endpoint, with its WSDL at \`?wsdl\` and the SOAP encoding schema the WSDL imports at \`/soap/encoding/\` (so a client needs nothing from elsewhere); it is not part of this document.`;

const TAGS = [
  { name: "Service", description: "Resource list, version, this document." },
  { name: "Proteins", description: "Protein entries and their related data." },
  { name: "Groups", description: "Orthologous groups." },
  { name: "Genomes", description: "Genomes and their proteins." },
  { name: "HOGs", description: "Hierarchical orthologous groups." },
  { name: "Pairs", description: "Pairwise relations between two genomes." },
  { name: "Search", description: "Sequence, function and cross-reference search." },
  { name: "Taxonomy", description: "Species taxonomy and shared ancestry." },
  {
    name: "Downloads",
    description:
      "Whole files, streamed: a genome's sequences, a genome pair's relations, HOG members and tables, all HOGs. One byte range (`Range`) of a file is served once the edge cache holds the whole file.",
  },
];

/** The document for a server whose API base is `base` (`{origin}{prefix}/api`). */
export function openApiDocument(base: string, examples: Examples): Schema {
  // The server root (`{origin}{prefix}`), for the endpoints outside `/api`.
  const root = base.replace(/\/api$/, "");
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: { title: "Orthology database REST API", version: "1.11", description: DESCRIPTION },
    servers: [{ url: base, description: "This server." }],
    tags: TAGS,
    paths: paths(root),
    components: { schemas: SCHEMAS, parameters: parameters(examples), headers: HEADERS, responses: RESPONSES },
  };
}

/** Members whose values are the release's own data or the server's address: never renamed. */
const DATA_MEMBERS = new Set(["servers", "example", "examples"]);

/**
 * The document in a naming profile (render/field-names.ts): property names, `required` lists
 * and prose name the fields as the release's answers do.
 */
export function documentIn(names: FieldNames, document: Schema): Schema {
  if (names === "orth") return document;
  const walk = (value: unknown): unknown => {
    if (typeof value === "string") return renameText(value, names);
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [renameText(key, names), DATA_MEMBERS.has(key) ? v : walk(v)]));
  };
  return walk(document) as Schema;
}
