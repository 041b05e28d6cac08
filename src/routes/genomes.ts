import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, linksOf, releaseOf, type AppEnv } from "../context.js";
import { paginate } from "../render/pagination.js";
import { genomeInfo, lineageNames, proteinSummary } from "../render/protein.js";
import { fieldNamesFor, json, jsonArrayStream } from "../render/respond.js";
import type { GenomeDetail } from "../../release-format/format.js";
import { resolveGenome } from "../release/resolve.js";

export function genomeRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/genome/", "Genome List", "All genomes of the release, in release order.", (c) => {
    const release = releaseOf(c);
    const links = linksOf(c);
    const { genomes } = release.manifest;
    const page = paginate(links, genomes.length);
    return json(c, genomes.slice(page.from, page.to).map((g) => genomeInfo(links, g)), page.headers);
  });

  getEndpoint(app, "/api/genome/:genome_id/", "Genome", "A genome by species code or NCBI taxon id.", async (c) => {
    const release = releaseOf(c);
    const links = linksOf(c);
    const genome = resolveGenome(release, pathParam(c, "genome_id"));
    const detail = await release.genomeDetail(genome);
    return json(c, {
      code: genome.code,
      taxon_id: genome.taxonId,
      species: genome.species,
      nr_entries: genome.nrEntries,
      lineage: lineageNames(release, genome.level),
      proteins: links.api(`/genome/${genome.code}/proteins/`),
      chromosomes: detail.chromosomes.map((chr) => ({ id: chr.id, entry_ranges: chr.entryRanges })),
    });
  });

  getEndpoint(
    app,
    "/api/genome/:genome_id/proteins/",
    "Genome Proteins",
    "All protein entries of a genome, alternative isoforms included, by entry number.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const genome = resolveGenome(release, pathParam(c, "genome_id"));
      const page = paginate(links, genome.nrEntries);
      const first = genome.firstEntry - 1;
      const rows = await release.rows(release.manifest.tables.proteins, first + page.from, first + page.to);
      async function* items() {
        for await (const row of rows) yield proteinSummary(release, links, row);
      }
      return jsonArrayStream(items(), page.headers, fieldNamesFor(c));
    },
  );

  getEndpoint(
    app,
    "/api/genome/:genome_id/genes/",
    "Genome Genes",
    "The genes of a genome: main isoforms only, by entry number.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const genome = resolveGenome(release, pathParam(c, "genome_id"));
      const page = paginate(links, genome.nrGenes);
      const entries = page.to > page.from ? genesOnPage(await release.genomeDetail(genome), page.from, page.to) : [];
      const wanted = new Set(entries);
      const rows = entries.length ? await release.rows(release.manifest.tables.proteins, entries[0] - 1, entries[entries.length - 1]) : [];
      async function* items() {
        for await (const row of rows) if (wanted.has(row.entry)) yield proteinSummary(release, links, row);
      }
      return jsonArrayStream(items(), page.headers, fieldNamesFor(c));
    },
  );
}

/** Entry numbers of the genome's genes [from, to) (0-based gene positions), from its runs of main isoforms. */
export function genesOnPage(detail: GenomeDetail, from: number, to: number): number[] {
  const out: number[] = [];
  let position = 0;
  for (const [lo, hi] of detail.geneRanges) {
    const size = hi - lo + 1;
    if (position + size > from) {
      for (let e = lo + Math.max(0, from - position); e <= hi && position + (e - lo) < to; e++) out.push(e);
    }
    position += size;
    if (position >= to) break;
  }
  return out;
}
