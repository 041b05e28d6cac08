/**
 * A body streamed from an async sequence of text pieces: each chunk (some 16 kB of pieces) is
 * produced when the client pulls it, so memory stays bounded whatever the answer's size, and a
 * reader that goes away (a HEAD, a 304, a client hanging up) stops production. A failure after
 * the headers are sent errors the body, which the client sees as cut short. With `gzip`, the
 * text is compressed on the way (CompressionStream, in workerd and Node alike).
 */

/** Pieces are batched into chunks of about this many characters. */
const CHUNK = 16_384;

/** The bodies textStream made, whose length is not known until they end (the edge cache keeps their copy as they pass: stored-copy.ts). */
const madeHere = new WeakSet<ReadableStream<Uint8Array>>();

/** Whether a response's body is one textStream made (a Response keeps the stream it was given as its body). */
export const isTextStream = (body: ReadableStream<Uint8Array> | null): boolean => body !== null && madeHere.has(body);

export function textStream(pieces: AsyncIterable<string>, what: string, options: { gzip?: boolean } = {}): ReadableStream<Uint8Array> {
  const iterator = pieces[Symbol.asyncIterator]();
  const encoder = new TextEncoder();
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        let chunk = "";
        let done = false;
        while (!done && chunk.length < CHUNK) {
          const next = await iterator.next();
          if (next.done) done = true;
          else chunk += next.value;
        }
        if (cancelled) return;
        if (chunk) controller.enqueue(encoder.encode(chunk));
        if (done) controller.close();
      } catch (error) {
        if (cancelled) return;
        console.error(`${what} failed after its headers were sent:`, error);
        controller.error(error);
      }
    },
    async cancel() {
      cancelled = true;
      await iterator.return?.();
    },
  });
  const made = options.gzip ? body.pipeThrough(new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>) : body;
  madeHere.add(made);
  return made;
}
