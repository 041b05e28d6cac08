import { createApp, type RequestScope } from "./app.js";
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

/** `/release/{name}/api/…` serves a release by name; everything else serves the current release. */
const NAMED_RELEASE = /^\/release\/([A-Za-z0-9._-]+)(\/.*)?$/;

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    const url = new URL(request.url);
    const m = NAMED_RELEASE.exec(url.pathname);
    if (!m) return app.fetch(request, { ...env, prefix: "" } satisfies Env & RequestScope, ctx);
    url.pathname = m[2] ?? "/";
    const scope: RequestScope = { prefix: `/release/${m[1]}`, releaseName: m[1] };
    return app.fetch(new Request(url, request), { ...env, ...scope }, ctx);
  },
} satisfies ExportedHandler<Env>;
