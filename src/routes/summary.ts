import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, releaseOf, type AppEnv } from "../context.js";
import { badRequest } from "../errors.js";
import { json } from "../render/respond.js";
import type { GenomeInfo } from "../../release-format/format.js";
import { mrcaLevel } from "../../release-format/taxonomy.js";
import type { Release } from "../release/release.js";
import { resolveGenome } from "../release/resolve.js";

const TYPES = ["hogs", "vps"] as const;

/** Most recent common level of two genomes. */
function mrca(release: Release, a: GenomeInfo, b: GenomeInfo): number {
  return mrcaLevel(release.manifest.taxonomy, a.level, b.level);
}

export function summaryRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/summary/shared_ancestry/:genome_id1/:genome_id2/",
    "Shared Ancestry",
    "The share of two genomes' genes with a relative in the other: in a common HOG family (type=hogs, default) or with a pairwise ortholog (type=vps).",
    async (c) => {
      const release = releaseOf(c);
      const type = c.req.query("type") ?? "hogs";
      if (!(TYPES as readonly string[]).includes(type)) throw badRequest(`Invalid type='${type}'. Choose from: ${TYPES.join(", ")}`);
      const g1 = resolveGenome(release, pathParam(c, "genome_id1"));
      const g2 = resolveGenome(release, pathParam(c, "genome_id2"));
      const { genomes, tables } = release.manifest;
      const [i, j] = [genomes.indexOf(g1), genomes.indexOf(g2)];
      const [row12, row21] = await Promise.all([
        release.row(tables.pairDirectory, i * genomes.length + j),
        release.row(tables.pairDirectory, j * genomes.length + i),
      ]);
      const column = type === "hogs" ? 2 : 3;
      const details = [
        { species: g1.code, nr_genes: g1.nrGenes, nr_orthologs: row12[column] },
        { species: g2.code, nr_genes: g2.nrGenes, nr_orthologs: row21[column] },
      ];
      const genes = g1.nrGenes + g2.nrGenes;
      const fraction = genes ? (row12[column] + row21[column]) / genes : 0;
      const level = mrca(release, g1, g2);
      const { names, taxonIds } = release.manifest.taxonomy;
      return json(c, {
        fraction: Math.round(fraction * 1e6) / 1e6,
        details,
        ...(type === "hogs" ? { mrca: { taxon_id: taxonIds[level], name: names[level] } } : {}),
      });
    },
  );
}
