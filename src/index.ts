import { createApp, type RequestScope } from "./app.js";
import type { Env } from "./env.js";
import { genomeRoutes } from "./routes/genomes.js";
import { groupRoutes } from "./routes/groups.js";
import { hogRoutes } from "./routes/hogs.js";
import { proteinRoutes } from "./routes/proteins.js";
import { relationRoutes } from "./routes/relations.js";
import { versionRoutes } from "./routes/version.js";

const app = createApp();
versionRoutes(app);
genomeRoutes(app);
proteinRoutes(app);
groupRoutes(app);
hogRoutes(app);
relationRoutes(app);

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
