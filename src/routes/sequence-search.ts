import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { linksOf, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest } from "../errors.js";
import { proteinRecord } from "../render/protein.js";
import { json } from "../render/respond.js";
import { proteinsWithSequences } from "../release/bulk.js";
import { goAnnotationsOf } from "../search/function.js";
import { sanitiseSequence } from "../../release-format/kmers.js";
import { approximateHits, type Hit } from "../search/sequence-search.js";
import { exactMatches } from "../search/sequence-index.js";

const SEARCH_KINDS = ["exact", "approximate", "mixed"] as const;
/** Longest query aligned: a URL of this many residues is already unusual. */
const MAX_QUERY = 10_000;

/** The sanitised `query` parameter, refused when shorter than `minimum` or too long. */
function queryParam(c: AppContext, minimum: number, tooShort: string): string {
  const query = sanitiseSequence(c.req.query("query") ?? "");
  if (query.length < minimum) throw badRequest(tooShort);
  if (query.length > MAX_QUERY) throw badRequest(`The query sequence may have at most ${MAX_QUERY} residues.`);
  return query;
}

function booleanParam(c: AppContext, name: string): boolean {
  const raw = c.req.query(name);
  if (raw === undefined) return false;
  const value = raw.toLowerCase();
  if (["true", "1", "yes", "on"].includes(value)) return true;
  if (["false", "0", "no", "off"].includes(value)) return false;
  throw badRequest(`${name} must be true or false, not '${raw.slice(0, 100)}'.`);
}

export function sequenceSearchRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/sequence/",
    "Sequence Search",
    "Entries holding the query sequence (exact), else the best local alignments of at least 70 (approximate); search=exact|approximate|mixed.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const search = c.req.query("search") ?? "mixed";
      if (!(SEARCH_KINDS as readonly string[]).includes(search)) {
        throw badRequest("search parameter invalid. Must be one of 'approximate', 'exact', 'mixed'.");
      }
      const fullLength = booleanParam(c, "full_length");
      const query = queryParam(c, 5, "too shot query sequence");

      let identifiedBy = "exact match";
      let entries: number[] = [];
      let hits: Hit[] = [];
      // The matches' records read their sequences rows: the candidates are checked against them.
      if (search !== "approximate") entries = await exactMatches(release, query, fullLength, "sequences");
      if (search === "approximate" || (search === "mixed" && entries.length === 0)) {
        identifiedBy = "approximate match";
        hits = await approximateHits(release, query);
        entries = hits.map((h) => h.entry);
      }
      const records = await proteinsWithSequences(release, entries);
      const targets = entries.map((entry, i) => {
        const { row, sequence } = records.get(entry)!;
        const record = proteinRecord(release, links, row, sequence);
        const hit = hits[i];
        return hit ? { ...record, alignment_score: hit.score, alignment: hit.alignment } : record;
      });
      return json(c, { query, identified_by: identifiedBy, targets });
    },
  );

  getEndpoint(
    app,
    "/api/function/",
    "Function Annotation",
    "GO annotations for a sequence, transferred from the entries holding it, else from its best approximate match.",
    async (c) => {
      const release = releaseOf(c);
      const query = queryParam(c, 10, "The query sequence must be at least 10 amino acids long.");
      return json(c, await goAnnotationsOf(release, query));
    },
  );
}
