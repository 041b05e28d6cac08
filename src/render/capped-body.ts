/** What reading a body with a size cap gave. */
type CappedBody =
  | { kind: "complete"; bytes: Uint8Array }
  /** Past the cap: the rest of the stream was read and dropped up to `drainTo`, then cancelled. */
  | { kind: "over"; size: number }
  /** The stream failed: what arrived before it did. */
  | { kind: "broken"; bytes: Uint8Array; error: unknown };

/**
 * Reads a body chunk by chunk and keeps at most `cap` bytes, whatever Content-Length claims, so
 * neither a large request nor a large response is ever held whole past the cap. Past the cap,
 * the rest is read and dropped until `drainTo` bytes in all (so a client still writing is not
 * cut off mid-write), then the stream is cancelled.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number, drainTo = cap): Promise<CappedBody> {
  if (!body) return { kind: "complete", bytes: new Uint8Array() };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) return { kind: "over", size: await drain(reader, size, drainTo) };
      chunks.push(value);
    }
  } catch (error) {
    return { kind: "broken", bytes: concat(chunks, size), error };
  }
  return { kind: "complete", bytes: concat(chunks, size) };
}

/** Reads and drops the rest of a stream up to `limit` bytes in all; the size seen. */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, size: number, limit: number): Promise<number> {
  try {
    while (size <= limit) {
      const { done, value } = await reader.read();
      if (done) return size;
      size += value.byteLength;
    }
  } catch {
    return size; // the client went away
  }
  await reader.cancel().catch(() => {});
  return size;
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
