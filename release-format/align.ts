/**
 * Protein local alignment, shared by the worker's approximate sequence search and the
 * compiler's `--align-pairs` (release-compiler/derive/pair-alignment.ts): Smith-Waterman with
 * the BLOSUM62 substitution matrix and affine gaps (Gotoh).
 *
 * Runs inside the worker (plain TypeScript, no Node APIs) on up to 50 candidates of up to a few
 * thousand residues per request, so the kernels work on typed arrays and integer scores only:
 * residues are encoded to matrix indexes (`encode`), the matrix is a flat `Int8Array`, and the
 * query is turned into a "query profile" (one row of scores per residue code) that the inner
 * loop reads with a single load. Scratch rows, the profile and traceback matrices of up to
 * SCRATCH_TRACEBACK_CELLS are kept between calls (the functions are synchronous, so no other
 * request can interleave) and reused when the same query is aligned against many targets.
 * A search that reports only alignments above a threshold uses `alignAtLeast`: one DP pass per
 * pair that scores and records the traceback at once, the strings built only above it.
 *
 * Scoring
 * - Substitutions: NCBI BLOSUM62 over `ARNDCQEGHILKMFPSTWYV` plus `X`. Every other letter
 *   (`U`, `O`, `B`, `Z`, `J`, `*`, digits, …) is scored as `X` (BLOSUM62's X row: −1 against
 *   most residues, 0 against A/S/T, −2 against C/P/W, −1 against X). Lower-case letters score
 *   as their upper-case residue.
 * - Gaps (BLAST convention for BLOSUM62, "-G 11 -E 1"): a gap of length k costs
 *   GAP_OPEN + GAP_EXTEND·k = 11 + k, i.e. the first gap residue costs 12 and every further
 *   one 1. There is no separate cost for a gap at either end (it is a local alignment).
 * - Scores are integers (raw BLOSUM62 half-bit units); callers convert them to floats.
 *
 * Determinism (ties)
 * - End: the alignment ends at the cell with the highest score that comes first in
 *   target-major order: the smallest targetEnd, then the smallest queryEnd.
 * - Traceback from that cell: a cell whose best value is ≤ 0 starts the alignment (so no
 *   alignment begins with a zero-or-negative-scoring prefix); otherwise a substitution (diagonal)
 *   is preferred over a gap in the query (a target residue against `-`), which is preferred over
 *   a gap in the target (a query residue against `-`); inside a gap, opening it here (coming
 *   from the substitution state of the neighbouring cell) is preferred over extending a gap that
 *   started further back when both score the same.
 * - Above MAX_TRACEBACK_CELLS (see `localAlignment`), the end cell is the same, but the
 *   traceback only runs inside the sub-rectangle that holds an optimal alignment, so among
 *   several co-optimal alignments a different one may be returned than the full matrix would.
 */

/** Residues in matrix order (NCBI order of the 20 amino acids), then `X` for everything else. */
export const ALPHABET = "ARNDCQEGHILKMFPSTWYVX";
/** Number of residue codes (20 amino acids + X); codes are 0..ALPHABET_SIZE-1. */
export const ALPHABET_SIZE = 21;
/** The code of `X` and of every residue outside the 20 amino acids. */
export const X_CODE = 20;

/**
 * NCBI BLOSUM62 restricted to ALPHABET, flat and row-major: the score of residue codes a and b
 * is `BLOSUM62[a * ALPHABET_SIZE + b]` (symmetric). Transcribed from the standard NCBI table
 * ("Matrix made by matblas from blosum62.iij"); the B, Z and * rows/columns are not used.
 */
