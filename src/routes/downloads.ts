/**
 * Whole files from the edge: a genome's proteins or cDNA, every relation of a genome pair, a
 * HOG's members, a level's HOGs, the release's HOGs. Each is streamed as it is read (bounded
 * memory whatever its size), named with the release in `Content-Disposition`, and cached at
 * the edge like any answer.
 *
 * `Range` is honoured where the store allows: once a file's whole answer is in the edge cache,
 * a GET asking one byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`) is answered `206` with that
 * slice, cut by the Cache API from the cached answer (middleware/edge-cache.ts), with the whole
 * answer's `Content-Type`, `Content-Disposition`, `ETag` and cache headers; a range starting at
 * or beyond the end is `416` (`Content-Range: bytes *\/{size}`). The routes here only generate
 * whole files, so a file not cached yet is answered whole (`200`) and stored, and several ranges
 * or a malformed `Range` get the whole file too. `If-Range` with the file's `ETag` is honoured
 * (any other value: the whole file). `Accept-Ranges: bytes` marks the answers after which ranges
 * can be served (a GET whose answer is being stored, a cache hit); a route's own answer says
 * `Accept-Ranges: none` (a HEAD on a miss, or no cache at all, as in-process in Node).
 */
import type { Hono } from "hono";
import { linksOf, pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import { json } from "../render/respond.js";
import { textStream } from "../render/text-stream.js";
import { resolveGenome, resolveHog } from "../release/resolve.js";
import { releaseOrthoXml } from "../render/orthoxml.js";
import { downloadCatalog } from "../downloads/catalog.js";
import { genomeFasta } from "../downloads/genome-fasta.js";
import { hogFasta, hogTable } from "../downloads/hog-files.js";
import { pairsTsv } from "../downloads/pairs-table.js";
import { getEndpoint } from "./endpoint.js";
import { hogOnLevel, levelParam, onAliasLevel } from "./hogs.js";

const GZIP = "application/gzip";
const FASTA = "text/x-fasta; charset=utf-8";

/** A download file's path (its name ends the path): its byte ranges are served from the edge cache. */
export const isDownloadFile = (path: string): boolean => /^\/api\/downloads\/.+\.(?:fa|gz)$/.test(path);

/** A streamed file named `{release}_{name}`; the edge cache says `Accept-Ranges: bytes` once it stores it. */
function file(c: AppContext, pieces: AsyncIterable<string>, name: string, type: string): Response {
  return new Response(textStream(pieces, `download ${name}`, { gzip: type === GZIP }), {
    headers: {
      "Content-Type": type,
      "Content-Disposition": `attachment; filename="${releaseOf(c).manifest.name}_${name.replace(/[^A-Za-z0-9._-]+/g, "_")}"`,
      "Accept-Ranges": "none",
    },
  });
}

/** The part of a file name before one of its endings; 404 for another ending. */
function stem(name: string, endings: string[]): { stem: string; ending: string } {
  for (const ending of endings) if (name.endsWith(ending) && name.length > ending.length) return { stem: name.slice(0, -ending.length), ending };
  throw notFound(`Unknown file: name it {id}${endings.join(" or {id}")}.`);
}

export function downloadRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/downloads/", "Downloads", "The release-wide files: every genome's sequences, every level's HOGs, all HOGs as OrthoXML.", async (c) =>
    json(c, await downloadCatalog(releaseOf(c), linksOf(c))),
  );

  getEndpoint(app, "/api/downloads/genome/:file", "Genome FASTA", "A genome's proteins ({genome}.fa.gz) or cDNA ({genome}.cdna.fa.gz) as gzipped FASTA.", async (c) => {
    const release = releaseOf(c);
    const { stem: id, ending } = stem(pathParam(c, "file"), [".cdna.fa.gz", ".fa.gz"]);
    const genome = resolveGenome(release, id);
    const kind = ending === ".cdna.fa.gz" ? "cdna" : "protein";
    return file(c, await genomeFasta(release, genome, kind), `${genome.code}${ending}`, GZIP);
  });

  getEndpoint(app, "/api/downloads/pairs/:genome_id1/:file", "Genome pair relations", "Every relation between two genomes ({genome2}.tsv.gz), the columns of the pairs endpoint's TSV; xrefs adds cross-reference columns.", async (c) => {
    const release = releaseOf(c);
    const genome1 = resolveGenome(release, pathParam(c, "genome_id1"));
    const genome2 = resolveGenome(release, stem(pathParam(c, "file"), [".tsv.gz"]).stem);
    const xrefs = c.req.queries("xrefs")?.flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
    if (xrefs && xrefs.length > 50) throw badRequest("At most 50 xrefs sources may be asked for.");
    return file(c, await pairsTsv(release, genome1, genome2, xrefs && [...new Set(xrefs)]), `${genome1.code}-${genome2.code}.tsv.gz`, GZIP);
  });

  getEndpoint(app, "/api/downloads/hog/:file", "HOG FASTA", "A HOG's members ({hog_id}.fa) on a level (level as on the members endpoint), proteins or (seq=cdna) cDNA.", async (c) => {
    const release = releaseOf(c);
    const seq = c.req.query("seq") ?? "protein";
    if (seq !== "protein" && seq !== "cdna") throw badRequest("seq is protein or cdna.");
    const asked = levelParam(c, release);
    const { hogId, family, level: aliasLevel } = await resolveHog(release, stem(pathParam(c, "file"), [".fa"]).stem);
    const hog = hogOnLevel(release, family, hogId, asked ?? onAliasLevel(aliasLevel));
    const suffix = seq === "cdna" ? ".cdna.fa" : ".fa";
    return file(c, await hogFasta(release, family, hog, seq), `${hog.id}_${release.manifest.taxonomy.names[hog.onLevel]}${suffix}`, FASTA);
  });

  getEndpoint(app, "/api/downloads/hogs/:file", "HOGs of a level", "Every HOG of a level ({level}.tsv.gz: a level name or species code) with its members, as gzipped TSV.", async (c) => {
    const release = releaseOf(c);
    const name = stem(pathParam(c, "file"), [".tsv.gz"]).stem;
    const level = release.levelByName.get(name);
    if (level === undefined) throw notFound(`Unknown level: ${name.slice(0, 100)}`);
    const pieces = await hogTable(release, level, (family, id) => hogOnLevel(release, family, id, { root: false, level }));
    return file(c, pieces, `hogs_${release.manifest.taxonomy.names[level]}.tsv.gz`, GZIP);
  });

  getEndpoint(app, "/api/downloads/hogs.orthoxml.gz", "All HOGs as OrthoXML", "Every HOG of the release as one gzipped OrthoXML 0.5 document.", async (c) =>
    file(c, releaseOrthoXml(releaseOf(c)), "hogs.orthoxml.gz", GZIP),
  );
}
