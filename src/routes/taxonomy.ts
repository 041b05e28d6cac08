import type { Hono } from "hono";
import { checkAcceptVersion } from "../render/accept.js";
import { getEndpoint } from "./endpoint.js";
import { pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, echo } from "../errors.js";
import { json } from "../render/respond.js";
import {
  rootTaxon,
  taxonomyDictionary,
  taxonomyNewick,
  taxonomyPhyloXml,
  type InternalLabel,
  type LeafLabel,
} from "../render/taxonomy.js";
import { resolveTaxonMembers, resolveTaxonRoot, rootLevel, taxonomyTree } from "../release/taxonomy.js";

const TYPES: Record<string, "dictionary" | "newick" | "phyloxml"> = {
  dictionary: "dictionary",
  json: "dictionary",
  newick: "newick",
  nk: "newick",
  nhx: "newick",
  phyloxml: "phyloxml",
};
const NEWICK_MEDIA = /(?:^|,)\s*(text\/x-nh|application\/x-newick)\s*(?:[;,]|$)/i;
const TRUE = new Set(["true", "1", "yes", "on"]);
const FALSE = new Set(["false", "0", "no", "off"]);

/** A boolean query parameter: true/false (also 1/0, yes/no, on/off, any case); anything else → 400. */
function booleanParam(c: AppContext, name: string, fallback: boolean): boolean {
  const raw = c.req.query(name);
  if (raw === undefined) return fallback;
  const v = raw.toLowerCase();
  if (TRUE.has(v)) return true;
  if (FALSE.has(v)) return false;
  throw badRequest(`Invalid ${name}='${echo(raw)}'. Choose from: true, false`);
}

function choiceParam<T extends string>(c: AppContext, name: string, choices: readonly T[]): T {
  const raw = c.req.query(name);
  if (raw === undefined) return choices[0];
  if (!(choices as readonly string[]).includes(raw)) throw badRequest(`Invalid ${name}='${echo(raw)}'. Choose from: ${choices.join(", ")}`);
  return raw as T;
}

/** The minor number of an interface version (`1.10` → 10). */
const minor = (version: string): number => Number(version.split(".")[1]);

function taxonomy(c: AppContext, rootId: string | undefined): Response {
  const release = releaseOf(c);
  const rawType = c.req.query("type");
  const accept = c.req.header("Accept") ?? "";
  let type = rawType === undefined ? "dictionary" : TYPES[rawType.toLowerCase()];
  if (!type) throw badRequest(`Invalid type='${echo(rawType!)}'. Choose from: ${Object.keys(TYPES).join(", ")}`);
  const newickMedia = rawType === undefined ? NEWICK_MEDIA.exec(accept)?.[1].toLowerCase() : undefined;
  if (newickMedia) type = "newick";
  const collapse = booleanParam(c, "collapse", true);
  const leafLabel = choiceParam<LeafLabel>(c, "newick_leaf_label", ["sciname", "species_code"]);
  const internalLabel = choiceParam<InternalLabel>(c, "newick_internal_label", ["sciname", "taxid", "none"]);
  const quote = booleanParam(c, "newick_quote_labels", false);

  const root = rootId === undefined ? rootLevel(release) : resolveTaxonRoot(release, rootId);
  const memberValues = c.req.queries("members") ?? [];
  const members = resolveTaxonMembers(release, memberValues);
  const tree = taxonomyTree(release, root, members.length ? members : undefined, collapse);

  if (type === "newick") {
    const newick = taxonomyNewick(release, tree, { leafLabel, internalLabel, quote });
    if (newickMedia) return new Response(newick, { headers: { "Content-Type": `${newickMedia}; charset=utf-8` } });
    return json(c, { root_taxon: rootTaxon(release, tree), newick });
  }
  if (type === "phyloxml") {
    const xml = taxonomyPhyloXml(release, tree);
    if (minor(checkAcceptVersion(accept || undefined)) <= 10) {
      return new Response(xml, { headers: { "Content-Type": "application/vnd.phyloxml+xml" } });
    }
    return json(c, { root_taxon: rootTaxon(release, tree), phyloxml: xml });
  }
  return json(c, taxonomyDictionary(release, tree));
}

export function taxonomyRoutes(app: Hono<AppEnv>) {
  const description =
    "The species taxonomy (type=dictionary|newick|phyloxml), optionally induced by members and with single-child levels collapsed.";
  getEndpoint(app, "/api/taxonomy/", "Taxonomy", description, (c) => taxonomy(c, undefined));
  getEndpoint(app, "/api/taxonomy/:root_id/", "Taxonomy", description, (c) => taxonomy(c, pathParam(c, "root_id")));
}
