/** An error answered as `{"detail": …}` with its HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404 | 405 | 406 | 410 | 413 | 415 | 503,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail = "Not found."): ApiError => new ApiError(404, detail);
export const badRequest = (detail: string): ApiError => new ApiError(400, detail);

/** Storage failed us (missing or corrupt blob, unreachable bucket): 503, never cached. */
export const unavailable = (detail: string): ApiError => new ApiError(503, detail);

/** A client-supplied id as echoed in an error: long ones are cut, so an error never grows with the request. */
export const echo = (id: string): string => (id.length > 100 ? `${id.slice(0, 100)}…` : id);

/** The JSON answer to an error: `{"detail": …}` with its status, never cached; anything unexpected is logged and a 500. */
export function errorAnswer(error: Error, request: Request): Response {
  const headers = { "Content-Type": "application/json", "Cache-Control": "no-store" };
  if (error instanceof ApiError) return new Response(JSON.stringify({ detail: error.detail, ...error.extra }), { status: error.status, headers });
  console.error(`${request.method} ${request.url}:`, error);
  return new Response(JSON.stringify({ detail: "Internal server error." }), { status: 500, headers });
}
