import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { homologyTargets } from "../release/homology-targets.js";
import { linksOf, pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, echo } from "../errors.js";
import { domainsBody, goItems, hogOrthologItem, isoformItem, xrefItems } from "../render/protein-details.js";
import { json } from "../render/respond.js";
import { annotationRow, proteinGoTerms } from "../release/annotations.js";
import { hogOrthologs } from "../release/hog-orthologs.js";
import { membersAt } from "../release/family-members.js";
import { proteinRow, entryNumber } from "../release/resolve.js";
import { isOrthologType, REL_TYPES } from "../../release-format/format.js";
import { filterXrefs, xrefsOf, type XrefFilter } from "../../release-format/xrefs.js";

const XREF_FILTERS: XrefFilter[] = ["all", "exact", "maindb"];

/** The entry number of the `entry_id` path parameter (404 when unknown or ambiguous). */
function entryOf(c: AppContext): Promise<number> {
  return entryNumber(releaseOf(c), pathParam(c, "entry_id"));
}

export function proteinDetailRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/protein/:entry_id/domains/",
    "Protein Domains",
    "The domains of a protein, with their locations on its sequence.",
    async (c) => {
      const release = releaseOf(c);
      const entry = await entryOf(c);
      const [row, annotations] = await Promise.all([proteinRow(release, entry), annotationRow(release, entry)]);
      return json(c, domainsBody(row, annotations));
    },
  );

  getEndpoint(
    app,
    "/api/protein/:entry_id/xref/",
    "Protein Cross-references",
    "The cross-references of a protein (filter=all|exact|maindb).",
    async (c) => {
      const release = releaseOf(c);
      const raw = c.req.query("filter") ?? "all";
      const filter = raw.toLowerCase() as XrefFilter;
      if (!XREF_FILTERS.includes(filter)) throw badRequest(`invalid argument for parameter filter: ${echo(raw)}`);
      const entry = await entryOf(c);
      const [row, annotations] = await Promise.all([proteinRow(release, entry), annotationRow(release, entry)]);
      return json(c, xrefItems(release, row, filterXrefs(xrefsOf(row, annotations), filter)));
    },
  );

  const geneOntology = async (c: AppContext) => {
    const release = releaseOf(c);
    const entry = await entryOf(c);
    const [row, annotations] = await Promise.all([proteinRow(release, entry), annotationRow(release, entry)]);
    const terms = await proteinGoTerms(release, entry);
    return json(c, goItems(release, row, annotations, terms));
  };
  const goDescription = "The GO annotations of a protein, by aspect, then information content.";
  getEndpoint(app, "/api/protein/:entry_id/gene_ontology/", "Protein Gene Ontology", goDescription, geneOntology);
  getEndpoint(app, "/api/protein/:entry_id/ontology/", "Protein Gene Ontology", `${goDescription} Deprecated: use gene_ontology.`, geneOntology);

  getEndpoint(
    app,
    "/api/protein/:entry_id/isoforms/",
    "Protein Isoforms",
    "Every isoform of the protein's gene, itself included, with its exons as locus.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const entry = await entryOf(c);
      const row = await proteinRow(release, entry);
      const isoforms = row.isoforms.length ? await Promise.all(row.isoforms.map((e) => proteinRow(release, e))) : [row];
      return json(c, isoforms.map((p) => isoformItem(release, links, p)));
    },
  );

  getEndpoint(
    app,
    "/api/protein/:entry_id/hog_derived_orthologs/",
    "HOG-derived Orthologs",
    "The orthologs implied by the protein's HOG, by partner entry number (rel_type filters by relation type, target_species and target_level by the partners' genomes).",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const entry = await entryOf(c);
      const relType = c.req.query("rel_type");
      const targets = homologyTargets(release, c.req.queries("target_species"), c.req.query("target_level"));
      const row = await proteinRow(release, entry);
      if (!row.family || !row.hog || (relType !== undefined && !isOrthologType((REL_TYPES as readonly string[]).indexOf(relType)))) return json(c, []);
      const family = await release.rowBeside("families", entry, row.family - 1);
      const orthologs = hogOrthologs(family, entry, (e) => release.genomeOfEntry(e)).filter(
        (o) => (relType === undefined || o.relType === relType) && (!targets || targets(release.genomeOfEntry(o.entry))),
      );
      const partners = await membersAt(release, family, orthologs.map((o) => o.position));
      return json(c, orthologs.map((o, k) => hogOrthologItem(release, links, partners[k], o)));
    },
  );
}
