/** Unsigned LEB128 varints: 7 bits a byte, low bits first, high bit set on all but the last. */

export function varintLength(n: number): number {
  let length = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    length++;
  }
  return length;
}

/** Writes `n` at `at`; returns the position after it. */
export function writeVarint(bytes: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    bytes[at++] = (n % 0x80) | 0x80;
    n = Math.floor(n / 0x80);
  }
  bytes[at++] = n;
  return at;
}

/** Every varint of a byte string. */
export function readVarints(bytes: Uint8Array, count?: number): number[] {
  const out: number[] = [];
  let value = 0;
  let scale = 1;
  for (let i = 0; i < bytes.length && (count === undefined || out.length < count); i++) {
    const b = bytes[i];
    value += (b & 0x7f) * scale;
    if (b & 0x80) scale *= 0x80;
    else {
      out.push(value);
      value = 0;
      scale = 1;
    }
  }
  return out;
}
