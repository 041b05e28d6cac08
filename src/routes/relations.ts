import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { linksOf, pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import { pairItems, pairsTable, type PairFilters } from "../render/pairs.js";
import { paginate } from "../render/pagination.js";
import { proteinSummary } from "../render/protein.js";
import { json } from "../render/respond.js";
import { HOMEOLOG, isOrthologType, REL_TYPES, type GenomeDetail, type ProteinRow, type ProteinSummary, type Relation } from "../../release-format/format.js";
import { pairsBetween } from "../release/pairs.js";
import type { Release } from "../release/release.js";
import { proteinRow, entryNumber, resolveGenome } from "../release/resolve.js";
import { summariesOf } from "../release/summaries.js";

/** Most distinct `xrefs` sources of a pairs request: releases have about ten. */
const MAX_XREF_SOURCES = 50;

/** A protein's relations with its partners' summaries (from its family row when they are members). */
async function relationsOf(release: Release, protein: ProteinRow, keep: (r: Relation) => boolean) {
  const [relations, family] = await Promise.all([
    release.row(release.manifest.tables.relations, protein.entry - 1),
    protein.family ? release.row(release.manifest.tables.families, protein.family - 1) : undefined,
  ]);
  const kept = relations.filter(keep);
  const summaries = await summariesOf(
    release,
    kept.map((r) => r[0]),
    family?.members,
  );
  return kept.map((r) => ({ relation: r, partner: summaries.get(r[0]) as ProteinSummary }));
}

async function queryProtein(c: AppContext): Promise<ProteinRow> {
  const release = releaseOf(c);
  return proteinRow(release, await entryNumber(release, pathParam(c, "entry_id")));
}

export function relationRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/protein/:entry_id/orthologs/",
    "Protein Orthologs",
    "The pairwise orthologs of a protein, by partner entry number; rel_type keeps one relation type.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const wanted = c.req.query("rel_type");
      // Any rel_type other than the four ortholog types selects nothing (the reference's rule).
      const code = wanted === undefined ? -1 : (REL_TYPES as readonly string[]).indexOf(wanted);
      if (wanted !== undefined && !isOrthologType(code)) return json(c, []);
      const protein = await queryProtein(c);
      const orthologs = await relationsOf(release, protein, ([, t]) => isOrthologType(t) && (code < 0 || t === code));
      return json(
        c,
        orthologs.map(({ relation: [, t, distance, score], partner }) => ({
          ...proteinSummary(release, links, partner),
          rel_type: REL_TYPES[t],
          distance,
          score,
        })),
      );
    },
  );

  getEndpoint(
    app,
    "/api/protein/:entry_id/homoeologs/",
    "Protein Homoeologs",
    "The homoeologs of a protein of a polyploid genome: its relatives on the genome's other subgenomes.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const protein = await queryProtein(c);
      if (!release.genomeOfEntry(protein.entry).subgenomes.length) {
        throw notFound("query protein does not belong to a polyploid genome");
      }
      const homoeologs = await relationsOf(release, protein, ([, t]) => t === HOMEOLOG);
      return json(
        c,
        homoeologs.map(({ partner }) => proteinSummary(release, links, partner)),
      );
    },
  );

  getEndpoint(
    app,
    "/api/pairs/:genome_id1/:genome_id2/",
    "Pairs",
    "Orthologs between two genomes, or close paralogs and homoeologs within one; chr1, chr2, rel_type and xrefs filter and extend; format=csv|tsv for tables.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const genome1 = resolveGenome(release, pathParam(c, "genome_id1"));
      const genome2 = resolveGenome(release, pathParam(c, "genome_id2"));
      const filters = await pairFilters(c, release, genome1, genome2);
      const pairs = await pairsBetween(release, genome1, genome2, filters);
      const page = paginate(links, pairs.total);
      const rows = await pairs.rows(page.from, page.to);
      const format = c.req.query("format");
      if (format === "csv" || format === "tsv") {
        return pairsTable(release, rows, { format, genome1, genome2, xrefs: filters.xrefs, headers: page.headers });
      }
      return json(c, await pairItems(release, links, rows, filters.xrefs), page.headers);
    },
  );

  getEndpoint(
    app,
    "/api/pairs/:genome_id1/:genome_id2/minimal/",
    "Pairs (minimal)",
    "Every pair of entry numbers between two genomes, not paginated.",
    async (c) => {
      const release = releaseOf(c);
      const genome1 = resolveGenome(release, pathParam(c, "genome_id1"));
      const genome2 = resolveGenome(release, pathParam(c, "genome_id2"));
      const pairs = await pairsBetween(release, genome1, genome2, {});
      const rows = await pairs.rows(0, pairs.total);
      return json(c, { pairs: rows.map((r) => [r[0], r[1]]) });
    },
  );
}

/** `chr1`, `chr2`, `rel_type` and `xrefs` of a pairs request. */
async function pairFilters(
  c: AppContext,
  release: Release,
  genome1: { detail: string },
  genome2: { detail: string },
): Promise<PairFilters> {
  const filters: PairFilters = {};
  const chromosomeRanges = async (genome: { detail: string }, chr: string | undefined) => {
    if (chr === undefined) return undefined;
    const detail = await release.blob<GenomeDetail>(genome.detail);
    return detail.chromosomes.find((x) => x.id === chr)?.entryRanges ?? [];
  };
  filters.chr1 = await chromosomeRanges(genome1, c.req.query("chr1"));
  filters.chr2 = await chromosomeRanges(genome2, c.req.query("chr2"));
  const relType = c.req.query("rel_type");
  if (relType !== undefined) filters.relType = (REL_TYPES as readonly string[]).indexOf(relType);
  const xrefs = c.req.queries("xrefs");
  if (xrefs) filters.xrefs = [...new Set(xrefs.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean))];
  // Every pair carries every source asked for: thousands of made-up names would multiply a page.
  if (filters.xrefs && filters.xrefs.length > MAX_XREF_SOURCES) throw badRequest(`At most ${MAX_XREF_SOURCES} xrefs sources may be asked for.`);
  return filters;
}
