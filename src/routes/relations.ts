import type { Hono } from "hono";
import { requestedIds } from "./bulk.js";
import { getEndpoint, postEndpoint } from "./endpoint.js";
import { linksOf, pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import { pairItems, pairsTable, type PairFilters } from "../render/pairs.js";
import { paginate } from "../render/pagination.js";
import { proteinSummary } from "../render/protein.js";
import { fieldNamesFor, json, jsonArrayStream } from "../render/respond.js";
import { HOMEOLOG, isOrthologType, REL_TYPES, type GenomeInfo, type ProteinRow, type ProteinSummary, type Relation } from "../../release-format/format.js";
import { pairsBetween } from "../release/pairs.js";
import type { Release } from "../release/release.js";
import { proteinRow, entryNumber, resolveGenome } from "../release/resolve.js";
import { summariesOf } from "../release/summaries.js";
import { membersAt, positionsOf } from "../release/family-members.js";
import { resolveEntries } from "../release/bulk.js";
import { homologyTargets, type TargetFilter } from "../release/homology-targets.js";
import type { Links } from "../render/links.js";

/** Orthologs an answer holds whole; more are streamed (orthologAnswer). */
const STREAMED_ORTHOLOGS = 512;

/** Most distinct `xrefs` sources of a pairs request: releases have about ten. */
const MAX_XREF_SOURCES = 50;

/** A relation with its partner's summary. */
export interface RelationWithPartner {
  relation: Relation;
  partner: ProteinSummary;
}

/** A protein's relations kept by `keep`, with their partners' summaries (from its family's members when they are members). */
export async function relationsOf(release: Release, protein: ProteinRow, keep: (r: Relation) => boolean): Promise<RelationWithPartner[]> {
  const [relations, family] = await Promise.all([
    release.rowBeside("relations", protein.entry, protein.entry - 1),
    protein.family ? release.rowBeside("families", protein.entry, protein.family - 1) : undefined,
  ]);
  const kept = relations.filter(keep);
  const partners = kept.map((r) => r[0]);
  const members = family ? await membersAt(release, family, positionsOf(family, partners)) : [];
  const summaries = await summariesOf(release, partners, members);
  return kept.map((r) => ({ relation: r, partner: summaries.get(r[0]) as ProteinSummary }));
}

/** What an ortholog answer keeps: one relation type (-1: any ortholog type), and the partners' genomes. */
interface OrthologFilters {
  relType: number;
  /** A `rel_type` that is no ortholog type selects nothing (the reference's rule). */
  none: boolean;
  targets: TargetFilter;
}

function orthologFilters(c: AppContext, release: Release): OrthologFilters {
  const wanted = c.req.query("rel_type");
  const relType = wanted === undefined ? -1 : (REL_TYPES as readonly string[]).indexOf(wanted);
  return { relType, none: wanted !== undefined && !isOrthologType(relType), targets: homologyTargets(release, c.req.queries("target_species"), c.req.query("target_level")) };
}

/** The kept ortholog relations of a protein (none for a `rel_type` that is no ortholog type). */
const orthologKeep =
  (release: Release, { relType, targets }: OrthologFilters) =>
  ([partner, t]: Relation): boolean =>
    isOrthologType(t) && (relType < 0 || t === relType) && (!targets || targets(release.genomeOfEntry(partner)));

/** An ortholog as the orthologs endpoint lists it. */
const orthologItem = (release: Release, links: Links, { relation: [, t, distance, score], partner }: RelationWithPartner) =>
  Object.assign(proteinSummary(release, links, partner), { rel_type: REL_TYPES[t], distance, score });

/** A protein's ortholog relations that the filters keep, with their partners' summaries. */
const orthologRelations = async (release: Release, protein: ProteinRow, filters: OrthologFilters) =>
  filters.none ? [] : relationsOf(release, protein, orthologKeep(release, filters));

/** A protein's pairwise orthologs as the orthologs endpoint lists them, all of them. */
async function orthologItems(release: Release, links: Links, protein: ProteinRow, filters: OrthologFilters) {
  return (await orthologRelations(release, protein, filters)).map((o) => orthologItem(release, links, o));
}

/**
 * The orthologs endpoint's answer. Its partners' summaries are read at once, all before the
 * response starts; an answer of more than STREAMED_ORTHOLOGS is rendered and written as the
 * client reads (the same bytes), so a gene with 20,000 orthologs never holds its items or its
 * text whole.
 */
async function orthologAnswer(c: AppContext, release: Release, protein: ProteinRow, filters: OrthologFilters): Promise<Response> {
  const links = linksOf(c);
  const orthologs = await orthologRelations(release, protein, filters);
  if (orthologs.length <= STREAMED_ORTHOLOGS) return json(c, orthologs.map((o) => orthologItem(release, links, o)));
  const items = async function* () {
    for (const o of orthologs) yield orthologItem(release, links, o);
  };
  return jsonArrayStream(items(), {}, fieldNamesFor(c));
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
    "The pairwise orthologs of a protein, by partner entry number; rel_type keeps one relation type, target_species and target_level the partners' genomes.",
    async (c) => {
      const release = releaseOf(c);
      return orthologAnswer(c, release, await queryProtein(c), orthologFilters(c, release));
    },
  );

  postEndpoint(
    app,
    // Also without the trailing slash: a redirect would lose the POST body.
    ["/api/protein/orthologs/bulk_retrieve/", "/api/protein/orthologs/bulk_retrieve"],
    "Orthologs Bulk Retrieve",
    'The pairwise orthologs of up to 1000 entry ids, sent as {"ids": [...]} or as a JSON list; the filters of the orthologs endpoint apply to all.',
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const filters = orthologFilters(c, release);
      const ids = requestedIds(c);
      const entries = await resolveEntries(release, ids);
      const answers = new Map<number, unknown[]>();
      await Promise.all(
        [...new Set(entries.filter((e): e is number => e !== undefined))].map(async (entry) => {
          answers.set(entry, await orthologItems(release, links, await proteinRow(release, entry), filters));
        }),
      );
      return json(c, ids.map((id, i) => ({ query_id: id, orthologs: entries[i] === undefined ? null : answers.get(entries[i]!)! })));
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
  genome1: GenomeInfo,
  genome2: GenomeInfo,
): Promise<PairFilters> {
  const filters: PairFilters = {};
  const chromosomeRanges = async (genome: GenomeInfo, chr: string | undefined) => {
    if (chr === undefined) return undefined;
    const detail = await release.genomeDetail(genome);
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
