/**
 * The sequence search index (write/sequence-index.ts): one posting per distinct k-mer of each
 * protein, the same chunks whatever the threads and the memory budget, whether the postings
 * are kept from the counting pass or found again in passes over ranges of k-mer codes.
 */
import { describe, expect, it } from "vitest";
import { addedCounts, kmerCounts, kmerFinder, KMER_CODES, kmerWindows, writeSequenceIndex } from "../../release-compiler/write/sequence-index.js";
import { KMER_ALPHABET } from "../../release-format/format.js";
import { forEachKmer } from "../../release-format/kmers.js";
import { tempPacks } from "./temp-packs.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what this test compares.
process.env.ORTH_THREADS_ALWAYS = "1";

describe("the sequence index", () => {
  it("writes the same chunks whatever the jobs and the memory budget (kept postings, or passes over code ranges)", async () => {
    const letters = "ACDEFGHIKLMNPQRSTVWYX";
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    // More proteins than one k-mer task takes (1,024).
    const sequences = Array.from({ length: 9_000 }, () =>
      Array.from({ length: 20 + Math.floor(random() * 100) }, () => letters[Math.floor(random() * letters.length)]).join(""),
    );
    const build = async (threads: number, memoryBytes: number) => {
      const packs = tempPacks();
      // In slices of 1,000, which the k-mer tasks of 1,024 proteins cut across.
      const slices = () => Array.from({ length: Math.ceil(sequences.length / 1000) }, (_, i) => sequences.slice(1000 * i, 1000 * (i + 1)));
      const ref = await writeSequenceIndex(packs, sequences.length, slices, kmerWindows(sequences.map((s) => s.length)), memoryBytes, threads);
      return { ref, values: packs.chunks(ref.tree).map((c) => c.value) };
    };
    // 64 MiB keeps every posting from the counting pass; 512 kB places ~131,000 a range: 5 passes over code ranges.
    const one = await build(1, 64 * 2 ** 20);
    const two = await build(2, 512 * 2 ** 20);
    const passes = await build(2, 2 ** 19);
    expect(one.values.length).toBeGreaterThan(1);
    expect(two.ref).toEqual(one.ref);
    expect(two.values).toEqual(one.values);
    expect(passes.ref).toEqual(one.ref);
    expect(passes.values).toEqual(one.values);
    // One posting per distinct k-mer of each sequence.
    const distinct = sequences.map((seq) => {
      const codes = new Set<number>();
      forEachKmer(seq, (code) => codes.add(code));
      return codes.size;
    });
    expect(one.ref.postings).toBe(distinct.reduce((a, b) => a + b, 0));
    // Sequences that are not the proteins counted: refused, not indexed short.
    await expect(writeSequenceIndex(tempPacks(), sequences.length + 1, () => [sequences], kmerWindows(sequences.map((s) => s.length)), 2 ** 19, 1)).rejects.toThrow(`sequence index: 9000 sequences for 9001 proteins`);
  });

  it("counts each distinct k-mer of each protein once, over the rows of several finders, and refuses a finder beyond the rows", () => {
    // Repeats within a protein (AAAAAAA…, a period of 3), k-mers broken by X, a protein longer than a finder's first buffer of codes; the proteins counted by two finders in turn.
    const sequences = ["AAAAAAAAAAAA", "ACDACDACDACDACD", "MKVLAXGHKLMNPQ", "MKVLAGHKLMNPQACDEF", "ACDEFGHIKLMNPQRSTVWY", "WYVTSRQPNMLKIHGFEDCA".repeat(80)];
    const counts = kmerCounts(2);
    const finders = [kmerFinder({ counts }), kmerFinder({ counts })];
    sequences.forEach((sequence, i) => {
      const found = finders[i % 2]({ firstEntry: i + 1, sequences: [sequence], from: 0, to: KMER_CODES, postings: false });
      expect(found.packed.length).toBe(0);
    });
    const want = new Map<number, number>();
    for (const sequence of sequences) {
      const codes = new Set<number>();
      forEachKmer(sequence, (code) => codes.add(code));
      for (const code of codes) want.set(code, (want.get(code) ?? 0) + 1);
    }
    const total = addedCounts(counts);
    const got = new Map<number, number>();
    total.forEach((n, code) => n && got.set(code, n));
    expect(got).toEqual(want);
    // "AAAAA" eight times in one protein, once in its count; "GHKLM" in two proteins counted by different finders.
    const codeOf = (kmer: string) => [...kmer].reduce((code, residue) => code * KMER_ALPHABET.length + KMER_ALPHABET.indexOf(residue), 0);
    expect(got.get(codeOf("AAAAA"))).toBe(1);
    expect(got.get(codeOf("GHKLM"))).toBe(2);
    const third = kmerFinder({ counts });
    expect(() => third({ firstEntry: 9, sequences: ["MKVLAGHKLM"], from: 0, to: KMER_CODES, postings: false })).toThrow(/more finders than the 2 rows/);
  });
});
