import { readCapped } from "../render/capped-body.js";

/** The largest body any endpoint takes (bulk retrieve and SOAP calls). */
export const MAX_REQUEST_BODY = 1024 * 1024;
/**
 * An oversized body is still read (and dropped) up to this many bytes before the 413 goes out.
 * A client that writes its whole body before it reads the answer (most HTTP libraries) would
 * otherwise see its connection reset mid-write and never read the 413. Past this, the body is
 * cancelled and the connection closes, as it should for such a client.
 */
export const OVERSIZE_DRAIN_LIMIT = 16 * 1024 * 1024;

/** A request whose body has been read: `request` carries the bytes again, capped. */
export interface BufferedRequest {
  request: Request;
  /** The whole body, when it arrived whole within the cap (what a cached POST is keyed on). */
  complete?: Uint8Array;
}

/**
 * Reads a request's body once, at the entry, within the endpoints' cap. Every request body is
 * read to its end (or to the drain limit) whatever the answer: workerd drops a keep-alive
 * connection whose request body was left unread, so the client's next request on it would
 * fail. A body past the cap is handed on as cap + 1 bytes, so the endpoint answers 413 (or a
 * SOAP fault) without holding the rest.
 */
export async function bufferRequestBody(request: Request): Promise<BufferedRequest> {
  if (!request.body) return { request };
  const read = await readCapped(request.body, MAX_REQUEST_BODY, OVERSIZE_DRAIN_LIMIT);
  // GET and HEAD cannot carry a body onwards; theirs was read only to keep the connection.
  if (request.method === "GET" || request.method === "HEAD") return { request: new Request(request.url, { method: request.method, headers: request.headers }) };
  const bytes = read.kind === "over" ? new Uint8Array(MAX_REQUEST_BODY + 1) : read.bytes;
  return { request: new Request(request, { body: bytes }), complete: read.kind === "complete" ? bytes : undefined };
}
