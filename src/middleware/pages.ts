/**
 * Pages for people: a browser (an `Accept` header that prefers `text/html`) asking for a
 * resource without a `format` gets a page drawn for reading (tables, a protein card, the HOG
 * drawn on the species tree) instead of the JSON viewer. Registered per path after the release
 * is opened, around the JSON route: the route answers first, so a page exists exactly when the
 * JSON answer is a 200 (its errors, `format=api` and `format=json`, and API clients are left
 * to the browsable middleware and the route as before). The page is built from the release, not
 * from the JSON text, and keeps the answer's paging headers (`Link`, `X-Total-Count`).
 */
import type { MiddlewareHandler } from "hono";
import { replaceResponse, type AppContext, type AppEnv } from "../context.js";
import { prefersHtml } from "../render/accept.js";
import { htmlHeaders } from "../render/html.js";

/** Builds the page of a request whose JSON answer was a 200: the whole HTML document. */
export type PageBuilder = (c: AppContext) => Promise<string>;

/** Headers of the JSON answer that do not describe the page. */
const DROPPED = ["content-type", "content-length", "content-encoding", "content-disposition", "etag"];

/** A browser's navigation to a resource, not to one of its representations (`format=`). */
export const wantsPage = (c: AppContext): boolean =>
  (c.req.method === "GET" || c.req.method === "HEAD") && c.req.query("format") === undefined && prefersHtml(c.req.header("Accept"));

export function page(build: PageBuilder): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!wantsPage(c)) return next();
    await next();
    const res = c.res;
    if (res.status !== 200 || !/^application\/json\s*(?:;|$)/i.test(res.headers.get("Content-Type") ?? "")) return;
    await res.body?.cancel().catch(() => {});
    // HEAD: the headers of the page, without building it.
    const html = c.req.method === "HEAD" ? null : await build(c);
    const headers = new Headers(res.headers);
    for (const name of DROPPED) headers.delete(name);
    for (const [name, value] of Object.entries(await htmlHeaders())) headers.set(name, value);
    replaceResponse(c, new Response(html, { status: 200, headers }));
  };
}
