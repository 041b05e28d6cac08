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
