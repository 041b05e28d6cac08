/**
 * Protein and coding-sequence helpers: amino acids drawn with realistic background frequencies,
 * point substitutions and short indels, back-translation with the standard genetic code, and
 * the UniProt sequence checksums (CRC64, average molecular weight). Sequences are byte arrays
 * of upper-case ASCII letters.
 */
import type { Rng } from "./rng.js";

/** UniProtKB/Swiss-Prot amino-acid composition (percent). */
const AA_FREQUENCIES: ReadonlyArray<[string, number]> = [
  ["A", 8.25], ["R", 5.53], ["N", 4.06], ["D", 5.46], ["C", 1.38], ["Q", 3.93], ["E", 6.72],
  ["G", 7.07], ["H", 2.27], ["I", 5.91], ["L", 9.65], ["K", 5.8], ["M", 2.41], ["F", 3.86],
  ["P", 4.74], ["S", 6.63], ["T", 5.35], ["W", 1.1], ["Y", 2.92], ["V", 6.86],
];

/** 4096-entry lookup: an amino acid for each 12-bit random number, by background frequency. */
const AA_TABLE = (() => {
  const table = new Uint8Array(4096);
  const total = AA_FREQUENCIES.reduce((s, [, f]) => s + f, 0);
  let at = 0;
  let cumulative = 0;
  for (const [aa, f] of AA_FREQUENCIES) {
    cumulative += f;
    const end = Math.round((cumulative / total) * 4096);
    table.fill(aa.charCodeAt(0), at, end);
    at = end;
  }
  return table;
})();

const M = 77; // "M"

/** A random protein of `length` residues starting with methionine. */
export function randomProtein(rng: Rng, length: number): Uint8Array {
  const seq = new Uint8Array(length);
  seq[0] = M;
  for (let i = 1; i < length; i++) seq[i] = AA_TABLE[rng.nextU32() >>> 20];
  return seq;
}

/** A conserved region of a protein, in residue coordinates [start, end). */
export interface Region {
  start: number;
  end: number;
}

export interface MutationModel {
  /** Expected substitutions per site over a branch of length 1. */
  rate: number;
  /** Probability that a substitution hitting a conserved region is kept. */
  conservedAcceptance: number;
  /** Expected indels per branch of length 1. */
  indelRate: number;
  minLength: number;
  maxLength: number;
}

/**
 * Mutates `seq` along a branch of length `branch`: substitutions in place (the first residue
 * stays M), then possibly one short insertion or deletion, which returns a new array.
 * `conserved` regions are in the coordinates of the family's root sequence, scaled to the
 * current length.
 */
export function mutate(
  rng: Rng,
  seq: Uint8Array,
  branch: number,
  model: MutationModel,
  rootLength: number,
  conserved: readonly Region[],
): Uint8Array {
  const length = seq.length;
  const substitutions = rng.poisson(model.rate * length * branch);
  const scale = length / rootLength;
  for (let k = 0; k < substitutions; k++) {
    const pos = 1 + Math.floor(rng.float() * (length - 1));
    let inConserved = false;
    for (const r of conserved) {
      if (pos >= r.start * scale && pos < r.end * scale) {
        inConserved = true;
        break;
      }
    }
    if (inConserved && rng.float() >= model.conservedAcceptance) continue;
    seq[pos] = AA_TABLE[rng.nextU32() >>> 20];
  }
  if (rng.float() < Math.min(0.6, model.indelRate * branch)) {
    const size = 1 + rng.int(8);
    const pos = 1 + rng.int(length - 1);
    if (rng.float() < 0.5) {
      if (length + size <= model.maxLength) {
        const out = new Uint8Array(length + size);
        out.set(seq.subarray(0, pos), 0);
        for (let i = 0; i < size; i++) out[pos + i] = AA_TABLE[rng.nextU32() >>> 20];
        out.set(seq.subarray(pos), pos + size);
        return out;
      }
    } else if (length - size >= model.minLength && pos + size <= length) {
      const out = new Uint8Array(length - size);
      out.set(seq.subarray(0, pos), 0);
      out.set(seq.subarray(pos + size), pos);
      return out;
    }
  }
  return seq;
}

// ---------------------------------------------------------------------------------------------
// Standard genetic code

