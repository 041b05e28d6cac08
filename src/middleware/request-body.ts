/**
 * Reads every request body once, at the entry, within one cap; routes take the bytes from
 * `c.var.body` and never read the stream themselves. A body over the cap, or one whose stream
 * broke, is refused here with a `RequestBodyRefused` error, which the app's error answer renders
 * as a 413 (or 400) with a detail, or as a SOAP fault on the SOAP endpoint.
 *
 * Why not Hono's `bodyLimit`: it stops reading at the cap, and workerd then closes a connection
 * whose body is still arriving, so a client that writes its whole body before it reads (most
 * HTTP libraries) gets a reset instead of the 413. This reads and drops an oversized body up to
 * `drainTo` first; and every body, even one no route needs (a 405 to a POST), is read to its
 * end, since workerd drops a keep-alive connection whose request body was left unread.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.js";
import { ApiError } from "../errors.js";
import { readCapped } from "../render/capped-body.js";

/** The largest body any endpoint takes: a thousand ids for bulk retrieve, a MapIDs SOAP call. */
export const MAX_REQUEST_BODY = 1024 * 1024;
/** An oversized body is read and dropped up to this many bytes before the refusal goes out. */
export const OVERSIZE_DRAIN_LIMIT = 16 * 1024 * 1024;

export interface RequestBodyOptions {
  /** Largest body kept (default MAX_REQUEST_BODY). */
  cap?: number;
  /** An oversized body is read up to this, then the stream is cancelled (default OVERSIZE_DRAIN_LIMIT). */
  drainTo?: number;
}

/** A body refused at the entry: over the cap, or cut short by the client. */
export class RequestBodyRefused extends ApiError {
  constructor(
    readonly reason: "too-large" | "cut-short",
    readonly cap: number,
  ) {
    super(reason === "too-large" ? 413 : 400, reason === "too-large" ? `Request body too large: at most ${cap} bytes.` : "The request body was cut short.");
  }
}

const EMPTY = new Uint8Array();

export function requestBody(options: RequestBodyOptions = {}): MiddlewareHandler<AppEnv> {
  const cap = options.cap ?? MAX_REQUEST_BODY;
  const drainTo = options.drainTo ?? OVERSIZE_DRAIN_LIMIT;
  return async (c, next) => {
    const stream = c.req.raw.body;
    const read = stream ? await readCapped(stream, cap, drainTo) : { kind: "complete" as const, bytes: EMPTY };
    // GET and HEAD cannot carry a body onwards: theirs was read only to keep the connection.
    const carriesBody = c.req.method !== "GET" && c.req.method !== "HEAD";
    if (carriesBody && read.kind === "over") throw new RequestBodyRefused("too-large", cap);
    if (carriesBody && read.kind === "broken") throw new RequestBodyRefused("cut-short", cap);
    c.set("body", carriesBody && read.kind === "complete" ? read.bytes : EMPTY);
    await next();
  };
}
