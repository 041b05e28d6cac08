import type { Context } from "hono";

const JSON_TYPE = "application/json";

/** Fields the interface types as floats: written `105.0`, not `105`, even when whole. */
const FLOAT_FIELDS = new Set(["distance", "score", "ic", "alignment_score", "completeness_score", "jaccard_similarity", "fraction"]);
const FLOAT_MARK = "\u0001float:";
const MARKED_FLOAT = /"\\u0001float:(-?[0-9]+)"/g;

/**
 * JSON text of a response body. JavaScript has one number type, so whole values of float
 * fields are marked while stringifying and written with `.0` afterwards (clients in typed
 * languages read them as floats, as the reference's `105.0` shows).
 */
export function stringify(body: unknown): string {
  const text = JSON.stringify(body, (key, value) =>
    typeof value === "number" && Number.isInteger(value) && FLOAT_FIELDS.has(key) ? `${FLOAT_MARK}${value}` : value,
  );
  return text.includes("\\u0001float:") ? text.replace(MARKED_FLOAT, "$1.0") : text;
}

export function json(c: Context, body: unknown, headers: Record<string, string> = {}, status: 200 | 404 = 200): Response {
  return new Response(stringify(body), { status, headers: { ...headers, "Content-Type": JSON_TYPE } });
}

/** Items are batched into chunks of about this many characters. */
const STREAM_CHUNK = 16_384;

/**
 * A JSON array streamed item by item, so a page of thousands of proteins never sits in memory
 * as one string. Each chunk is produced when the client pulls it (backpressure); a reader that
 * goes away (a HEAD, a 304, a page too large to render) stops production. A failure after the
 * headers are sent errors the body, which the client sees as cut short.
 */
export function jsonArrayStream(items: AsyncIterable<unknown>, headers: Record<string, string> = {}): Response {
  const iterator = items[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let first = true;
  let done = false;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = first ? "[" : "";
        while (!done && chunk.length < STREAM_CHUNK) {
          const next = await iterator.next();
          if (next.done) done = true;
          else {
            chunk += (first ? "" : ",") + stringify(next.value);
            first = false;
          }
        }
        first = false;
        if (cancelled) return;
        if (done) chunk += "]";
        controller.enqueue(encoder.encode(chunk));
        if (done) controller.close();
      } catch (error) {
        if (cancelled) return;
        console.error("streamed list failed after its headers were sent:", error);
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      await iterator.return?.();
    },
  });
  return new Response(body, { headers: { ...headers, "Content-Type": JSON_TYPE } });
}
