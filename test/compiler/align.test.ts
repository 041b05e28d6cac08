/**
 * Smith-Waterman / BLOSUM62 / affine gaps (release-format/align.ts) against straightforward
 * reference implementations written here: the textbook three-matrix Gotoh recurrences on plain
 * arrays, and (for short pairs) the general-gap-function recurrence that tries every gap length.
 */
import { describe, expect, it } from "vitest";
import {
  ALPHABET,
  ALPHABET_SIZE,
  BLOSUM62,
  GAP_EXTEND,
  GAP_OPEN,
  MAX_TRACEBACK_CELLS,
  X_CODE,
  alignAtLeast,
  encode,
  localAlignment,
  localScore,
  tracebackFits,
  type LocalAlignment,
} from "../../release-format/align.js";

// The standard NCBI BLOSUM62 table, as distributed (with B, Z and *).
const NCBI_BLOSUM62 = `
   A  R  N  D  C  Q  E  G  H  I  L  K  M  F  P  S  T  W  Y  V  B  Z  X  *
A  4 -1 -2 -2  0 -1 -1  0 -2 -1 -1 -1 -1 -2 -1  1  0 -3 -2  0 -2 -1  0 -4
R -1  5  0 -2 -3  1  0 -2  0 -3 -2  2 -1 -3 -2 -1 -1 -3 -2 -3 -1  0 -1 -4
N -2  0  6  1 -3  0  0  0  1 -3 -3  0 -2 -3 -2  1  0 -4 -2 -3  3  0 -1 -4
D -2 -2  1  6 -3  0  2 -1 -1 -3 -4 -1 -3 -3 -1  0 -1 -4 -3 -3  4  1 -1 -4
C  0 -3 -3 -3  9 -3 -4 -3 -3 -1 -1 -3 -1 -2 -3 -1 -1 -2 -2 -1 -3 -3 -2 -4
Q -1  1  0  0 -3  5  2 -2  0 -3 -2  1  0 -3 -1  0 -1 -2 -1 -2  0  3 -1 -4
E -1  0  0  2 -4  2  5 -2  0 -3 -3  1 -2 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4
G  0 -2  0 -1 -3 -2 -2  6 -2 -4 -4 -2 -3 -3 -2  0 -2 -2 -3 -3 -1 -2 -1 -4
H -2  0  1 -1 -3  0  0 -2  8 -3 -3 -1 -2 -1 -2 -1 -2 -2  2 -3  0  0 -1 -4
I -1 -3 -3 -3 -1 -3 -3 -4 -3  4  2 -3  1  0 -3 -2 -1 -3 -1  3 -3 -3 -1 -4
L -1 -2 -3 -4 -1 -2 -3 -4 -3  2  4 -2  2  0 -3 -2 -1 -2 -1  1 -4 -3 -1 -4
K -1  2  0 -1 -3  1  1 -2 -1 -3 -2  5 -1 -3 -1  0 -1 -3 -2 -2  0  1 -1 -4
M -1 -1 -2 -3 -1  0 -2 -3 -2  1  2 -1  5  0 -2 -1 -1 -1 -1  1 -3 -1 -1 -4
F -2 -3 -3 -3 -2 -3 -3 -3 -1  0  0 -3  0  6 -4 -2 -2  1  3 -1 -3 -3 -1 -4
P -1 -2 -2 -1 -3 -1 -1 -2 -2 -3 -3 -1 -2 -4  7 -1 -1 -4 -3 -2 -2 -1 -2 -4
S  1 -1  1  0 -1  0  0  0 -1 -2 -2  0 -1 -2 -1  4  1 -3 -2 -2  0  0  0 -4
T  0 -1  0 -1 -1 -1 -1 -2 -2 -1 -1 -1 -1 -2 -1  1  5 -2 -2  0 -1 -1  0 -4
W -3 -3 -4 -4 -2 -2 -3 -2 -2 -3 -2 -3 -1  1 -4 -3 -2 11  2 -3 -4 -3 -2 -4
Y -2 -2 -2 -3 -2 -1 -2 -3  2 -1 -1 -2 -1  3 -3 -2 -2  2  7 -1 -3 -2 -1 -4
V  0 -3 -3 -3 -1 -2 -2 -3 -3  3  1 -2  1 -1 -2 -2  0 -3 -1  4 -3 -2 -1 -4
B -2 -1  3  4 -3  0  1 -1  0 -3 -4  0 -3 -3 -2  0 -1 -4 -3 -3  4  1 -1 -4
Z -1  0  0  1 -3  3  4 -2  0 -3 -3  1 -1 -3 -1  0 -1 -3 -2 -2  1  4 -1 -4
X  0 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -2  0  0 -2 -1 -1 -1 -1 -1 -4
* -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4 -4  1
`;

