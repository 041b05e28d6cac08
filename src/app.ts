import { Hono, type Context, type Handler } from "hono";
import type { Env } from "./env.js";
import { ApiError } from "./errors.js";
import { browsable } from "./render/browsable.js";
import { linksFor, type Links } from "./render/links.js";
import { openRelease, type Release } from "./release/release.js";

/** What the fetch entry adds to the bindings: the release asked for by path, if any. */
export interface RequestScope {
  /** `/release/{name}` when the request named a release, else "". */
  prefix: string;
  releaseName?: string;
}

export type AppEnv = {
  Bindings: Env & RequestScope;
  Variables: { release: Release; links: Links };
};

export type AppContext = Context<AppEnv>;

const GET_ALLOW = "GET, HEAD, OPTIONS";
const POST_ALLOW = "POST, OPTIONS";
/** Paths of each app registered by `postEndpoint`: their answers, errors included, allow POST. */
const postPaths = new WeakMap<Hono<AppEnv>, Set<string>>();
/** The one endpoint that also answers `format=csv` and `format=tsv`. */
const PAIRS_PAGE = /^\/api\/pairs\/[^/]+\/[^/]+\/$/;
export const API_VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11"];

export function createApp(): Hono<AppEnv> {
  const app = new Hono<AppEnv>({ strict: true });
  const posts = new Set<string>();
  postPaths.set(app, posts);

  app.onError((error, c) => {
    if (error instanceof ApiError) {
      return new Response(JSON.stringify({ detail: error.detail, ...error.extra }), {
        status: error.status,
        headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
      });
    }
    console.error(`${c.req.method} ${c.req.url}:`, error);
    return new Response(JSON.stringify({ detail: "Internal server error." }), {
      status: 500,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  });
  app.notFound(() => {
    throw new ApiError(404, "Not found.");
  });

  // Browsers get every JSON answer as an HTML page (render/browsable.ts). Registered first, so it
  // wraps everything below and the page shows the headers an API client would get.
  app.use("*", browsable());

  // Headers every response carries, errors included; X-Blob-Reads and X-Blob-Bytes tell what
  // the request cost in storage reads (0 when the isolate cache had everything).
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("Vary", "Accept");
    if (!c.res.headers.has("Allow")) c.res.headers.set("Allow", posts.has(c.req.path) ? POST_ALLOW : GET_ALLOW);
    const release = c.get("release");
    if (release) {
      c.res.headers.set("X-Blob-Reads", String(release.reads.reads));
      c.res.headers.set("X-Blob-Bytes", String(release.reads.bytes));
      c.res.headers.set("X-Release", release.manifest.name);
    }
  });

  // Canonical paths end with "/": redirect GET and HEAD, keeping the query. The SOAP endpoint
  // and its WSDL file keep the legacy interface's addresses.
  app.use("*", async (c, next) => {
    const url = new URL(c.req.url);
    const legacy = url.pathname === "/soap" || url.pathname === "/soap/orth.wsdl";
    if (!url.pathname.endsWith("/") && !legacy && (c.req.method === "GET" || c.req.method === "HEAD")) {
      // One leading slash: `//evil.com/` would be read by browsers as another origin (an open redirect).
      const location = `${c.env.prefix}${url.pathname.replace(/^\/{2,}/, "/")}/${url.search}`;
      return new Response(null, { status: 301, headers: { Location: location } });
    }
    await next();
  });

  app.use("/api/*", async (c, next) => {
    const format = c.req.query("format");
    const tables = (format === "csv" || format === "tsv") && PAIRS_PAGE.test(c.req.path);
    if (format !== undefined && format !== "json" && format !== "api" && !tables) throw new ApiError(404, "Not found.");
    checkAcceptVersion(c.req.header("Accept"));
    c.set("links", linksFor(c.req.raw, c.env.prefix));
    if (c.req.method !== "OPTIONS") c.set("release", await openRelease(c.env.RELEASES, c.env.releaseName));
    await next();
  });
  return app;
}

/** `Accept: application/json; version=1.6` selects an interface version; unknown ones are refused. */
export function checkAcceptVersion(accept: string | undefined): string {
  const m = accept ? /(?:^|;)\s*version\s*=\s*"?([^;,"\s]+)/i.exec(accept) : null;
  if (!m) return API_VERSIONS[API_VERSIONS.length - 1];
  if (!API_VERSIONS.includes(m[1])) throw new ApiError(406, 'Invalid version in "Accept" header.');
  return m[1];
}

/**
 * Registers a read endpoint: GET (HEAD follows from it), OPTIONS describing it, and 405 with
 * `Allow` for every other method.
 */
export function getEndpoint(app: Hono<AppEnv>, path: string, name: string, description: string, handler: Handler<AppEnv>) {
  app.get(path, handler);
  app.options(path, (c) =>
    c.json({ name, description, renders: ["application/json", "text/html"], parses: ["application/json"] }, 200, {
      Allow: GET_ALLOW,
    }),
  );
  app.on(["POST", "PUT", "PATCH", "DELETE"], path, (c) => {
    throw new ApiError(405, `Method "${c.req.method}" not allowed.`);
  });
}

/**
 * Registers an endpoint that takes a POST body (at each of `paths`): POST, OPTIONS describing
 * it, and 405 for the read methods and the others; every answer carries `Allow: POST, OPTIONS`.
 */
export function postEndpoint(app: Hono<AppEnv>, paths: string[], name: string, description: string, handler: Handler<AppEnv>) {
  for (const path of paths) {
    postPaths.get(app)?.add(path);
    app.post(path, handler);
    app.options(path, (c) =>
      c.json({ name, description, renders: ["application/json", "text/html"], parses: ["application/json"] }, 200, {
        Allow: POST_ALLOW,
      }),
    );
    app.on(["GET", "PUT", "PATCH", "DELETE"], path, (c) => {
      throw new ApiError(405, `Method "${c.req.method}" not allowed.`);
    });
  }
}

export function releaseOf(c: AppContext): Release {
  return c.get("release");
}
export function linksOf(c: AppContext): Links {
  return c.get("links");
}

/** A path parameter of the matched route. */
export function pathParam(c: AppContext, name: string): string {
  const value = c.req.param(name);
  if (value === undefined) throw new ApiError(404, "Not found.");
  return value;
}
