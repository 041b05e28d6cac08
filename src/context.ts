/**
 * What a request carries through the middleware chain (`c.var`), and the accessors routes use.
 * src/app.ts sets these up; each middleware module says which of them it provides.
 */
import type { Context } from "hono";
import type { Env } from "./env.js";
import { ApiError } from "./errors.js";
import type { Links } from "./render/links.js";
import type { Release, Releases } from "./release/release.js";

/** Where a request's answer comes from: a release named in the path, or the current one. */
export interface ReleaseScope {
  /** `/release/{name}` when the request named its release, else "". */
  prefix: string;
  /** The release that answers; undefined when the current pointer could not be read (opening it then says why). */
  name?: string;
  /** The releases of the storage the app serves. */
  releases: Releases;
}

export type AppEnv = {
  Bindings: Env;
  Variables: {
    /** The request body, read once at the entry within the cap (empty for GET and HEAD). */
    body: Uint8Array;
    scope: ReleaseScope;
    /** The release opened for this request (on /api, /orth and SOAP calls). */
    release: Release;
    links: Links;
  };
};

export type AppContext = Context<AppEnv>;

export const releaseOf = (c: AppContext): Release => c.get("release");
export const linksOf = (c: AppContext): Links => c.get("links");

/** A path parameter of the matched route. */
export function pathParam(c: AppContext, name: string): string {
  const value = c.req.param(name);
  if (value === undefined) throw new ApiError(404, "Not found.");
  return value;
}

/**
 * Sets the response a middleware answers with. Hono's `c.res = …` merges the previous
 * response's headers into the new one; an answer that replaces another whole must not inherit them.
 */
export function replaceResponse(c: AppContext, response: Response): void {
  c.res = undefined;
  c.res = response;
}