const BASES = "TCAG";
/** Amino acid of each codon, indexed by 16*b1 + 4*b2 + b3 with T=0, C=1, A=2, G=3; `*` = stop. */
const CODE_TABLE = "FFLLSSSSYY**CC*WLLLLPPPPHHQQRRRRIIIMTTTTNNKKSSRRVVVVAAAADDEEGGGG";
const BASE_INDEX = new Int8Array(128).fill(-1);
for (let i = 0; i < 4; i++) BASE_INDEX[BASES.charCodeAt(i)] = i;

/** Codons of each amino acid (by char code), as 3-byte arrays. */
const CODONS_OF: Uint8Array[][] = (() => {
  const codons: Uint8Array[][] = Array.from({ length: 128 }, () => []);
  for (let i = 0; i < 64; i++) {
    const codon = Uint8Array.of(
      BASES.charCodeAt(i >> 4),
      BASES.charCodeAt((i >> 2) & 3),
      BASES.charCodeAt(i & 3),
    );
    codons[CODE_TABLE.charCodeAt(i)].push(codon);
  }
  return codons;
})();
const STOP = 42; // "*"

/**
 * A coding sequence for `protein`: one random synonymous codon per residue, then a stop codon.
 * Its length is 3 * (protein.length + 1).
 */
export function backTranslate(rng: Rng, protein: Uint8Array): Uint8Array {
  const out = new Uint8Array(3 * (protein.length + 1));
  let o = 0;
  for (let i = 0; i < protein.length; i++) {
    const choices = CODONS_OF[protein[i]];
    const c = choices.length === 1 ? choices[0] : choices[(rng.nextU32() >>> 16) % choices.length];
    out[o] = c[0];
    out[o + 1] = c[1];
    out[o + 2] = c[2];
    o += 3;
  }
  const stops = CODONS_OF[STOP];
  out.set(stops[rng.int(stops.length)], o);
  return out;
}

/** Translates a coding sequence (string) with the standard code; `*` for stops, `X` for ambiguity. */
export function translate(cds: string): string {
  let out = "";
  for (let i = 0; i + 3 <= cds.length; i += 3) {
    const a = BASE_INDEX[cds.charCodeAt(i) & 127];
    const b = BASE_INDEX[cds.charCodeAt(i + 1) & 127];
    const c = BASE_INDEX[cds.charCodeAt(i + 2) & 127];
    out += a < 0 || b < 0 || c < 0 ? "X" : CODE_TABLE[a * 16 + b * 4 + c];
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// UniProt SQ line values

const CRC_HIGH = new Uint32Array(256);
const CRC_LOW = new Uint32Array(256);
for (let i = 0; i < 256; i++) {
  let low = i;
  let high = 0;
  for (let j = 0; j < 8; j++) {
    const bit = low & 1;
    low >>>= 1;
    if (high & 1) low = (low | 0x80000000) >>> 0;
    high >>>= 1;
    if (bit) high = (high ^ 0xd8000000) >>> 0;
  }
  CRC_HIGH[i] = high;
  CRC_LOW[i] = low;
}

/** The CRC64 (ISO polynomial) checksum UniProt prints on SQ lines, 16 upper-case hex digits. */
export function crc64(seq: Uint8Array): string {
  let high = 0;
  let low = 0;
  for (let i = 0; i < seq.length; i++) {
    const index = (low ^ seq[i]) & 0xff;
    const shifted = (high & 0xff) << 24;
    high = (high >>> 8) ^ CRC_HIGH[index];
    low = ((low >>> 8) | shifted) ^ CRC_LOW[index];
  }
  const hex = (n: number): string => (n >>> 0).toString(16).toUpperCase().padStart(8, "0");
  return hex(high) + hex(low);
}

const AVERAGE_MASS: Record<string, number> = {
  A: 71.0788, R: 156.1875, N: 114.1038, D: 115.0886, C: 103.1388, E: 129.1155, Q: 128.1307,
  G: 57.0519, H: 137.1411, I: 113.1594, L: 113.1594, K: 128.1741, M: 131.1926, F: 147.1766,
  P: 97.1167, S: 87.0782, T: 101.1051, W: 186.2132, Y: 163.176, V: 99.1326,
};
const MASS_TABLE = new Float64Array(128);
for (const [aa, m] of Object.entries(AVERAGE_MASS)) MASS_TABLE[aa.charCodeAt(0)] = m;

/** Average molecular weight in Da, rounded as on UniProt SQ lines. */
export function molecularWeight(seq: Uint8Array): number {
  let mass = 18.01524;
  for (let i = 0; i < seq.length; i++) mass += MASS_TABLE[seq[i]];
  return Math.round(mass);
}
