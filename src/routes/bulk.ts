import type { Hono } from "hono";
import { linksOf, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { checkAcceptVersion } from "../render/accept.js";
import { postEndpoint } from "./endpoint.js";
import { ApiError, badRequest, echo, notFound } from "../errors.js";
import { proteinRecord } from "../render/protein.js";
import { json } from "../render/respond.js";
import { proteinsWithSequences, resolveEntries } from "../release/bulk.js";

const MAX_IDS = 1000;
const JSON_MEDIA = /^application\/(?:[\w.+-]+\+)?json$/;

/** The body the entry read (within its cap), as text. */
function bodyText(c: AppContext): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(c.var.body);
  } catch {
    throw badRequest("JSON parse error - the body is not valid UTF-8");
  }
}

/** The ids of a request body: `{"ids": [...]}` or a bare list; strings or numbers, at most 1000. */
export function requestedIds(c: AppContext): string[] {
  const contentType = c.req.header("Content-Type") ?? "";
  if (!JSON_MEDIA.test(contentType.split(";")[0].trim().toLowerCase())) {
    throw new ApiError(415, `Unsupported media type "${echo(contentType)}" in request.`);
  }
  let body: unknown;
  try {
    body = JSON.parse(bodyText(c));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest(`JSON parse error - ${error instanceof Error ? error.message : String(error)}`);
  }
  let ids: unknown;
  if (Array.isArray(body)) ids = body;
  else if (body !== null && typeof body === "object") {
    if (!("ids" in body)) throw notFound("No results found");
    ids = (body as { ids: unknown }).ids;
    if (!Array.isArray(ids)) throw badRequest('"ids" must be a list of protein ids (strings or integers).');
  } else throw badRequest('The body must be a JSON list of protein ids or an object {"ids": [...]}.');
  const list = ids as unknown[];
  if (list.length > MAX_IDS) throw badRequest(`POST request exceeded max number of ids. Please limit to ${MAX_IDS}`);
  return list.map((id, i) => {
    if (typeof id === "string") return id;
    if (typeof id === "number" && Number.isFinite(id)) return String(id);
    throw badRequest(`Invalid id at position ${i}: ids must be strings or integers, not ${echo(JSON.stringify(id) ?? String(id))}.`);
  });
}

export function bulkRoutes(app: Hono<AppEnv>) {
  postEndpoint(
    app,
    // Also without the trailing slash: a redirect would lose the POST body.
    ["/api/protein/bulk_retrieve/", "/api/protein/bulk_retrieve"],
    "Protein Bulk Retrieve",
    'The protein records of up to 1000 entry ids, sent as {"ids": [...]} or as a JSON list.',
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const ids = requestedIds(c);
      const entries = await resolveEntries(release, ids);
      const records = await proteinsWithSequences(release, entries.filter((e): e is number => e !== undefined));
      const recordOf = (entry: number | undefined) => {
        const found = entry === undefined ? undefined : records.get(entry)!;
        return found ? proteinRecord(release, links, found.row, found.sequence) : null;
      };
      // Up to 1.6: the records of the ids that resolved; from 1.7: one {query_id, target} per id.
      if (Number(checkAcceptVersion(c.req.header("Accept")).split(".")[1]) <= 6) {
        return json(c, entries.filter((e) => e !== undefined).map(recordOf));
      }
      return json(c, ids.map((id, i) => ({ query_id: id, target: recordOf(entries[i]) })));
    },
  );
}
