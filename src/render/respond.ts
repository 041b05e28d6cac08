import type { Context } from "hono";

const JSON_TYPE = "application/json";

export function json(c: Context, body: unknown, headers: Record<string, string> = {}, status: 200 | 404 = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...headers, "Content-Type": JSON_TYPE } });
}

/**
 * A JSON array streamed item by item, so a page of thousands of proteins never sits in
 * memory as one string; items come from an async source that reads shards as it goes.
 */
export function jsonArrayStream(items: AsyncIterable<unknown>, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  const iterator = items[Symbol.asyncIterator]();
  let first = true;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk = first ? "[" : "";
      // Batch items into chunks of a few kilobytes.
      while (chunk.length < 16_384) {
        const next = await iterator.next();
        if (next.done) {
          controller.enqueue(encoder.encode(`${chunk}]`));
          controller.close();
          return;
        }
        chunk += (first ? "" : ",") + JSON.stringify(next.value);
        first = false;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, { headers: { ...headers, "Content-Type": JSON_TYPE } });
}