/** Letter pair → score, from the text table above (a map of maps, no typed arrays). */
const TABLE: Record<string, Record<string, number>> = (() => {
  const lines = NCBI_BLOSUM62.trim().split("\n");
  const cols = lines[0].trim().split(/\s+/);
  const table: Record<string, Record<string, number>> = {};
  for (const line of lines.slice(1)) {
    const [row, ...values] = line.trim().split(/\s+/);
    table[row] = {};
    values.forEach((v, k) => (table[row][cols[k]] = Number(v)));
  }
  return table;
})();

const AMINO = "ARNDCQEGHILKMFPSTWYV";
/** Reference residue scoring: upper-case; anything outside the 20 amino acids is X. */
function letter(ch: string): string {
  const up = ch.toUpperCase();
  return AMINO.includes(up) ? up : "X";
}
function sub(a: string, b: string): number {
  return TABLE[letter(a)][letter(b)];
}
/** Gap of length k: BLAST's 11 + k. */
function gapCost(k: number): number {
  return 11 + k;
}

/** Textbook Gotoh: three full (m+1)×(n+1) matrices. Returns the score and the first best cell (target-major). */
function referenceGotoh(q: string, t: string): { score: number; i: number; j: number } {
  const m = q.length;
  const n = t.length;
  const open = 11;
  const ext = 1;
  const H: number[][] = [];
  const E: number[][] = [];
  const F: number[][] = [];
  for (let i = 0; i <= m; i++) {
    H.push(new Array(n + 1).fill(0));
    E.push(new Array(n + 1).fill(-Infinity));
    F.push(new Array(n + 1).fill(-Infinity));
  }
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      E[i][j] = Math.max(E[i][j - 1] - ext, H[i][j - 1] - open - ext);
      F[i][j] = Math.max(F[i - 1][j] - ext, H[i - 1][j] - open - ext);
      H[i][j] = Math.max(0, H[i - 1][j - 1] + sub(q[i - 1], t[j - 1]), E[i][j], F[i][j]);
    }
  }
  let best = { score: 0, i: 0, j: 0 };
  for (let j = 1; j <= n; j++) {
    for (let i = 1; i <= m; i++) if (H[i][j] > best.score) best = { score: H[i][j], i, j };
  }
  return best;
}

/** Smith-Waterman with an arbitrary gap function: every gap length is tried (O(m·n·(m+n))). */
function referenceGeneralGap(q: string, t: string): number {
  const m = q.length;
  const n = t.length;
  const H: number[][] = [];
  for (let i = 0; i <= m; i++) H.push(new Array(n + 1).fill(0));
  let best = 0;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      let h = Math.max(0, H[i - 1][j - 1] + sub(q[i - 1], t[j - 1]));
      for (let k = 1; k <= i; k++) h = Math.max(h, H[i - k][j] - gapCost(k));
      for (let k = 1; k <= j; k++) h = Math.max(h, H[i][j - k] - gapCost(k));
      H[i][j] = h;
      best = Math.max(best, h);
    }
  }
  return best;
}

/** Re-scores two aligned strings column by column (gap runs cost 11 + length). */
function rescore(a: string, b: string): number {
  let score = 0;
  let gapA = 0;
  let gapB = 0;
  const close = () => {
    if (gapA) score -= gapCost(gapA);
    if (gapB) score -= gapCost(gapB);
    gapA = gapB = 0;
  };
  for (let k = 0; k < a.length; k++) {
    if (a[k] === "-") {
      if (gapB) close();
      gapA++;
    } else if (b[k] === "-") {
      if (gapA) close();
      gapB++;
    } else {
      close();
      score += sub(a[k], b[k]);
    }
  }
  close();
  return score;
}

function checkConsistent(query: string, target: string, al: LocalAlignment): void {
  expect(al.query.length).toBe(al.target.length);
  expect(Number.isInteger(al.score)).toBe(true);
  expect(al.query.replaceAll("-", "")).toBe(query.slice(al.queryStart, al.queryEnd));
  expect(al.target.replaceAll("-", "")).toBe(target.slice(al.targetStart, al.targetEnd));
  expect(0 <= al.queryStart && al.queryStart <= al.queryEnd && al.queryEnd <= query.length).toBe(true);
  expect(0 <= al.targetStart && al.targetStart <= al.targetEnd && al.targetEnd <= target.length).toBe(true);
  for (let k = 0; k < al.query.length; k++) expect(al.query[k] === "-" && al.target[k] === "-").toBe(false);
  if (al.score > 0) {
    // A local alignment starts and ends with a substitution column.
    expect(al.query[0] !== "-" && al.target[0] !== "-").toBe(true);
    expect(al.query.at(-1) !== "-" && al.target.at(-1) !== "-").toBe(true);
  } else {
    expect(al).toEqual({ score: 0, query: "", target: "", queryStart: 0, queryEnd: 0, targetStart: 0, targetEnd: 0 });
  }
  expect(rescore(al.query, al.target)).toBe(al.score);
}

