/** What reading a body with a size cap gave. */
export type CappedBody =
  | { kind: "complete"; bytes: Uint8Array }
  /** Past the cap: the rest of the stream was cancelled. */
  | { kind: "over"; size: number }
  /** The stream failed: what arrived before it did. */
  | { kind: "broken"; bytes: Uint8Array; error: unknown };

/**
 * Reads a body chunk by chunk and stops at `cap` bytes, whatever Content-Length claims, so
 * neither a large request nor a large response is ever held whole past the cap.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<CappedBody> {
  if (!body) return { kind: "complete", bytes: new Uint8Array() };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > cap) {
        await reader.cancel().catch(() => {});
        return { kind: "over", size };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { kind: "broken", bytes: concat(chunks, size), error };
  }
  return { kind: "complete", bytes: concat(chunks, size) };
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
