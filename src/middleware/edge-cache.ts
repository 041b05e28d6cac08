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
 *
 * Byte ranges (the download files, `ranged`): a GET asking one range (`Range: bytes=a-b`,
 * `bytes=a-`, `bytes=-n`) is answered `206` from the cached whole answer: the Cache API's
 * `match` honours `Range` itself (Cloudflare documents it, Miniflare's cache does it), so the
 * slice is cut by the store and streamed, never read whole here. A range starting at or beyond
 * the end is a `416` with `Content-Range: bytes *\/{size}`. Until the whole answer is cached (a
 * miss), the file is generated and answered whole (`200`, as HTTP lets a server do) and stored;
 * several ranges, a malformed header, or an `If-Range` that is not the answer's `ETag` get the
 * whole answer too (RFC 9110 §14.2, §13.1.5). Only a `200` that is being stored, and a hit,
 * say `Accept-Ranges: bytes`.
 */
import type { MiddlewareHandler } from "hono";
import { replaceResponse, type AppContext, type AppEnv } from "../context.js";
import { linksFor } from "../render/links.js";
import { sha256Hex } from "../release/chunks.js";
import { isTextStream } from "../render/text-stream.js";
import { storedCopy } from "./stored-copy.js";

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

/**
 * The one byte range a `Range` header asks for, as `bytes=a-b`, `bytes=a-` or `bytes=-n`; none
 * for an absent or malformed header, another unit, several ranges, or a last byte before the
 * first (all answered whole: RFC 9110 lets a server ignore `Range`, and must for an invalid one).
 */
export function singleRange(header: string | null | undefined): string | undefined {
  const match = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === "" && last === "") return undefined;
  if (first !== "" && last !== "" && Number(first) > Number(last)) return undefined;
  return `bytes=${first}-${last}`;
}

/**
 * Whether a request's `If-Range` lets its `Range` apply: absent, or naming this answer's entity
 * tag (a strong comparison; answers carry no `Last-Modified`, so a date never matches).
 */
const ifRangeHolds = (ifRange: string | undefined, etag: string): boolean => ifRange === undefined || ifRange.trim() === etag;

/** A ranged path's methods: the ranged answers are files of GET routes. */
const RANGED_ALLOW = "GET, HEAD, OPTIONS";

/** The Cache API where the runtime has one (workerd); Node (in-process tests, the CPU benchmark) has none. */
const defaultCache = (): Cache | undefined => (typeof caches === "undefined" ? undefined : (caches as unknown as { default: Cache }).default);

export interface EdgeCacheOptions {
  /** POSTs whose answer is a function of the release and the body alone (bulk retrieve, SOAP calls). */
  cachesPost?: (c: AppContext) => boolean;
  /**
   * GET answers whose byte ranges are served from the cached whole answer (the download
   * files). Every other answer ignores `Range`.
   */
  ranged?: (c: AppContext) => boolean;
  /** The cache (default: the data centre's `caches.default`, none outside workerd). */
  cache?: () => Cache | undefined;
  /** Bytes of an answer stored whole, its length known; a longer one is stored as a stream (stored-copy.ts). */
  storedWholeBytes?: number;
}

/**
 * Answers GET and HEAD (and the POSTs `cachesPost` names, keyed by their body) through the edge
 * cache: a hit is answered without running the rest of the chain; a miss runs it, and a `200`
 * is given its `ETag` and `Cache-Control` and stored through `waitUntil` (a streamed answer
 * once it has been sent whole: stored-copy.ts). Either way `If-None-Match` may turn a GET or
 * HEAD into a 304. A request whose release is unknown (the pointer could not be read) passes
 * through uncached.
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
    const etagMatches = method !== "POST" && matchesEtag(c.req.header("If-None-Match") ?? null, identity.etag);
    // A file's one range is asked of the cache (a 304, which If-None-Match may earn, comes first).
    const rangeable = (method === "GET" || method === "HEAD") && cache !== undefined && (options.ranged?.(c) ?? false);
    const range = rangeable && method === "GET" && !etagMatches && ifRangeHolds(c.req.header("If-Range"), identity.etag) ? singleRange(c.req.header("Range")) : undefined;
    const asked = range ? new Request(identity.key, { headers: { Range: range } }) : identity.key;
    const hit = cache ? await cache.match(asked).catch(() => undefined) : undefined;
    let response: Response;
    if (range && hit?.status === 416) {
      await hit.body?.cancel().catch(() => {});
      return replaceResponse(c, unsatisfiable(range, hit.headers.get("Content-Range"), release));
    } else if (hit) {
      response = new Response(hit.body, hit);
      response.headers.set("X-Cache", "HIT");
      response.headers.set("X-Blob-Reads", "0");
      response.headers.set("X-Blob-Bytes", "0");
      response.headers.set("Vary", "Accept");
      if (rangeable) response.headers.set("Accept-Ranges", "bytes");
    } else {
      await next();
      if (c.res.status !== 200 || /no-store/i.test(c.res.headers.get("Cache-Control") ?? "")) return;
      response = new Response(c.res.body, c.res);
      response.headers.set("ETag", identity.etag);
      response.headers.set("X-Cache", "MISS");
      if (cache && method !== "HEAD" && response.body) {
        // Stored whole, a file's ranges can be served from now on (a HEAD stores nothing).
        if (rangeable) response.headers.set("Accept-Ranges", "bytes");
        const { sent, stored, abandon } = storedCopy(response.body, { streamed: isTextStream(response.body), limit: options.storedWholeBytes });
        const headers = new Headers(response.headers);
        // The key already holds the variant; the stored copy lives as long as the release.
        headers.delete("Vary");
        headers.set("Cache-Control", IMMUTABLE);
        const { status } = response;
        const store = async () => {
          const body = await stored;
          if (body) await cache.put(identity.key, new Response(body, { status, headers }));
        };
        c.executionCtx.waitUntil(
          store().catch((error) => {
            abandon(error);
            console.error("edge cache put failed", error);
          }),
        );
        response = new Response(sent, response);
      }
    }
    response.headers.set("Cache-Control", prefix ? IMMUTABLE : CURRENT);
    if (etagMatches) {
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

/**
 * `416` to a range beyond the end of a cached file: `Content-Range: bytes *\/{size}` as the
 * cache reported it, a `{"detail": …}` body, never cached.
 */
function unsatisfiable(range: string, contentRange: string | null, release: string): Response {
  const size = /^bytes \*\/(\d+)$/.exec(contentRange ?? "")?.[1];
  const detail = size === undefined ? `Range not satisfiable: ${range}.` : `Range not satisfiable: ${range} starts at or beyond the end of the file (${size} bytes).`;
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
    "Accept-Ranges": "bytes",
    Vary: "Accept",
    Allow: RANGED_ALLOW,
    "X-Release": release,
    "X-Cache": "HIT",
  };
  if (contentRange) headers["Content-Range"] = contentRange;
  return new Response(JSON.stringify({ detail }), { status: 416, headers });
}