// Deterministic pseudo-random numbers (mulberry32).
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let r = a;
    r = Math.imul(r ^ (r >>> 15), r | 1);
    r ^= r + Math.imul(r ^ (r >>> 7), r | 61);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD = "XXXUBZ*OJ";
function randomSeq(rand: () => number, length: number, letters = AMINO): string {
  let s = "";
  for (let k = 0; k < length; k++) {
    if (letters === AMINO && rand() < 0.04) s += ODD[Math.floor(rand() * ODD.length)];
    else s += letters[Math.floor(rand() * letters.length)];
  }
  return s;
}
/** A relative of `s`: substitutions plus insertions and deletions of 1–12 residues. */
function mutate(rand: () => number, s: string, rate: number): string {
  let out = "";
  let k = 0;
  while (k < s.length) {
    const r = rand();
    if (r < rate) {
      out += randomSeq(rand, 1);
      k++;
    } else if (r < rate * 1.3) {
      out += randomSeq(rand, 1 + Math.floor(rand() * 12)); // insertion
    } else if (r < rate * 1.6) {
      k += 1 + Math.floor(rand() * 12); // deletion
    } else {
      out += s[k++];
    }
  }
  return out;
}

function randomPairs(): Array<[string, string]> {
  const rand = rng(20240715);
  const len = () => 1 + Math.floor(rand() * 300);
  const pairs: Array<[string, string]> = [];
  for (let k = 0; k < 150; k++) pairs.push([randomSeq(rand, len()), randomSeq(rand, len())]);
  for (let k = 0; k < 150; k++) {
    const a = randomSeq(rand, len());
    let b = mutate(rand, a, 0.05 + rand() * 0.35);
    if (rand() < 0.5) b = randomSeq(rand, Math.floor(rand() * 40)) + b + randomSeq(rand, Math.floor(rand() * 40));
    if (b.length === 0) b = "W";
    pairs.push(rand() < 0.5 ? [a, b] : [b, a]);
  }
  // Low-complexity sequences: many ties.
  for (let k = 0; k < 40; k++) pairs.push([randomSeq(rand, len(), "AW"), randomSeq(rand, len(), "AWG")]);
  // A few with lower case.
  for (let k = 0; k < 10; k++) {
    const a = randomSeq(rand, len());
    pairs.push([a.toLowerCase(), mutate(rand, a, 0.2)]);
  }
  return pairs;
}

describe("BLOSUM62", () => {
  const s = (a: string, b: string) => BLOSUM62[ALPHABET.indexOf(a) * ALPHABET_SIZE + ALPHABET.indexOf(b)];

  it("is a 21×21 symmetric matrix over the 20 amino acids and X", () => {
    expect(ALPHABET).toBe("ARNDCQEGHILKMFPSTWYVX");
    expect(BLOSUM62.length).toBe(21 * 21);
    expect(ALPHABET[X_CODE]).toBe("X");
    for (let a = 0; a < 21; a++) {
      for (let b = 0; b < 21; b++) expect(BLOSUM62[a * 21 + b]).toBe(BLOSUM62[b * 21 + a]);
    }
  });

  it("has the standard diagonal", () => {
    const diagonal = { A: 4, R: 5, N: 6, D: 6, C: 9, Q: 5, E: 5, G: 6, H: 8, I: 4, L: 4, K: 5, M: 5, F: 6, P: 7, S: 4, T: 5, W: 11, Y: 7, V: 4, X: -1 };
    for (const [a, v] of Object.entries(diagonal)) expect(s(a, a), a).toBe(v);
  });

  it("has known off-diagonal values", () => {
    const known: Array<[string, string, number]> = [
      ["A", "R", -1], ["A", "S", 1], ["R", "K", 2], ["N", "D", 1], ["D", "E", 2], ["C", "E", -4],
      ["Q", "E", 2], ["H", "Y", 2], ["I", "V", 3], ["I", "L", 2], ["L", "D", -4], ["F", "Y", 3],
      ["F", "P", -4], ["W", "Y", 2], ["W", "F", 1], ["W", "N", -4], ["G", "I", -4], ["M", "L", 2],
      ["S", "T", 1], ["P", "W", -4], ["X", "A", 0], ["X", "C", -2], ["X", "W", -2], ["X", "L", -1],
    ];
    for (const [a, b, v] of known) {
      expect(s(a, b), `${a}/${b}`).toBe(v);
      expect(s(b, a), `${b}/${a}`).toBe(v);
    }
  });

  it("equals the NCBI table on all 21×21 entries", () => {
    for (const a of ALPHABET) for (const b of ALPHABET) expect(s(a, b), `${a}/${b}`).toBe(TABLE[a][b]);
  });

  it("encodes residues, scoring every other letter as X", () => {
    expect(Array.from(encode(ALPHABET))).toEqual(Array.from({ length: 21 }, (_, k) => k));
    expect(Array.from(encode("arndw"))).toEqual(Array.from(encode("ARNDW")));
    expect(Array.from(encode("UBZ*OJ-1 é"))).toEqual(new Array(10).fill(X_CODE));
    expect(encode("")).toEqual(new Uint8Array(0));
  });

  it("uses BLAST's gap costs: a gap of length k costs 11 + k", () => {
    expect(GAP_OPEN).toBe(11);
    expect(GAP_EXTEND).toBe(1);
    const w = "W".repeat(10);
    const al = localAlignment(w + w, w + "AAA" + w);
    expect(al.score).toBe(20 * 11 - (11 + 3));
    expect(al.query).toBe(w + "---" + w);
    expect(al.target).toBe(w + "AAA" + w);
    expect(localAlignment(w + "AAA" + w, w + w).score).toBe(20 * 11 - 14);
  });
});

