/**
 * The interface's conventions every answer keeps, as three small middlewares:
 * - `answerHeaders`: `Vary`, `Allow` (on errors too), and what the request cost in storage
 *   (`X-Blob-Reads`, `X-Blob-Bytes`: 0 when the isolate cache had everything) and which
 *   release answered (`X-Release`);
 * - `trailingSlash`: canonical paths end with "/": GET and HEAD are redirected there, keeping
 *   the query (the SOAP endpoint and its WSDL file keep the legacy interface's addresses, and
 *   downloads end with their file's name);
 * - `apiConventions`: on `/api/…`, the `format` parameter, the interface version of the
 *   `Accept` header, and the request's links (`c.var.links`).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.js";
import { ApiError } from "../errors.js";
import { checkAcceptVersion } from "../render/accept.js";
import { linksFor } from "../render/links.js";

export function answerHeaders(allowOf: (path: string) => string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    c.res.headers.set("Vary", "Accept");
    if (!c.res.headers.has("Allow")) c.res.headers.set("Allow", allowOf(c.req.path));
    const release = c.get("release");
    if (release) {
      c.res.headers.set("X-Blob-Reads", String(release.reads.reads));
      c.res.headers.set("X-Blob-Bytes", String(release.reads.bytes));
      c.res.headers.set("X-Release", release.manifest.name);
    }
  };
}

const LEGACY_PATHS = new Set(["/soap", "/soap/orth.wsdl"]);
/** Downloads are files: their paths end with the file's name. */
const FILE_PATH = /^\/api\/downloads\/.+\.(?:fa|gz)$/;

export function trailingSlash(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    // The URL's own path: still percent-encoded, with any /release/{name} prefix.
    const url = new URL(c.req.url);
    if (url.pathname.endsWith("/") || LEGACY_PATHS.has(c.req.path) || FILE_PATH.test(c.req.path) || (method !== "GET" && method !== "HEAD")) return next();
    // One leading slash: `//evil.com/` would be read by browsers as another origin (an open redirect).
    return new Response(null, { status: 301, headers: { Location: `${url.pathname.replace(/^\/{2,}/, "/")}/${url.search}` } });
  };
}

/** The one endpoint that also answers `format=csv` and `format=tsv`. */
const PAIRS_PAGE = /^\/api\/pairs\/[^/]+\/[^/]+\/$/;

export function apiConventions(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const format = c.req.query("format");
    const tables = (format === "csv" || format === "tsv") && PAIRS_PAGE.test(c.req.path);
    if (format !== undefined && format !== "json" && format !== "api" && !tables) throw new ApiError(404, "Not found.");
    checkAcceptVersion(c.req.header("Accept"));
    c.set("links", linksFor(c.req.raw, c.var.scope.prefix));
    await next();
  };
}
