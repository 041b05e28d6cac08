import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, linksOf, releaseOf, type AppEnv } from "../context.js";
import { proteinRecord } from "../render/protein.js";
import { json } from "../render/respond.js";
import { proteinRow, entryNumber } from "../release/resolve.js";

export function proteinRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/protein/:entry_id/",
    "Protein Entry",
    "A protein by entry number, orthid, canonical id or cross-reference.",
    async (c) => {
      const release = releaseOf(c);
      const entry = await entryNumber(release, pathParam(c, "entry_id"));
      const [row, sequence] = await Promise.all([
        proteinRow(release, entry),
        release.rowBeside("sequences", entry, entry - 1),
      ]);
      return json(c, proteinRecord(release, linksOf(c), row, sequence));
    },
  );
}