describe("localScore / localAlignment vs the reference Gotoh", () => {
  const pairs = randomPairs();

  it(`scores ${pairs.length} random and related pairs like the reference`, () => {
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    let withGaps = 0;
    for (const [q, t] of pairs) {
      const ref = referenceGotoh(q, t);
      const label = `${q} / ${t}`;
      expect(localScore(encode(q), encode(t)), label).toBe(ref.score);
      const al = localAlignment(q, t);
      expect(al.score, label).toBe(ref.score);
      // End cell: the first best cell in target-major order.
      if (ref.score > 0) expect([al.queryEnd, al.targetEnd], label).toEqual([ref.i, ref.j]);
      checkConsistent(q, t, al);
      if (al.query.includes("-") || al.target.includes("-")) withGaps++;
    }
    expect(withGaps).toBeGreaterThan(50);
  });

  it("alignAtLeast: the score, and localAlignment's very alignment when it reaches the threshold", () => {
    let above = 0;
    for (const [q, t] of pairs) {
      const score = localScore(encode(q), encode(t));
      const expected = localAlignment(q, t);
      for (const threshold of [1, 40, 70]) {
        const got = alignAtLeast(q, t, threshold);
        expect(got.score, `${q} / ${t}`).toBe(score);
        if (score > 0 && score >= threshold) expect(got.alignment).toEqual(expected);
        else expect(got.alignment).toBeUndefined();
      }
      if (score >= 70) above++;
    }
    expect(above).toBeGreaterThan(50);
  });

  it("matches the every-gap-length recurrence on short pairs", () => {
    const rand = rng(99);
    for (let k = 0; k < 120; k++) {
      const a = randomSeq(rand, 1 + Math.floor(rand() * 60));
      const b = rand() < 0.6 ? mutate(rand, a, 0.15) || "A" : randomSeq(rand, 1 + Math.floor(rand() * 60));
      expect(localScore(encode(a), encode(b)), `${a} / ${b}`).toBe(referenceGeneralGap(a, b));
    }
  });

  it("is symmetric in score and reuses the query profile correctly", () => {
    const rand = rng(5);
    const q = encode(randomSeq(rand, 200));
    for (let k = 0; k < 20; k++) {
      const t = encode(randomSeq(rand, 1 + Math.floor(rand() * 300)));
      const s = localScore(q, t);
      expect(localScore(t, q)).toBe(s);
      expect(localScore(q, t)).toBe(s);
      // A same-length query that differs in one residue must not reuse a stale profile.
      const q2 = q.slice();
      q2[100] = (q2[100] + 1) % 21;
      expect(localScore(q2, t)).toBe(referenceGotoh(decode(q2), decode(t)).score);
    }
  });
});

function decode(codes: Uint8Array): string {
  return Array.from(codes, (c) => ALPHABET[c]).join("");
}

