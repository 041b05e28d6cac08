/**
 * Group fingerprints (derive/fingerprints.ts), on one thread and spread over worker threads,
 * are those of the definition: the first 7-mer of a group's first member that every member
 * holds and no other protein does, else the first one every member holds, else "n/a". Checked
 * on random families of related sequences (mutated copies of one ancestor, so groups share
 * peptides with each other and some have no unique one) against the definition written out.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../seeded-random.js";
import { fingerprintGroups } from "../../release-compiler/derive/fingerprints.js";
import { entryLists } from "../../release-compiler/derive/entry-lists.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what these tests compare.
process.env.ORTH_THREADS_ALWAYS = "1";

const RESIDUES = "ACDEFGHIKLMNPQRSTVWY";

/** Sequences of families of mutated copies, and groups of some members of each family (entry numbers from 1). */
function related(families: number, seed: number): { sequences: string[]; groups: number[][] } {
  const next = seededRandom(seed);
  const residue = () => RESIDUES[Math.floor(next() * 20)];
  const sequences: string[] = [];
  const groups: number[][] = [];
  for (let f = 0; f < families; f++) {
    const ancestor = Array.from({ length: 30 + Math.floor(next() * 200) }, residue).join("");
    const copies = 2 + Math.floor(next() * 6);
    const first = sequences.length + 1;
    for (let c = 0; c < copies; c++) {
      // Heavily mutated copies (some with an X), so that some groups keep no common peptide.
      const rate = f % 5 === 0 ? 0.4 : 0.05;
      sequences.push([...ancestor].map((r) => (next() < rate ? (next() < 0.05 ? "X" : residue()) : r)).join(""));
    }
    // Most of the family is a group; a family that is not keeps its copies as proteins outside any group.
    if (f % 7 !== 3) groups.push(Array.from({ length: copies - (f % 2) }, (_, k) => first + k));
  }
  return { sequences, groups };
}

/** The definition, protein by protein. */
function byDefinition(groups: number[][], sequences: string[]): string[] {
  const peptides = (s: string) => {
    const out: string[] = [];
    for (let i = 0; i + 7 <= s.length; i++) if (/^[ACDEFGHIKLMNPQRSTVWY]{7}$/.test(s.slice(i, i + 7))) out.push(s.slice(i, i + 7));
    return out;
  };
  const sets = sequences.map((s) => new Set(peptides(s)));
  return groups.map((members) => {
    const common = [...new Set(peptides(sequences[members[0] - 1]))].filter((p) => members.every((m) => sets[m - 1].has(p))).slice(0, 64);
    const unique = common.find((p) => sets.filter((set) => set.has(p)).length === members.length);
    return unique ?? common[0] ?? "n/a";
  });
}

describe("group fingerprints", () => {
  it.each([1, 2])("are those of the definition, with %i job(s)", async (jobs) => {
    const { sequences, groups } = related(300, 5);
    const found = await fingerprintGroups(entryLists(groups), (e) => sequences[e - 1], sequences.length, jobs);
    const expected = byDefinition(groups, sequences);
    expect(found).toEqual(expected);
    // The families were drawn so that every outcome occurs: unique peptides, shared ones, none.
    expect(found.filter((f) => f === "n/a").length).toBeGreaterThan(0);
    const counts = new Map<string, number>();
    for (const f of found) counts.set(f, (counts.get(f) ?? 0) + 1);
    expect(found.filter((f) => f !== "n/a" && counts.get(f)! === 1).length).toBeGreaterThan(groups.length / 2);
  });
});
