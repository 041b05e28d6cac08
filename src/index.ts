import { createApp, type RequestScope } from "./app.js";
import { cachedAnswer } from "./edge/cache.js";
import { isPreflight, preflightAnswer, withCors } from "./edge/cors.js";
import { bufferRequestBody } from "./edge/request-body.js";
import { currentReleaseName, DEFAULT_POINTER_TTL_SECONDS } from "./release/release.js";
import type { Env } from "./env.js";
import { genomeRoutes } from "./routes/genomes.js";
import { groupRoutes } from "./routes/groups.js";
import { hogRoutes } from "./routes/hogs.js";
import { proteinRoutes } from "./routes/proteins.js";
import { relationRoutes } from "./routes/relations.js";
import { summaryRoutes } from "./routes/summary.js";
import { sequenceSearchRoutes } from "./routes/sequence-search.js";
import { soapRoutes } from "./routes/soap.js";
import { xrefSearchRoutes } from "./routes/xref-search.js";
import { schemaRoutes } from "./routes/schema.js";
import { versionRoutes } from "./routes/version.js";
import { bulkRoutes } from "./routes/bulk.js";
import { orthoXmlRoutes } from "./routes/orthoxml.js";
import { proteinDetailRoutes } from "./routes/protein-details.js";
import { rootRoutes } from "./routes/root.js";
import { taxonomyRoutes } from "./routes/taxonomy.js";

const app = createApp();
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
relationRoutes(app);
summaryRoutes(app);
sequenceSearchRoutes(app);
soapRoutes(app);
xrefSearchRoutes(app);

// The OpenAPI document and the documentation page (routes/schema.ts); the route table is
// exported so a test can hold the document and the app to the same endpoints.
schemaRoutes(app);
/** Path (Hono syntax, `/api/protein/:entry_id/`) of every route registered, middleware aside. */
export const registeredPaths = (): string[] => [...new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => r.path))];

/** POST endpoints whose answer depends on the release and the body alone: cached like reads. */
const CACHED_POSTS = /^\/(?:api\/protein\/bulk_retrieve\/?|soap)$/;

/** `/release/{name}/api/…` serves a release by name; everything else serves the current release. */
const NAMED_RELEASE = /^\/release\/([A-Za-z0-9._-]+)(\/.*)?$/;

export default {
  async fetch(received: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    const { request: buffered, complete } = await bufferRequestBody(received);
    let request = buffered;
    const url = new URL(request.url);
    const named = NAMED_RELEASE.exec(url.pathname);
    let scope: RequestScope = { prefix: "" };
    if (named) {
      url.pathname = named[2] ?? "/";
      request = new Request(url, request);
      scope = { prefix: `/release/${named[1]}`, releaseName: named[1] };
    }
    const answer = async (s: RequestScope, r = request) => app.fetch(r, { ...env, ...s }, ctx);

    if (isPreflight(request)) {
      const described = await answer(scope);
      return preflightAnswer(described.headers.get("Allow") ?? "GET, HEAD, OPTIONS");
    }
    // The release is resolved once, here, so the answer, its cache key and its ETag all come
    // from the same release even if the pointer switches meanwhile. A storage fault while
    // resolving is left to the app, which answers it as a 503 or a SOAP fault.
    if (!scope.releaseName) {
      const ttl = Number(env.RELEASE_POINTER_TTL_SECONDS ?? DEFAULT_POINTER_TTL_SECONDS);
      const current = await currentReleaseName(env.RELEASES, Number.isFinite(ttl) ? ttl : DEFAULT_POINTER_TTL_SECONDS).catch(() => undefined);
      if (current) scope = { ...scope, releaseName: current };
    }
    let response: Response;
    const release = scope.releaseName;
    if (!release) response = await answer(scope);
    else if (request.method === "GET" || request.method === "HEAD") {
      response = await cachedAnswer(request, { release, prefix: scope.prefix }, ctx, () => answer(scope));
    } else if (request.method === "POST" && complete && CACHED_POSTS.test(url.pathname)) {
      // The answer is a function of the body: the cache is keyed on it too.
      response = await cachedAnswer(request, { release, prefix: scope.prefix }, ctx, () => answer(scope), complete);
    } else response = await answer(scope);
    return withCors(response);
  },
} satisfies ExportedHandler<Env>;
