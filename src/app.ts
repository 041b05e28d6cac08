/**
 * The worker as one Hono app: a request's path through it is the middleware list below, top
 * to bottom, then the route.
 */
import { Hono } from "hono";
import type { AppContext, AppEnv } from "./context.js";
import { ApiError, errorAnswer } from "./errors.js";
import { browsable } from "./middleware/browsable.js";
import { answerHeaders, apiConventions, trailingSlash } from "./middleware/conventions.js";
import { cors } from "./middleware/cors.js";
import { edgeCache } from "./middleware/edge-cache.js";
import { releaseScope, scopedPath, withRelease, type ReleaseScopeOptions } from "./middleware/release-scope.js";
import { requestBody } from "./middleware/request-body.js";
import { fieldNamesFor } from "./render/respond.js";
import { bulkRoutes } from "./routes/bulk.js";
import { downloadRoutes, isDownloadFile } from "./routes/downloads.js";
import { geneTreeRoutes } from "./routes/gene-trees.js";
import { allowedMethods } from "./routes/endpoint.js";
import { genomeRoutes } from "./routes/genomes.js";
import { groupRoutes } from "./routes/groups.js";
import { hogRoutes } from "./routes/hogs.js";
import { hogPictureRoutes } from "./routes/hog-pictures.js";
import { orthoXmlRoutes } from "./routes/orthoxml.js";
import { pageRoutes } from "./routes/pages.js";
import { proteinDetailRoutes } from "./routes/protein-details.js";
import { proteinRoutes } from "./routes/proteins.js";
import { relationRoutes } from "./routes/relations.js";
import { rootRoutes } from "./routes/root.js";
import { schemaRoutes } from "./routes/schema.js";
import { sequenceSearchRoutes } from "./routes/sequence-search.js";
import { soapRoutes } from "./routes/soap.js";
import { summaryRoutes } from "./routes/summary.js";
import { taxonomyRoutes } from "./routes/taxonomy.js";
import { versionRoutes } from "./routes/version.js";
import { xrefSearchRoutes } from "./routes/xref-search.js";
import { faultOf } from "./soap/faults.js";
import { soapFault } from "./soap/xml-out.js";

export type AppOptions = ReleaseScopeOptions;

/** A SOAP call: its errors are answered as SOAP faults, not as JSON. */
const isSoapCall = (c: AppContext): boolean => c.req.method === "POST" && c.req.path === "/soap";
/** POSTs whose answer is a function of the release and the body alone: cached like reads. */
const CACHED_POSTS = new Set(["/api/protein/bulk_retrieve/", "/api/protein/bulk_retrieve", "/api/protein/orthologs/bulk_retrieve/", "/api/protein/orthologs/bulk_retrieve", "/soap"]);

export function createApp(options: AppOptions = {}): Hono<AppEnv> {
  // Routes match the path without a /release/{name} prefix (release-scope.ts).
  const app = new Hono<AppEnv>({ strict: true, getPath: scopedPath });
  const allowOf = allowedMethods(app);
  // Every error becomes its answer here, wherever in the chain it was thrown (a body refused at
  // the entry, a storage fault, a bad id): JSON with a detail, or a SOAP fault.
  app.onError((error, c) => {
    const answer = isSoapCall(c) ? soapFault(faultOf(error), fieldNamesFor(c)) : errorAnswer(error, c.req.raw);
    answer.headers.set("Allow", allowOf(c.req.path));
    answer.headers.set("Vary", "Accept");
    return answer;
  });
  app.notFound(() => {
    throw new ApiError(404, "Not found.");
  });

  app.use(cors()); // preflights from the route's own OPTIONS answer; every answer readable cross-origin
  app.use(requestBody()); // every body read once, within one cap: 413 (or a SOAP fault) here
  app.use(releaseScope(options)); // /release/{name}/… or the current pointer, into c.var.scope
  // Cache API, ETag, 304; a download file's byte ranges from its cached whole answer (206, 416).
  app.use(edgeCache({ cachesPost: (c) => CACHED_POSTS.has(c.req.path), ranged: (c) => isDownloadFile(c.req.path) }));
  app.use(browsable()); // browsers get every JSON answer, errors included, as an HTML page
  app.use(answerHeaders(allowOf)); // Vary, Allow, X-Blob-Reads/-Bytes, X-Release
  app.use(trailingSlash()); // GET /api/genome → 301 /api/genome/
  app.use("/api/*", apiConventions()); // format=, Accept version, c.var.links
  for (const path of ["/api/*", "/orth/*"]) app.use(path, withRelease()); // the release, into c.var.release
  app.on("POST", "/soap", withRelease());
  // The WSDL names operations, parts and namespace as the release's profile does: it needs the
  // release too (a storage fault is a 503 here as on /api, never a WSDL under the wrong names).
  app.on("GET", ["/soap", "/soap/orth.wsdl"], withRelease());
  // Browsers navigating to a resource get a page for people around its JSON route (tables, the
  // protein card, HOGs drawn on the species tree): registered before the routes they wrap.
  pageRoutes(app);

  // API root, protein details, bulk retrieve, taxonomy, orthoXML export. Registered before the
  // protein routes: `/api/protein/bulk_retrieve/` would otherwise match `/api/protein/:entry_id/`.
  rootRoutes(app);
  bulkRoutes(app);
  proteinDetailRoutes(app);
  taxonomyRoutes(app);
  orthoXmlRoutes(app);
  versionRoutes(app);
  genomeRoutes(app);
  proteinRoutes(app);
  groupRoutes(app);
  hogRoutes(app);
  hogPictureRoutes(app);
  geneTreeRoutes(app);
  relationRoutes(app);
  summaryRoutes(app);
  sequenceSearchRoutes(app);
  soapRoutes(app);
  xrefSearchRoutes(app);
  downloadRoutes(app);
  // The OpenAPI document and the documentation page.
  schemaRoutes(app);
  // Hono compiles its router at the first match: done here, when the isolate starts (src/index.ts
  // creates the app at module scope), it costs a fresh isolate's first request nothing (2–5 ms).
  app.router.match("GET", "/");
  return app;
}

/** Path (Hono syntax, `/api/protein/:entry_id/`) of every route of an app, middleware aside. */
export const registeredPaths = (app: Hono<AppEnv>): string[] => [...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => r.path))];
