/**
 * CORS for a public, read-only API: any origin may read every answer (no credentials are
 * ever involved), and a browser's preflight is answered for every path with the methods
 * that path allows.
 */

/** Response headers a page's script may read besides the CORS-safelisted ones. */
const EXPOSED = ["ETag", "Link", "X-Total-Count", "X-Release", "X-Cache", "X-Blob-Reads", "X-Blob-Bytes", "Content-Disposition", "Allow"].join(", ");
/** Request headers a cross-origin script may send: negotiation, revalidation, bodies, SOAP. */
const ALLOWED_HEADERS = "Accept, Content-Type, If-None-Match, SOAPAction";
const PREFLIGHT_MAX_AGE = "86400";

/** A CORS preflight: OPTIONS with `Origin` and `Access-Control-Request-Method`. */
export const isPreflight = (request: Request): boolean =>
  request.method === "OPTIONS" && request.headers.has("Origin") && request.headers.has("Access-Control-Request-Method");

/** The preflight answer for a path whose `Allow` is `allow` (from the route's own OPTIONS answer). */
export function preflightAnswer(allow: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      "Access-Control-Allow-Origin": "*",
      "Access-Control-Allow-Methods": allow,
      "Access-Control-Allow-Headers": ALLOWED_HEADERS,
      "Access-Control-Max-Age": PREFLIGHT_MAX_AGE,
      Allow: allow,
    },
  });
}

/** Every answer, errors included, may be read cross-origin. */
export function withCors(response: Response): Response {
  const headers = response.headers;
  try {
    headers.set("Access-Control-Allow-Origin", "*");
  } catch {
    // Headers of a response we did not construct may be immutable: copy it.
    return withCors(new Response(response.body, response));
  }
  headers.set("Access-Control-Expose-Headers", EXPOSED);
  return response;
}
