/**
 * The k-mers of a sequence (release-format/kmers.ts), which the sequence index and the group
 * fingerprints are built from and the worker's sequence search reads: forEachKmer and
 * kmerCodes against the definition, a base-20 reading of every window of standard residues.
 */
import { describe, expect, it } from "vitest";
import { KMER_ALPHABET } from "../../release-format/format.js";
import { forEachKmer, kmerCodes } from "../../release-format/kmers.js";

/** Every window of `k` standard residues, read in base 20, with its position. */
function windows(sequence: string, k: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let i = 0; i + k <= sequence.length; i++) {
    const digits = [...sequence.slice(i, i + k)].map((c) => KMER_ALPHABET.indexOf(c));
    if (digits.every((d) => d >= 0)) out.push([digits.reduce((code, d) => code * 20 + d, 0), i]);
  }
  return out;
}

describe("k-mers", () => {
  let seed = 11;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  // Standard residues with X, a lower-case letter, a stop and a non-ASCII letter among them: each breaks the windows it is in.
  const letters = `${KMER_ALPHABET}${KMER_ALPHABET}Xa*é`;
  const sequences = ["", "ACD", "ACDEF", "ACDEFGHIK", "XXXXXXX", ...Array.from({ length: 200 }, () => Array.from({ length: Math.floor(random() * 90) }, () => letters[Math.floor(random() * letters.length)]).join(""))];

  it("forEachKmer visits every window of standard residues, in order, with its position", () => {
    for (const k of [5, 7]) {
      for (const sequence of sequences) {
        const seen: Array<[number, number]> = [];
        forEachKmer(sequence, (code, position) => seen.push([code, position]), k);
        expect(seen).toEqual(windows(sequence, k));
      }
    }
  });

  it("kmerCodes writes the same codes and positions into the buffers it is given, and says how many", () => {
    const codes = new Int32Array(100).fill(-1);
    const positions = new Int32Array(100).fill(-1);
    for (const k of [5, 7]) {
      for (const sequence of sequences) {
        const expected = windows(sequence, k);
        const n = kmerCodes(sequence, codes, k, positions);
        expect(n).toBe(expected.length);
        expect([...codes.subarray(0, n)]).toEqual(expected.map(([code]) => code));
        expect([...positions.subarray(0, n)]).toEqual(expected.map(([, position]) => position));
        expect(kmerCodes(sequence, codes, k)).toBe(n);
      }
    }
  });

  it("kmerCodes refuses buffers shorter than the windows a sequence can have", () => {
    expect(() => kmerCodes("ACDEFGHIK", new Int32Array(4), 5)).toThrow(RangeError);
    expect(() => kmerCodes("ACDEFGHIK", new Int32Array(5), 5, new Int32Array(4))).toThrow(RangeError);
    expect(kmerCodes("ACDEFGHIK", new Int32Array(5), 5)).toBe(5);
    expect(kmerCodes("ACD", new Int32Array(0), 5)).toBe(0);
  });
});
