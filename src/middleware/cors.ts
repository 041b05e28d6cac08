/**
 * CORS for a public, read-only API: any origin may read every answer (no credentials are ever
 * involved), and a browser's preflight is answered for every path with the methods that path
 * allows, taken from the route's own `OPTIONS` answer (its `Allow` header).
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.js";

/** Response headers a page's script may read besides the CORS-safelisted ones. */
const EXPOSED = ["ETag", "Link", "X-Total-Count", "X-Release", "X-Cache", "X-Blob-Reads", "X-Blob-Bytes", "Content-Disposition", "Allow", "Accept-Ranges", "Content-Range"].join(", ");
/** Request headers a cross-origin script may send: negotiation, revalidation, bodies, SOAP, a download's byte ranges. */
const ALLOWED_HEADERS = "Accept, Content-Type, If-None-Match, SOAPAction, Range, If-Range";
const PREFLIGHT_MAX_AGE = "86400";

/** A CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
const isPreflight = (request: Request): boolean =>
  request.method === "OPTIONS" && request.headers.has("Origin") && request.headers.has("Access-Control-Request-Method");

export function cors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (isPreflight(c.req.raw)) {
      // The rest of the chain answered the OPTIONS request as the route describes itself.
      const allow = c.res.headers.get("Allow") ?? "GET, HEAD, OPTIONS";
      await c.res.body?.cancel().catch(() => {});
      c.res = undefined;
      c.res = new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Methods": allow,
          "Access-Control-Allow-Headers": ALLOWED_HEADERS,
          "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
          Allow: allow,
        },
      });
    }
    // Every answer, errors included, may be read cross-origin.
    c.res = withHeaders(c.res, { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSED });
  };
}

/** The response with these headers set; one whose headers are immutable (from a fetch or the cache) is copied. */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    return withHeaders(new Response(response.body, response), headers);
  }
}
