/**
 * Edge caching of read answers. A release never changes once published, so an answer is a
 * function of the release, the request's URL and the variant the request negotiates (its
 * `Accept` header, and the public origin its links are built on). That tuple is the Cache API
 * key, and its hash is the answer's `ETag`: a repeat is served from the data centre's cache
 * without reading the release, and a client that already holds the answer gets `304`.
 *
 * Only `200` answers are cached: to GET and HEAD, and to the POSTs whose answer is a function
 * of their body (bulk retrieve, SOAP calls), keyed by that body too. Errors (`no-store`, 503
 * for storage faults among them) and SOAP faults never are.
 */
import type { MiddlewareHandler } from "hono";
import { replaceResponse, type AppContext, type AppEnv } from "../context.js";
import { linksFor } from "../render/links.js";
import { sha256Hex } from "../release/chunks.js";

/** A named release's URLs never change meaning; the current release's do when a new one goes live. */
const IMMUTABLE = "public, max-age=31536000, immutable";
const CURRENT = "public, max-age=300";
/** Cache keys live under a host no request can come from. */
const KEY_ORIGIN = "https://edge-cache.invalid";

export interface CacheScope {
  /** The release that answers: named in the path, or the current one resolved for this request. */
  release: string;
  /** `/release/{name}` when the request named its release, else "". */
  prefix: string;
}

/**
 * The variant of a URL a request negotiates: its `Accept` header as sent (JSON or a browsable
 * page, the interface version, the OpenAPI media type; each client sends one constant value,
 * so this splits the cache little), and the public origin its links are built on.
 */
const variantOf = (request: Request, prefix: string): string =>
  `${(request.headers.get("Accept") ?? "").trim()}\n${linksFor(request, prefix).base}`;

/**
 * The cache key of an answer and its entity tag, derived from the same string. A POST whose
 * answer depends on its body alone (bulk retrieve, a SOAP call) is keyed by the body and its
 * `Content-Type` too.
 */
export async function cacheIdentity(request: Request, scope: CacheScope, body?: Uint8Array): Promise<{ key: Request; etag: string }> {
  const url = new URL(request.url);
  const head = `${scope.release}\n${variantOf(request, scope.prefix)}\n${url.pathname}${url.search}`;
  const identity = body ? `${head}\n${request.headers.get("Content-Type") ?? ""}\n${await sha256Hex(body)}` : head;
  const hash = (await sha256Hex(new TextEncoder().encode(identity))).slice(0, 24);
  const key = new Request(`${KEY_ORIGIN}/${hash}${url.pathname}`, { method: "GET" });
  return { key, etag: `"${scope.release}-${hash}"` };
}

/** Whether an `If-None-Match` header names `etag` (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => opaque(tag) === opaque(etag));
}

/** The Cache API where the runtime has one (workerd); Node (in-process tests, the CPU benchmark) has none. */
const defaultCache = (): Cache | undefined => (typeof caches === "undefined" ? undefined : (caches as unknown as { default: Cache }).default);

export interface EdgeCacheOptions {
  /** POSTs whose answer is a function of the release and the body alone (bulk retrieve, SOAP calls). */
  cachesPost?: (c: AppContext) => boolean;
  /** The cache (default: the data centre's `caches.default`, none outside workerd). */
  cache?: () => Cache | undefined;
}

/**
 * Answers GET and HEAD (and the POSTs `cachesPost` names, keyed by their body) through the edge
 * cache: a hit is answered without running the rest of the chain; a miss runs it, and a `200`
 * is stored (after the response is sent, through `waitUntil`) and given its `ETag` and
 * `Cache-Control`. Either way `If-None-Match` may turn a GET or HEAD into a 304. A request
 * whose release is unknown (the pointer could not be read) passes through uncached.
 */
export function edgeCache(options: EdgeCacheOptions = {}): MiddlewareHandler<AppEnv> {
  const cacheOf = options.cache ?? defaultCache;
  return async (c, next) => {
    const { name: release, prefix } = c.var.scope;
    const method = c.req.method;
    const cachedPost = method === "POST" && (options.cachesPost?.(c) ?? false);
    if (!release || (method !== "GET" && method !== "HEAD" && !cachedPost)) return next();

    const request = c.req.raw;
    const identity = await cacheIdentity(request, { release, prefix }, cachedPost ? c.var.body : undefined);
    const cache = cacheOf();
    const hit = cache ? await cache.match(identity.key).catch(() => undefined) : undefined;
    let response: Response;
    if (hit) {
      response = new Response(hit.body, hit);
      response.headers.set("X-Cache", "HIT");
      response.headers.set("X-Blob-Reads", "0");
      response.headers.set("X-Blob-Bytes", "0");
      response.headers.set("Vary", "Accept");
    } else {
      await next();
      if (c.res.status !== 200 || /no-store/i.test(c.res.headers.get("Cache-Control") ?? "")) return;
      response = new Response(c.res.body, c.res);
      response.headers.set("ETag", identity.etag);
      response.headers.set("X-Cache", "MISS");
      if (cache && method !== "HEAD" && response.body) {
        const [sent, stored] = response.body.tee();
        const copy = new Response(stored, response);
        // The key already holds the variant; the stored copy lives as long as the release.
        copy.headers.delete("Vary");
        copy.headers.set("Cache-Control", IMMUTABLE);
        c.executionCtx.waitUntil(cache.put(identity.key, copy).catch((error) => console.error("edge cache put failed", error)));
        response = new Response(sent, response);
      }
    }
    response.headers.set("Cache-Control", prefix ? IMMUTABLE : CURRENT);
    if (method !== "POST" && matchesEtag(c.req.header("If-None-Match") ?? null, identity.etag)) {
      await response.body?.cancel().catch(() => {});
      const notModified = new Response(null, { status: 304 });
      for (const name of ["ETag", "Cache-Control", "Vary", "X-Release", "X-Cache"]) {
        const value = response.headers.get(name);
        if (value !== null) notModified.headers.set(name, value);
      }
      response = notModified;
    } else if (method === "HEAD" && response.body) {
      // Hono drops a HEAD answer's body; cancelled here, a streamed list stops being produced.
      await response.body.cancel().catch(() => {});
      response = new Response(null, response);
    }
    replaceResponse(c, response);
  };
}