// prettier-ignore
export const BLOSUM62: Int8Array = Int8Array.from([
  /*        A   R   N   D   C   Q   E   G   H   I   L   K   M   F   P   S   T   W   Y   V   X */
  /* A */   4, -1, -2, -2,  0, -1, -1,  0, -2, -1, -1, -1, -1, -2, -1,  1,  0, -3, -2,  0,  0,
  /* R */  -1,  5,  0, -2, -3,  1,  0, -2,  0, -3, -2,  2, -1, -3, -2, -1, -1, -3, -2, -3, -1,
  /* N */  -2,  0,  6,  1, -3,  0,  0,  0,  1, -3, -3,  0, -2, -3, -2,  1,  0, -4, -2, -3, -1,
  /* D */  -2, -2,  1,  6, -3,  0,  2, -1, -1, -3, -4, -1, -3, -3, -1,  0, -1, -4, -3, -3, -1,
  /* C */   0, -3, -3, -3,  9, -3, -4, -3, -3, -1, -1, -3, -1, -2, -3, -1, -1, -2, -2, -1, -2,
  /* Q */  -1,  1,  0,  0, -3,  5,  2, -2,  0, -3, -2,  1,  0, -3, -1,  0, -1, -2, -1, -2, -1,
  /* E */  -1,  0,  0,  2, -4,  2,  5, -2,  0, -3, -3,  1, -2, -3, -1,  0, -1, -3, -2, -2, -1,
  /* G */   0, -2,  0, -1, -3, -2, -2,  6, -2, -4, -4, -2, -3, -3, -2,  0, -2, -2, -3, -3, -1,
  /* H */  -2,  0,  1, -1, -3,  0,  0, -2,  8, -3, -3, -1, -2, -1, -2, -1, -2, -2,  2, -3, -1,
  /* I */  -1, -3, -3, -3, -1, -3, -3, -4, -3,  4,  2, -3,  1,  0, -3, -2, -1, -3, -1,  3, -1,
  /* L */  -1, -2, -3, -4, -1, -2, -3, -4, -3,  2,  4, -2,  2,  0, -3, -2, -1, -2, -1,  1, -1,
  /* K */  -1,  2,  0, -1, -3,  1,  1, -2, -1, -3, -2,  5, -1, -3, -1,  0, -1, -3, -2, -2, -1,
  /* M */  -1, -1, -2, -3, -1,  0, -2, -3, -2,  1,  2, -1,  5,  0, -2, -1, -1, -1, -1,  1, -1,
  /* F */  -2, -3, -3, -3, -2, -3, -3, -3, -1,  0,  0, -3,  0,  6, -4, -2, -2,  1,  3, -1, -1,
  /* P */  -1, -2, -2, -1, -3, -1, -1, -2, -2, -3, -3, -1, -2, -4,  7, -1, -1, -4, -3, -2, -2,
  /* S */   1, -1,  1,  0, -1,  0,  0,  0, -1, -2, -2,  0, -1, -2, -1,  4,  1, -3, -2, -2,  0,
  /* T */   0, -1,  0, -1, -1, -1, -1, -2, -2, -1, -1, -1, -1, -2, -1,  1,  5, -2, -2,  0,  0,
  /* W */  -3, -3, -4, -4, -2, -2, -3, -2, -2, -3, -2, -3, -1,  1, -4, -3, -2, 11,  2, -3, -2,
  /* Y */  -2, -2, -2, -3, -2, -1, -2, -3,  2, -1, -1, -2, -1,  3, -3, -2, -2,  2,  7, -1, -1,
  /* V */   0, -3, -3, -3, -1, -2, -2, -3, -3,  3,  1, -2,  1, -1, -2, -2,  0, -3, -1,  4, -1,
  /* X */   0, -1, -1, -1, -2, -1, -1, -1, -1, -1, -1, -1, -1, -1, -2,  0,  0, -2, -1, -1, -1,
]);

/** Cost of opening a gap; a gap of length k costs GAP_OPEN + GAP_EXTEND·k (BLAST: 11 + k). */
export const GAP_OPEN = 11;
/** Cost of each gap residue, the first one included (see GAP_OPEN). */
export const GAP_EXTEND = 1;

/**
 * Largest traceback matrix `localAlignment` allocates, in cells (one byte each): 25 M = 5,000 ×
 * 5,000 residues, 25 MB. Longer pairs are first narrowed to the rectangle spanned by an optimal
 * alignment (two linear-memory score passes); if that rectangle is still larger, `localAlignment`
 * throws a RangeError. `tracebackFits` tells a caller beforehand whether a pair is sure to fit.
 */
export const MAX_TRACEBACK_CELLS = 25_000_000;

/** The alignment returned by `localAlignment`. Coordinates are 0-based, end-exclusive. */
export interface LocalAlignment {
  /** Integer score (BLOSUM62 units); 0 when nothing scores positively. */
  score: number;
  /** Aligned query residues, `-` for gaps; same length as `target`. */
  query: string;
  /** Aligned target residues, `-` for gaps. */
  target: string;
  queryStart: number;
  queryEnd: number;
  targetStart: number;
  targetEnd: number;
}

// ---------------------------------------------------------------------------------------------
// Encoding

