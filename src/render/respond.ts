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

/**
 * A JSON array streamed item by item, so a page of thousands of proteins never sits in
 * memory as one string. The items are written into a TransformStream as the client reads;
 * a failure after the headers are sent aborts the body, which the client sees as cut short.
 */
export function jsonArrayStream(items: AsyncIterable<unknown>, headers: Record<string, string> = {}): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  const write = async () => {
    let chunk = "[";
    let first = true;
    for await (const item of items) {
      chunk += (first ? "" : ",") + stringify(item);
      first = false;
      // Batch items into chunks of a few kilobytes; awaiting the write applies backpressure.
      if (chunk.length >= 16_384) {
        await writer.write(encoder.encode(chunk));
        chunk = "";
      }
    }
    await writer.write(encoder.encode(`${chunk}]`));
    await writer.close();
  };
  write().catch((error) => {
    console.error("streamed list failed after its headers were sent:", error);
    return writer.abort(error);
  });
  return new Response(readable, { headers: { ...headers, "Content-Type": JSON_TYPE } });
}
