/**
 * The cross-reference search's grams (write/xref-search.ts, gramPostings) against the
 * definition, computed with strings: every trigram of code points, and each (k+1)-gram that
 * extends a common k-gram (in more than maxHits rows) at the same start, with its rows (each
 * once, ascending) unless it is common. Text with characters outside the BMP, accents and
 * repeats, where the end-to-end tests' ids are ASCII.
 */
import { describe, expect, it } from "vitest";
import { gramPostings } from "../../release-compiler/write/xref-search.js";
import { decodePostings } from "../../src/release/xref-search.js";

function definition(rows: string[], maxHits: number, maxGram: number) {
  const points = rows.map((row) => Array.from(row));
  const out = new Map<string, { count: number; rows: number[] | null }>();
  let commonBelow: Set<string> | undefined;
  for (let k = 3; k <= maxGram; k++) {
    const level = new Map<string, Set<number>>();
    points.forEach((p, row) => {
      for (let s = 0; s + k <= p.length; s++) {
        if (commonBelow && !commonBelow.has(p.slice(s, s + k - 1).join(""))) continue;
        const gram = p.slice(s, s + k).join("");
        if (!level.has(gram)) level.set(gram, new Set());
        level.get(gram)!.add(row);
      }
    });
    const common = new Set([...level].filter(([, r]) => r.size > maxHits).map(([gram]) => gram));
    for (const [gram, r] of level) out.set(gram, { count: r.size, rows: common.has(gram) ? null : [...r] });
    if (!common.size) break;
    commonBelow = common;
  }
  return out;
}

/** The grams as gramPostings gives them, their postings decoded as the worker decodes them. */
function computed(rows: string[], maxHits: number, maxGram: number) {
  const g = gramPostings(rows.length, (row) => rows[row], { maxHits, maxGram });
  const out = new Map<string, { count: number; rows: number[] | null }>();
  [...g.keys].forEach((key, i) => {
    const from = g.postingsFrom.values[i];
    const decoded = from < 0 ? null : decodePostings(g.postings.values.subarray(from, g.postingsTo.values[i]));
    out.set(key, { count: g.counts.values[i], rows: decoded });
  });
  expect(out.size).toBe(g.keys.length); // each gram once
  return out;
}

/** Deterministic pseudo-random text over a small alphabet with characters of every width. */
function texts(seed: number, count: number): string[] {
  const alphabet = ["a", "b", "c", "é", "ß", "1", "_", "😀", "𝔸", "中"];
  let x = seed;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 12) }, () => alphabet[Math.floor(next() * (next() < 0.6 ? 3 : alphabet.length))]).join(""));
}

describe("cross-reference search grams", () => {
  it.each([
    [1, 400, 20, 6],
    [2, 300, 5, 5],
    [3, 50, 1000, 6],
  ])("match the definition (seed %i, %i rows, limit %i, grams up to %i)", (seed, count, maxHits, maxGram) => {
    const rows = texts(seed, count);
    const want = definition(rows, maxHits, maxGram);
    expect([...want.values()].some((g) => g.rows === null) || maxHits >= count).toBe(true); // common grams where the limit is low
    expect(computed(rows, maxHits, maxGram)).toEqual(want);
  });

  it("match the definition past 65,536 distinct characters (symbols of four bytes from the one that does not fit in two)", () => {
    // 70,000 distinct code points outside the BMP, five a row, then rows sharing common grams.
    const rows = Array.from({ length: 14_000 }, (_, i) => String.fromCodePoint(...Array.from({ length: 5 }, (_, j) => 0x10000 + 5 * i + j)));
    rows.push(...Array.from({ length: 30 }, (_, i) => `abcab${String.fromCodePoint(0x10000 + i)}`));
    expect(new Set(rows.flatMap((row) => Array.from(row))).size).toBeGreaterThan(0x10000);
    expect(computed(rows, 20, 5)).toEqual(definition(rows, 20, 5));
  });
});