const CODE_OF = new Uint8Array(128).fill(X_CODE);
for (let c = 0; c < ALPHABET_SIZE; c++) {
  CODE_OF[ALPHABET.charCodeAt(c)] = c;
  CODE_OF[ALPHABET.toLowerCase().charCodeAt(c)] = c;
}

/** Residues → matrix indexes (0..20); anything outside the 20 amino acids becomes X_CODE. */
export function encode(seq: string): Uint8Array {
  const n = seq.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const ch = seq.charCodeAt(i);
    out[i] = ch < 128 ? CODE_OF[ch] : X_CODE;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Scratch state, reused between calls (all functions here are synchronous)

const NEG = -(2 ** 30);
const GAP_FIRST = GAP_OPEN + GAP_EXTEND;

let rowH = new Int32Array(0);
let rowE = new Int32Array(0);
/** Query profile: profile[c * m + i] = score(query[i], c), for the query in `profileQuery`. */
let profile = new Int32Array(0);
let profileQuery = new Uint8Array(0);
let profileLength = -1;

/** End cell (1-based DP coordinates) of the best score found by the last kernel run. */
let bestI = 0;
let bestJ = 0;

function ensureRows(m: number): void {
  if (rowH.length < m + 1) {
    const size = Math.max(m + 1, rowH.length * 2);
    rowH = new Int32Array(size);
    rowE = new Int32Array(size);
  }
}

/** Builds (or reuses) the query profile for `q`; returns it. */
function profileFor(q: Uint8Array): Int32Array {
  const m = q.length;
  if (m === profileLength) {
    let same = true;
    for (let i = 0; i < m; i++) {
      if (q[i] !== profileQuery[i]) {
        same = false;
        break;
      }
    }
    if (same) return profile;
  }
  if (profile.length < ALPHABET_SIZE * m) profile = new Int32Array(Math.max(ALPHABET_SIZE * m, profile.length * 2));
  if (profileQuery.length < m) profileQuery = new Uint8Array(Math.max(m, profileQuery.length * 2));
  for (let i = 0; i < m; i++) {
    const a = q[i] < ALPHABET_SIZE ? q[i] : X_CODE;
    profileQuery[i] = q[i];
    for (let c = 0; c < ALPHABET_SIZE; c++) profile[c * m + i] = BLOSUM62[a * ALPHABET_SIZE + c];
  }
  profileLength = m;
  return profile;
}

// ---------------------------------------------------------------------------------------------
// Kernels. DP cell (i, j) = query prefix of length i (rows), target prefix of length j (columns);
// the outer loop walks the target, the inner loop the query, over two rows:
//   E(i,j) = max(E(i,j−1) − ext, H(i,j−1) − open − ext)   gap in the query (target residue vs -)
//   F(i,j) = max(F(i−1,j) − ext, H(i−1,j) − open − ext)   gap in the target (query residue vs -)
//   H(i,j) = max(0, H(i−1,j−1) + s(q_i, t_j), E(i,j), F(i,j))
// rowH[i] holds H(i, j−1) until overwritten with H(i, j); rowE[i] likewise for E.

/** Best local score; sets bestI/bestJ to its end cell (first in target-major order). */
function scoreKernel(q: Uint8Array, t: Uint8Array): number {
  const m = q.length;
  const n = t.length;
  bestI = 0;
  bestJ = 0;
  if (m === 0 || n === 0) return 0;
  ensureRows(m);
  const prof = profileFor(q);
  const H = rowH;
  const E = rowE;
  for (let i = 0; i <= m; i++) {
    H[i] = 0;
    E[i] = NEG;
  }
  let best = 0;
  for (let j = 1; j <= n; j++) {
    const c = t[j - 1];
    const off = (c < ALPHABET_SIZE ? c : X_CODE) * m - 1;
    let diag = 0; // H(i−1, j−1)
    let up = 0; // H(i−1, j)
    let f = NEG; // F(i−1, j)
    for (let i = 1; i <= m; i++) {
      const left = H[i];
      let e = E[i] - GAP_EXTEND;
      const eo = left - GAP_FIRST;
      if (eo > e) e = eo;
      E[i] = e;
      f -= GAP_EXTEND;
      const fo = up - GAP_FIRST;
      if (fo > f) f = fo;
      let h = diag + prof[off + i];
      if (e > h) h = e;
      if (f > h) h = f;
      if (h < 0) h = 0;
      diag = left;
      H[i] = h;
      up = h;
      if (h > best) {
        best = h;
        bestI = i;
        bestJ = j;
      }
    }
  }
  return best;
}

// Traceback bits, one byte per cell.
const FROM_MASK = 3;
const FROM_START = 0; // H(i,j) ≤ 0: the alignment starts after this cell
const FROM_DIAG = 1;
const FROM_E = 2;
const FROM_F = 3;
const E_EXTENDS = 4; // E(i,j) came from E(i,j−1) (else opened from H(i,j−1))
const F_EXTENDS = 8; // F(i,j) came from F(i−1,j) (else opened from H(i−1,j))

/** Same recurrences as scoreKernel, recording directions in dirs[(j−1)·m + (i−1)]. */
function tracebackKernel(q: Uint8Array, t: Uint8Array, dirs: Uint8Array): number {
  const m = q.length;
  const n = t.length;
  bestI = 0;
  bestJ = 0;
  if (m === 0 || n === 0) return 0;
  ensureRows(m);
  const prof = profileFor(q);
  const H = rowH;
  const E = rowE;
  for (let i = 0; i <= m; i++) {
    H[i] = 0;
    E[i] = NEG;
  }
  let best = 0;
  let k = 0;
  for (let j = 1; j <= n; j++) {
    const c = t[j - 1];
    const off = (c < ALPHABET_SIZE ? c : X_CODE) * m - 1;
    let diag = 0;
    let up = 0;
    let f = NEG;
    for (let i = 1; i <= m; i++, k++) {
      const left = H[i];
      let d = 0;
      let e = left - GAP_FIRST;
      const ee = E[i] - GAP_EXTEND;
      if (ee > e) {
        e = ee;
        d = E_EXTENDS;
      }
      E[i] = e;
      const fe = f - GAP_EXTEND;
      f = up - GAP_FIRST;
      if (fe > f) {
        f = fe;
        d |= F_EXTENDS;
      }
      let h = diag + prof[off + i];
      let from = FROM_DIAG;
      if (e > h) {
        h = e;
        from = FROM_E;
      }
      if (f > h) {
        h = f;
        from = FROM_F;
      }
      if (h <= 0) {
        h = 0;
        from = FROM_START;
      }
      dirs[k] = d | from;
      diag = left;
      H[i] = h;
      up = h;
      if (h > best) {
        best = h;
        bestI = i;
        bestJ = j;
      }
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------
// Public entry points

/**
 * Smith-Waterman score of two encoded sequences (see `encode`; codes ≥ ALPHABET_SIZE score as
 * X). O(|query|) memory, no allocation once the scratch rows have grown; the query profile is
 * reused while consecutive calls pass the same query. 0 when either sequence is empty or no
 * pair of residues scores positively.
 */
export function localScore(query: Uint8Array, target: Uint8Array): number {
  return scoreKernel(query, target);
}

/** Whether `localAlignment` on sequences of these lengths is sure not to throw. */
export function tracebackFits(queryLength: number, targetLength: number): boolean {
  return queryLength * targetLength <= MAX_TRACEBACK_CELLS;
}

const EMPTY: LocalAlignment = Object.freeze({
  score: 0,
  query: "",
  target: "",
  queryStart: 0,
  queryEnd: 0,
  targetStart: 0,
  targetEnd: 0,
});

function reversed(a: Uint8Array): Uint8Array {
  const n = a.length;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = a[n - 1 - i];
  return out;
}

/**
 * The best local alignment of `query` and `target` (strings of residue letters), with its
 * aligned strings (gaps as `-`, residues as given in the input, case included) and 0-based,
 * end-exclusive coordinates; ties are broken as described at the top of this file. When the
 * score is 0 (an empty sequence, or no positively scoring pair) the alignment is empty and all
 * coordinates are 0.
 *
 * Memory: one byte per cell of the traceback matrix. Up to MAX_TRACEBACK_CELLS cells the whole
 * |query| × |target| matrix is used. Above, a linear-memory score pass finds the end of the best
 * alignment, a second one over the reversed prefixes finds where an optimal alignment ending
 * there starts, and the traceback runs only on that rectangle; if the rectangle itself exceeds
 * MAX_TRACEBACK_CELLS a RangeError is thrown (use `localScore`, which has no limit, or
 * `tracebackFits` to avoid it).
 */
export function localAlignment(query: string, target: string): LocalAlignment {
  const aligned = align(query, target, 0);
  return typeof aligned === "number" ? { ...EMPTY } : aligned;
}

/**
 * Local alignment for a search that only reports alignments scoring at least `minScore` (> 0):
 * `{ score, alignment }` with the alignment `localAlignment` returns when the score reaches
 * `minScore`, else `{ score }` alone. Exactly `localScore` then, for those reaching it,
 * `localAlignment`, but in one DP pass that records the traceback as it scores (the second,
 * traceback pass over the same matrix cost as much as the score pass). Pairs above
 * MAX_TRACEBACK_CELLS take a score pass first, then `localAlignment`'s narrowing.
 */
export function alignAtLeast(query: string, target: string, minScore: number): { score: number; alignment?: LocalAlignment } {
  const aligned = align(query, target, minScore);
  return typeof aligned === "number" ? { score: aligned } : { score: aligned.score, alignment: aligned };
}

/** Traceback matrices up to this many cells reuse one scratch buffer (kept between calls). */
const SCRATCH_TRACEBACK_CELLS = 4_000_000;
let dirsScratch = new Uint8Array(0);

function tracebackCells(cells: number): Uint8Array {
  if (cells > SCRATCH_TRACEBACK_CELLS) return new Uint8Array(cells);
  if (dirsScratch.length < cells) dirsScratch = new Uint8Array(Math.min(SCRATCH_TRACEBACK_CELLS, Math.max(cells, dirsScratch.length * 2)));
  return dirsScratch;
}

/** `localAlignment`, or just the score when it is 0 or below `minScore`. */
function align(query: string, target: string, minScore: number): LocalAlignment | number {
  const q = encode(query);
  const t = encode(target);
  let qFrom = 0;
  let qTo = q.length;
  let tFrom = 0;
  let tTo = t.length;
  if (qTo === 0 || tTo === 0) {
    return 0;
  }

  if (!tracebackFits(qTo, tTo)) {
    const score = scoreKernel(q, t);
    if (score === 0 || score < minScore) {
      return score;
    }
    qTo = bestI;
    tTo = bestJ;
    // The best local alignment of the reversed prefixes scores `score` too; its end is the
    // start of an optimal alignment that ends at (qTo, tTo).
    scoreKernel(reversed(q.subarray(0, qTo)), reversed(t.subarray(0, tTo)));
    qFrom = qTo - bestI;
    tFrom = tTo - bestJ;
    if (!tracebackFits(qTo - qFrom, tTo - tFrom)) {
      throw new RangeError(
        `localAlignment: the best alignment spans ${qTo - qFrom} × ${tTo - tFrom} residues, ` +
          `more than MAX_TRACEBACK_CELLS (${MAX_TRACEBACK_CELLS}) traceback cells`,
      );
    }
  }

  const qs = q.subarray(qFrom, qTo);
  const ts = t.subarray(tFrom, tTo);
  const m = qs.length;
  const dirs = tracebackCells(m * ts.length);
  const score = tracebackKernel(qs, ts, dirs);
  if (score === 0 || score < minScore) {
    return score;
  }
  let i = bestI;
  let j = bestJ;
  const queryEnd = qFrom + i;
  const targetEnd = tFrom + j;

  const qOut: string[] = [];
  const tOut: string[] = [];
  let state = FROM_DIAG; // FROM_DIAG = in H, FROM_E / FROM_F = inside a gap
  while (i > 0 && j > 0) {
    const d = dirs[(j - 1) * m + (i - 1)];
    if (state === FROM_DIAG) {
      const from = d & FROM_MASK;
      if (from === FROM_START) break;
      if (from === FROM_DIAG) {
        qOut.push(query[qFrom + i - 1]);
        tOut.push(target[tFrom + j - 1]);
        i--;
        j--;
      } else {
        state = from;
      }
    } else if (state === FROM_E) {
      qOut.push("-");
      tOut.push(target[tFrom + j - 1]);
      j--;
      if (!(d & E_EXTENDS)) state = FROM_DIAG;
    } else {
      qOut.push(query[qFrom + i - 1]);
      tOut.push("-");
      i--;
      if (!(d & F_EXTENDS)) state = FROM_DIAG;
    }
  }
  return {
    score,
    query: qOut.reverse().join(""),
    target: tOut.reverse().join(""),
    queryStart: qFrom + i,
    queryEnd,
    targetStart: tFrom + j,
    targetEnd,
  };
}
