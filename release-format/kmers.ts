import { KMER_ALPHABET } from "./format.js";

/** k-mer length of the sequence index: every query of the minimum length (5) has one. */
export const KMER_LENGTH = 5;

const RESIDUE_CODE = new Int8Array(128).fill(-1);
for (let i = 0; i < KMER_ALPHABET.length; i++) RESIDUE_CODE[KMER_ALPHABET.charCodeAt(i)] = i;

/**
 * Calls `visit(code, position)` for every k-mer of standard residues in a sequence (a rolling
 * base-20 code over KMER_ALPHABET; k-mers holding X or another letter are skipped). The
 * sequence index uses k = KMER_LENGTH, group fingerprints k = 7.
 */
export function forEachKmer(sequence: string, visit: (code: number, position: number) => void, k = KMER_LENGTH): void {
  const room = Math.max(0, sequence.length - k + 1);
  const codes = new Int32Array(room);
  const positions = new Int32Array(room);
  const n = kmerCodes(sequence, codes, k, positions);
  for (let i = 0; i < n; i++) visit(codes[i], positions[i]);
}

/**
 * The k-mers forEachKmer visits, in order: their codes written into `codes` (and their
 * positions into `positions`) from index 0, each at least `sequence.length - k + 1` long;
 * returns how many. The group fingerprints, which look up every 7-mer of every protein twice,
 * loop over these arrays in reused buffers: a callback per k-mer, which V8 does not inline
 * where several loops pass their own, cost them more (on one thread at a million proteins, 15
 * against 10–14 s). The sequence index's k-mer finders count with it (write/sequence-index.ts).
 */
export function kmerCodes(sequence: string, codes: Int32Array, k = KMER_LENGTH, positions?: Int32Array): number {
  const room = sequence.length - k + 1;
  if (codes.length < room || (positions && positions.length < room)) throw new RangeError(`kmerCodes: room for ${Math.min(codes.length, positions?.length ?? Infinity)} k-mers, the sequence has up to ${room}`);
  const lead = KMER_ALPHABET.length ** (k - 1);
  let code = 0;
  let valid = 0;
  let n = 0;
  for (let i = 0; i < sequence.length; i++) {
    const ch = sequence.charCodeAt(i);
    const r = ch < 128 ? RESIDUE_CODE[ch] : -1;
    if (r < 0) {
      valid = 0;
      code = 0;
      continue;
    }
    // The residue leaving the window is subtracted rather than taken off with `% lead`: an
    // integer division a residue made this loop (every compile's k-mers and fingerprints) ~4× slower.
    if (valid >= k) code -= RESIDUE_CODE[sequence.charCodeAt(i - k)] * lead;
    code = code * 20 + r;
    valid++;
    if (valid < k) continue;
    if (positions) positions[n] = i - k + 1;
    codes[n++] = code;
  }
  return n;
}

/** The residues the interface keeps in a query (reference E.1). */
const QUERY_RESIDUES = /[^ACDEFGHIKLMNPQRSTVWXY]/g;

/** Upper-cased, everything outside the 20 amino acids and X dropped (whitespace, digits, `*`, `-`, B, Z, U, O, J). */
export function sanitiseSequence(query: string): string {
  return query.toUpperCase().replace(QUERY_RESIDUES, "");
}
