import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, releaseOf, type AppEnv } from "../context.js";
import { echo, notFound } from "../errors.js";
import { resolveHog } from "../release/resolve.js";

/** Newick, as the taxonomy endpoint answers it for `Accept: text/x-nh`. */
export const NEWICK_TYPE = "text/x-nh; charset=utf-8";

/**
 * The gene tree of the HOG family holding a HOG id (or another tool's id for it, or a
 * protein's HOG), as Newick text exactly as the release's input wrote it: OrthoFinder's
 * resolved gene tree of the family's orthogroup, leaves `<species>_<protein id>`. 404 where
 * the release or the family has none. Reads the HOG's family row, then one geneTrees chunk.
 */
export function geneTreeRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/hog/:hog_id/gene_tree/",
    "HOG Gene Tree",
    "The gene tree (Newick) of the HOG family holding a HOG id or a protein's HOG, where the release has one.",
    async (c) => {
      const release = releaseOf(c);
      const id = pathParam(c, "hog_id");
      const { family } = await resolveHog(release, id);
      const table = release.manifest.tables.geneTrees;
      if (!table) throw notFound("This release has no gene trees.");
      const tree = await release.row(table, family.family - 1);
      if (!tree) throw notFound(`The HOG family of ${echo(id)} (${family.rootId}) has no gene tree.`);
      return new Response(tree[1], { headers: { "Content-Type": NEWICK_TYPE } });
    },
  );
}
