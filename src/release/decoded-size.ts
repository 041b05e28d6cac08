/**
 * An estimate of the heap a decoded chunk takes in V8, so the isolate's chunk cache is bounded by
 * memory rather than by encoded bytes: decoded chunks of small arrays and records take up to
 * ~15 times their msgpack size, sequence chunks barely more. Long arrays are estimated from an
 * even sample of their elements, so the cost stays well under that of decoding.
 */
const SAMPLE = 24;

export function decodedSize(value: unknown): number {
  if (typeof value === "string") return 16 + value.length;
  if (typeof value === "number") return Number.isInteger(value) && Math.abs(value) < 2 ** 30 ? 0 : 16;
  if (value === null || typeof value !== "object") return 0;
  if (ArrayBuffer.isView(value)) return 64 + value.byteLength;
  if (Array.isArray(value)) return 48 + 8 * value.length + sampled(value);
  let total = 48;
  for (const key in value) total += 8 + decodedSize((value as Record<string, unknown>)[key]);
  return total;
}

/** The elements' own sizes: all of them for short arrays, else an even sample scaled up. */
function sampled(items: unknown[]): number {
  if (items.length <= SAMPLE * 2) {
    let total = 0;
    for (const item of items) total += decodedSize(item);
    return total;
  }
  const step = items.length / SAMPLE;
  let total = 0;
  for (let i = 0; i < SAMPLE; i++) total += decodedSize(items[Math.floor(i * step)]);
  return (total * items.length) / SAMPLE;
}
