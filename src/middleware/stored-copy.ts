/**
 * An answer's body as it is sent, and the copy of it the edge cache stores (edge-cache.ts).
 *
 * A streamed answer (a list page, a download: render/text-stream.ts), whose length is not known
 * until it ends, is kept as it passes, chunk by chunk, and handed to the cache whole once it
 * ends: one body of known length, where a second stream of it (`tee`) gave the cache a body of
 * unknown length to size and store as it came. Measured on Miniflare, four pages of 5,000
 * proteins at once on a fresh instance (the serve benchmark's release, medians of six
 * instances): 467–522 ms with the second stream, 233–265 kept whole, 210 not stored at all.
 *
 * Memory stays bounded whatever the answer's size: past `limit` bytes the copy becomes a
 * stream, from its first byte on, fed as the body is sent (a page of millions of rows, a
 * download file), and the body waits for the copy's reader to take each chunk, so the copy's
 * stream must be read while the body is (the cache's `put` does). A streamed answer that does
 * not end (a client that goes away, a 304 that cancels its body, a failure) leaves no copy:
 * nothing partial is ever stored.
 */

/**
 * Bytes of an answer kept to be stored whole; past them, the copy is streamed. A page of 5,000
 * proteins is 2.2 MiB; eight such answers in flight keep 32 MiB at most beside the isolate's
 * chunk cache (64 MB of its 128).
 */
export const STORED_WHOLE_BYTES = 4 * 2 ** 20;

/** The copy to store: whole (its length known), or a stream from the first byte; undefined if the answer did not end. */
export type StoredBody = Blob | ReadableStream<Uint8Array> | undefined;

export interface StoredCopy {
  /** The body to send: the answer's bytes as they come. */
  sent: ReadableStream<Uint8Array>;
  /** Settles once the answer ends within `limit` bytes, passes them, or is abandoned. */
  stored: Promise<StoredBody>;
  /** The copy's reader has gone (the cache refused it): the body goes on without feeding it. */
  abandon(reason: unknown): void;
}

/**
 * The body to send and the copy to store. Only a `streamed` body (render/text-stream.ts) is kept
 * as it passes: one rendered whole (a string) is copied as a second stream (`tee`), which the
 * runtime does natively, its length known, where read here it would come in 4 kB chunks (in
 * workerd: 684 reads for a bulk retrieve's 2.7 MiB, which took 371 → 465 ms at p50 four at once).
 */
export function storedCopy(body: ReadableStream<Uint8Array>, { streamed = true, limit = STORED_WHOLE_BYTES }: { streamed?: boolean; limit?: number } = {}): StoredCopy {
  if (!streamed) {
    const [sent, stored] = body.tee();
    return { sent, stored: Promise.resolve(stored), abandon: (reason) => void stored.cancel(reason).catch(() => {}) };
  }
  const reader = body.getReader();
  let kept: Uint8Array[] = [];
  let size = 0;
  /** Past the limit: the writing end of the copy's stream. */
  let copyWriter: WritableStreamDefaultWriter<Uint8Array> | undefined;
  let settle!: (copy: StoredBody) => void;
  const stored = new Promise<StoredBody>((resolve) => (settle = resolve));
  // A write's or close's failure is the copy's reader going away (the cache refused it): the answer is sent all the same.
  const ignore = () => {};
  const abandon = (reason: unknown) => {
    kept = [];
    if (copyWriter) copyWriter.abort(reason).catch(ignore);
    else settle(undefined);
  };
  const sent = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        abandon(error);
        controller.error(error);
        return;
      }
      if (next.done) {
        if (copyWriter) copyWriter.close().catch(ignore);
        else settle(new Blob(kept));
        kept = [];
        controller.close();
        return;
      }
      const chunk = next.value;
      controller.enqueue(chunk);
      if (copyWriter) {
        // The body goes on once the copy's reader has taken this chunk (or gone: abandon): what waits is bounded.
        await copyWriter.write(chunk).catch(ignore);
        return;
      }
      kept.push(chunk);
      size += chunk.byteLength;
      if (size > limit) {
        const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
        copyWriter = writable.getWriter();
        for (const k of kept) copyWriter.write(k).catch(ignore);
        kept = [];
        settle(readable);
      }
    },
    async cancel(reason) {
      abandon(reason);
      await reader.cancel(reason);
    },
  });
  return { sent, stored, abandon };
}
