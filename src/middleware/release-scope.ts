/**
 * The release a request is answered from. `/release/{name}/…` names one (served forever, so
 * its answers are immutable); any other path is answered from the release the current pointer
 * names, read once per request so that the answer, its cache key and its ETag all come from one
 * release even while a publish switches the pointer.
 *
 * - `scopedPath` is the app's `getPath`: routes see `/api/…` whatever the prefix.
 * - `releaseScope()` resolves the scope into `c.var.scope` (before the edge cache, which keys on it).
 * - `withRelease()` opens the scope's release into `c.var.release` (after the edge cache, so a
 *   cache hit reads nothing from storage); a storage fault or an unknown release is thrown here.
 */
import type { MiddlewareHandler } from "hono";
import { getPath } from "hono/utils/url";
import type { AppContext, AppEnv } from "../context.js";
import type { Env } from "../env.js";
import { createBlobCache, type BlobCache } from "../release/blob-cache.js";
import { DEFAULT_POINTER_TTL_SECONDS, releasesIn, type Releases } from "../release/release.js";
import { r2Storage, type ReleaseStorage } from "../release/storage.js";

const NAMED_RELEASE = /^\/release\/([A-Za-z0-9._-]+)(\/.*)?$/;

/** The path routes match: without a `/release/{name}` prefix. */
export function scopedPath(request: Request): string {
  const path = getPath(request);
  const named = NAMED_RELEASE.exec(path);
  return named ? named[2] ?? "/" : path;
}

export interface ReleaseScopeOptions {
  /** Where releases are read from (default: the `RELEASES` R2 binding). An app serves one storage for its life. */
  storage?: (env: Env) => ReleaseStorage;
  /** The isolate's cache of decoded chunks (default: a new one, bounded to 64 MB of heap). */
  blobCache?: BlobCache;
}

export function releaseScope(options: ReleaseScopeOptions = {}): MiddlewareHandler<AppEnv> {
  const storageOf = options.storage ?? ((env: Env) => r2Storage(env.RELEASES));
  const blobCache = options.blobCache ?? createBlobCache();
  let releases: Releases | undefined;
  return async (c, next) => {
    releases ??= releasesIn(storageOf(c.env), blobCache);
    const named = NAMED_RELEASE.exec(getPath(c.req.raw));
    if (named) c.set("scope", { prefix: `/release/${named[1]}`, name: named[1], releases });
    else {
      // A pointer that cannot be read leaves the name open: pages that need no release still
      // answer, and opening the release (withRelease) reports the fault.
      const name = await releases.currentName(pointerTtlSeconds(c.env)).catch(() => undefined);
      c.set("scope", { prefix: "", name, releases });
    }
    await next();
  };
}

/** Opens the scope's release into `c.var.release` (not for OPTIONS, which describes a route). */
export function withRelease(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.req.method !== "OPTIONS") c.set("release", await openScoped(c));
    await next();
  };
}

async function openScoped(c: AppContext) {
  const { name, releases } = c.var.scope;
  return releases.open(name ?? (await releases.currentName(pointerTtlSeconds(c.env))));
}

function pointerTtlSeconds(env: Env | undefined): number {
  const ttl = Number(env?.RELEASE_POINTER_TTL_SECONDS ?? DEFAULT_POINTER_TTL_SECONDS);
  return Number.isFinite(ttl) ? ttl : DEFAULT_POINTER_TTL_SECONDS;
}