describe("edge cases", () => {
  const empty = { score: 0, query: "", target: "", queryStart: 0, queryEnd: 0, targetStart: 0, targetEnd: 0 };

  it("empty sequences score 0 with an empty alignment", () => {
    expect(localScore(encode(""), encode("ACDEF"))).toBe(0);
    expect(localScore(encode("ACDEF"), encode(""))).toBe(0);
    expect(localScore(new Uint8Array(0), new Uint8Array(0))).toBe(0);
    expect(localAlignment("", "ACDEF")).toEqual(empty);
    expect(localAlignment("ACDEF", "")).toEqual(empty);
    expect(localAlignment("", "")).toEqual(empty);
  });

  it("identical sequences score the sum of the diagonal", () => {
    const seq = "MKTAYIAKQRQISFVKSHFSRQLEERLGLIEVQAPILSRVGDGTQDNLSGAEKAVQVKVKALPDAQFEVVHSLAKWKRQTLGQHDFSAGEGLYTHMKALRPDEDRLSPLHSVYVDQWDWERVMGDGERQFSTLKSTVEAIWAGIKATEAAVSEEFGLAPFLPDQIHFVHSQELLSRYPDLDAKGRERAIAKDLGAVFLVGIGGKLSDGHRHDVRAPDYDDWUSTPSELGHAGLNGDILVWNPVLEDAFELSSMGIRVDADTLKHQLALTGDEDRLELEWHQALLRGEMPQTIGGGIGQSRLTMLLLQLPHIGQVQAGVWPAACRESVPALL";
    const diag = [...seq].reduce((sum, ch) => sum + sub(ch, ch), 0);
    expect(localScore(encode(seq), encode(seq))).toBe(diag);
    const al = localAlignment(seq, seq);
    expect(al).toEqual({ score: diag, query: seq, target: seq, queryStart: 0, queryEnd: seq.length, targetStart: 0, targetEnd: seq.length });
  });

  it("scores 0 when no residue pair scores positively", () => {
    expect(localScore(encode("WWWW"), encode("DDDDPPPP"))).toBe(0);
    expect(localAlignment("WWWW", "DDDDPPPP")).toEqual(empty);
    expect(localAlignment("XXXX", "XXXX")).toEqual(empty); // X/X = −1
    expect(localAlignment("U*BZ", "JOUU")).toEqual(empty);
    expect(localAlignment("A", "A").score).toBe(4);
  });

  it("breaks ties deterministically: earliest target end, then earliest query end", () => {
    expect(localAlignment("W", "WW")).toMatchObject({ score: 11, queryStart: 0, queryEnd: 1, targetStart: 0, targetEnd: 1 });
    expect(localAlignment("WW", "W")).toMatchObject({ score: 11, queryStart: 0, queryEnd: 1, targetStart: 0, targetEnd: 1 });
    expect(localAlignment("WDDDW", "PPW")).toMatchObject({ score: 11, queryStart: 0, queryEnd: 1, targetStart: 2, targetEnd: 3 });
    expect(localAlignment("PPW", "WDDDW")).toMatchObject({ score: 11, queryStart: 2, queryEnd: 3, targetStart: 0, targetEnd: 1 });
  });
});

describe("long sequences", () => {
  it("narrows pairs above MAX_TRACEBACK_CELLS to the aligned rectangle", () => {
    const rand = rng(11);
    const q = randomSeq(rand, 400);
    const related = mutate(rand, q, 0.2);
    const target = randomSeq(rand, 40_000) + related + randomSeq(rand, 40_000);
    expect(tracebackFits(q.length, target.length)).toBe(false);
    const al = localAlignment(q, target);
    expect(al.score).toBe(localScore(encode(q), encode(target)));
    expect(al.score).toBeGreaterThan(200);
    expect(al.targetStart).toBeGreaterThanOrEqual(39_000);
    checkConsistent(q, target, al);
    // The same alignment, found on a target cut down so the whole matrix fits.
    const window = target.slice(30_000, 60_000);
    expect(tracebackFits(q.length, window.length)).toBe(true);
    const cut = localAlignment(q, window);
    expect(cut.score).toBe(al.score);
    expect([cut.queryEnd, cut.targetEnd + 30_000]).toEqual([al.queryEnd, al.targetEnd]);
  });

  it("refuses when the aligned rectangle itself exceeds MAX_TRACEBACK_CELLS", () => {
    const side = Math.ceil(Math.sqrt(MAX_TRACEBACK_CELLS)) + 1;
    const seq = randomSeq(rng(3), side);
    expect(() => localAlignment(seq, seq)).toThrow(RangeError);
    expect(localScore(encode(seq), encode(seq))).toBe([...seq].reduce((sum, ch) => sum + sub(ch, ch), 0));
  });
});
