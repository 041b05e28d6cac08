import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { linksOf, releaseOf, type AppEnv } from "../context.js";
import { fieldNamesOf, nameIn } from "../render/field-names.js";
import { genomeInfo, orthid } from "../render/protein.js";
import { json, stringify } from "../render/respond.js";
import { searchXrefs } from "../release/xref-search.js";
import { XREF_ORTHID_SOURCE } from "../../release-format/format.js";

export function xrefSearchRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/xref/",
    "Xref Search",
    "Case-insensitive substring search over every cross-reference id, canonical id and orthid (search=, at least 3 characters).",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const result = await searchXrefs(release, c.req.query("search") ?? "");
      if (result.tooMany) {
        // The one error whose body is a list (interface reference A.4).
        return new Response(stringify([`Query too unspecific. Matches >${result.limit} elements`]), {
          status: 400,
          headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
        });
      }
      return json(
        c,
        result.hits.map((h) => {
          const genome = release.genomeOfEntry(h.entry);
          return {
            xref: h.id,
            // The entry id's own source is named as the profile names the entry id.
            source: h.source === XREF_ORTHID_SOURCE ? nameIn(fieldNamesOf(release.manifest), "value", h.source) : h.source,
            seq_match: h.seqMatch,
            entry_nr: h.entry,
            orthid: orthid(genome, h.entry),
            genome: genomeInfo(links, genome),
          };
        }),
      );
    },
  );
}
