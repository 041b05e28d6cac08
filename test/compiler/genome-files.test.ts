/**
 * Each genome's files read on worker threads (release-compiler/derive/genome-files.ts): the
 * proteins, cDNA and loci, and the problems and warnings in the order one thread reading the
 * files one after another reports them, whatever the jobs.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  aliasesOf,
  canonicalIdOf,
  chooseMainIsoforms,
  chromosomeOf,
  descriptionOf,
  isoformsOf,
  locusOf,
  loadLoci,
  loadMd5s,
  md5Of,
  MD5_FILE,
  openExons,
  readCdnaByGenome,
  readIsoforms,
  readLoci,
  readProteomes,
} from "../../release-compiler/derive/proteins.js";
import { openSequences } from "../../release-compiler/derive/sequence-file.js";
import type { SpeciesInfoRow } from "../../release-compiler/inputs.js";
import { Problems } from "../../release-compiler/problems.js";
import { tempDir } from "./readers/tmp.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what these tests compare.
process.env.ORTH_THREADS_ALWAYS = "1";

const species = (...codes: string[]): SpeciesInfoRow[] => codes.map((code, i) => ({ code, taxonId: i + 1, scientificName: code, subgenomes: [], line: i + 2 }));

/** Proteomes, cDNA and GFF of four genomes, with problems of the readers and of the genomes together. */
function inputs() {
  const dir = tempDir();
  // Each kind of file in a folder of its own, as a release's config names them.
  for (const sub of ["p", "c", "g"]) mkdirSync(join(dir, sub));
  const write = (sub: string, name: string, text: string) => writeFileSync(join(dir, sub, name), text);
  const proteomes = {
    AAAAA: [">a1 first", "MKVL", ">sp|P12345|KIN_AAAAA kinase", "MKVLA", ">a3", "MK*VL", ">a4", "MKV"],
    // A1's id again (used twice, found by the caller) between two problems of the reader: a bad
    // character in its own sequence before it, one in the next record after it.
    BBBBB: [">b1", "MKV", ">a1 again", "MK1V", ">b2", "MK2V", ">b3 ok", "MMM"],
    // No proteome file: missing.
    CCCCC: undefined,
    DDDDD: [">d1", "MKVW", ">d1", "MKVW", ">d2", "MAAA"],
  };
  for (const [code, lines] of Object.entries(proteomes)) if (lines) write("p", `${code}.fa`, `${lines.join("\n")}\n`);
  // The FASTA id is the whole first word, UniProt's `sp|…|…` too.
  write("c", "AAAAA.fa", ">a1\nACGT\n>zz\nACGT\n>a4\nACXT\n>sp|P12345|KIN_AAAAA\nAAAA\n");
  write("c", "BBBBB.fa", ">b2\nACGU\n>a1\nACGT\n");
  write("c", "DDDDD.fa", ">d2\nNNNN\n");
  const gff = (seq: string, id: string, start: number, end: number) => `${seq}\t.\tCDS\t${start}\t${end}\t.\t+\t0\tprotein_id=${id}`;
  write("g", "AAAAA.gff", `${[gff("chr1", "a1", 10, 20), gff("chr1", "b1", 5, 9), "chr2\t.\tCDS\t30\t20\t.\t+\t0\tprotein_id=a4", gff("chr2", "a4", 30, 60)].join("\n")}\n`);
  // A gene past 2^31 on a long chromosome (lungfish's pass 5 Gb).
  write("g", "DDDDD.gff", `${gff("chrX", "d2", 3_000_000_001, 3_000_000_012)}\n`);
  return { dir, species: species("AAAAA", "BBBBB", "CCCCC", "DDDDD") };
}

/** What reading the proteomes, the cDNA and the loci gives with `jobs` worker threads (1: on this thread). */
async function readAll(jobs: number) {
  const { dir, species: rows } = inputs();
  const problems = new Problems();
  const t = await readProteomes(rows, join(dir, "p"), problems, { jobs, sequenceFolder: dir });
  const reader = openSequences(t.sequenceFile, dir);
  const sequences = [...reader.slices()].flat();
  reader.close();
  const cdna: string[][] = [];
  await readCdnaByGenome(t, rows, join(dir, "c"), problems, jobs, (c) => cdna.push(c));
  const exonsOf = () => {
    const exons = openExons(t.exonFile, dir);
    const all = Array.from({ length: t.count }, (_, i) => exons.get(i + 1));
    exons.close();
    return all;
  };
  const noExons = exonsOf();
  const noLoci = loadLoci(t.loci, dir);
  await readLoci(t, rows, join(dir, "g"), problems, jobs, dir);
  const exons = exonsOf();
  const loci = loadLoci(t.loci, dir);
  const md5s = loadMd5s(t.md5, dir);
  // Paths named relative to the inputs' folder, so that runs in different folders compare.
  const relative = (list: Problems["list"]) => list.map((p) => `${p.file.slice(dir.length + 1)}:${p.line}: ${p.message.replaceAll(dir + "/", "")}`);
  return { t, sequences, cdna, noExons, exons, noLoci, loci, md5s, problems: relative(problems.list), warnings: relative(problems.warnings) };
}

describe("genome files read on worker threads", () => {
  it("give the same proteins, cDNA, loci, problems and warnings at any jobs, problems in reading order", async () => {
    const one = await readAll(1);
    // The order one thread reading the files in turn reports them: each file's reader's own
    // problems as it meets them, the caller's about a record (an id used twice) once the reader
    // hands that record over, so before the reader's problems in the records after it.
    expect(one.problems).toEqual([
      `p/AAAAA.fa:6: invalid character '*' in the sequence of "a3" (only letters are allowed)`,
      `p/BBBBB.fa:4: invalid character '1' in the sequence of "a1" (only letters are allowed)`,
      "p/BBBBB.fa:3: protein id a1 is used twice (first at p/AAAAA.fa:1)",
      `p/BBBBB.fa:6: invalid character '2' in the sequence of "b2" (only letters are allowed)`,
      "p/CCCCC.fa:0: proteome of CCCCC is missing",
      `p/DDDDD.fa:3: duplicate id "d1" (first on line 1)`,
      "c/AAAAA.fa:3: cDNA zz is not a protein of AAAAA",
      "c/AAAAA.fa:5: cDNA a4 has characters other than nucleotides",
      "c/BBBBB.fa:3: cDNA a1 is not a protein of BBBBB",
      "g/AAAAA.gff:3: end 20 is before start 30",
      "g/AAAAA.gff:2: b1 is a protein of another genome than AAAAA",
    ]);
    expect(one.t.count).toBe(9);
    expect(one.t.genomeSize).toEqual([4, 3, 0, 2]);
    expect([0, 1].map((i) => canonicalIdOf(one.t, i))).toEqual(["a1", "P12345"]);
    expect([0, 1].map((i) => aliasesOf(one.t, i))).toEqual([[], ["sp|P12345|KIN_AAAAA", "KIN_AAAAA"]]);
    // Each kept protein's sequence, in its file, by entry: cleaned of what was reported, none of a protein left out.
    expect(one.sequences).toEqual(["MKVL", "MKVLA", "MKVL", "MKV", "MKV", "MKV", "MMM", "MKVW", "MAAA"]);
    expect([...one.t.length]).toEqual(one.sequences.map((s) => s.length));
    // Numbers a protein as typed arrays: its genome, main until isoforms are chosen; each genome's proteins in a run of entries.
    expect([one.t.genome, one.t.isMain].map((a) => [a.constructor.name, ...a])).toEqual([
      ["Int32Array", 0, 0, 0, 0, 1, 1, 1, 3, 3],
      ["Uint8Array", 1, 1, 1, 1, 1, 1, 1, 1, 1],
    ]);
    expect(one.t.genomeFirstEntry).toEqual([1, 5, 8, 8]);
    // Their MD5s, 16 bytes each, those of the proteins left out (used twice) among none.
    expect(one.md5s.length).toBe(16 * one.t.count);
    expect(one.t.md5).toEqual({ name: MD5_FILE, type: "Uint8Array", length: 16 * one.t.count });
    expect(one.sequences.map((_, i) => md5Of(one.md5s, i))).toEqual(one.sequences.map((s) => createHash("md5").update(s).digest("hex")));
    expect(one.cdna).toEqual([["ACGT", "AAAA", "", ""], ["", "ACGU", ""], [], ["", "NNNN"]]);
    // Loci in their files: unknown (0) for every protein until the GFF files are read.
    expect(Array.from({ length: one.t.count }, (_, i) => locusOf(one.noLoci, i))).toEqual(Array.from({ length: 9 }, () => [0, 0, 0]));
    expect(locusOf(one.loci, 0)).toEqual([10, 20, 1]);
    expect(locusOf(one.loci, 1)).toEqual([0, 0, 0]); // none in its GFF
    expect(locusOf(one.loci, 8)).toEqual([3_000_000_001, 3_000_000_012, 1]); // past 2^31
    expect(Object.values(one.t.loci).map((f) => f.length)).toEqual([9, 9, 9]);
    expect(chromosomeOf(one.t, 8)).toBe("chrX");
    expect(one.t.chromosomes[one.t.chromosome[8]]).toBe("chrX");
    expect(chromosomeOf(one.t, 2)).toBe("");
    // Descriptions by number, each text once ("" the first): the rest of the FASTA header.
    expect(one.sequences.map((_, i) => descriptionOf(one.t, i))).toEqual(["first", "kinase", "", "", "", "", "ok", "", ""]);
    expect([...one.t.descriptions]).toEqual(["", "first", "kinase", "ok"]);
    // Each protein's exons, in their file by entry: none before the loci are read.
    expect(one.noExons).toEqual(one.exons.map(() => []));
    expect(one.exons).toEqual([[10, 20], [], [], [30, 60], [], [], [], [], [3_000_000_001, 3_000_000_012]]);

    for (const jobs of [2, 4]) {
      const other = await readAll(jobs);
      expect(other.problems).toEqual(one.problems);
      expect(other.warnings).toEqual(one.warnings);
      expect(other.cdna).toEqual(one.cdna);
      expect(other.sequences).toEqual(one.sequences);
      expect(other.exons).toEqual(one.exons);
      expect(other.loci).toEqual(one.loci);
      expect(other.md5s).toEqual(one.md5s);
      const { inputIds, ...rest } = other.t;
      const { inputIds: firstIds, ...firstRest } = one.t;
      expect(rest).toEqual(firstRest);
      expect([...inputIds]).toEqual([...firstIds]);
      expect(inputIds.parts()).toEqual(firstIds.parts());
    }
  });

  it("find an id used twice however many proteins came before it (the id index, made again as it fills)", async () => {
    const dir = tempDir();
    // 5,000 proteins in the first genome: the id index's table fills and is made again three times.
    writeFileSync(join(dir, "AAAAA.fa"), Array.from({ length: 5_000 }, (_, i) => `>a${i}\nMKV`).join("\n") + "\n");
    writeFileSync(join(dir, "BBBBB.fa"), [">b1", "MKV", ">a3", "MKV", ">a4999", "MKV", ">b2", "MKV", ">a1000", "MKV"].join("\n") + "\n");
    const problems = new Problems();
    const t = await readProteomes(species("AAAAA", "BBBBB"), dir, problems, { jobs: 1, sequenceFolder: dir });
    expect(problems.list.map((p) => `${p.file.slice(dir.length + 1)}:${p.line}: ${p.message.replaceAll(dir + "/", "")}`)).toEqual([
      "BBBBB.fa:3: protein id a3 is used twice (first at AAAAA.fa:7)",
      "BBBBB.fa:5: protein id a4999 is used twice (first at AAAAA.fa:9999)",
      "BBBBB.fa:9: protein id a1000 is used twice (first at AAAAA.fa:2001)",
    ]);
    expect(t.count).toBe(5_002);
    expect([...t.inputIds.range(5_001)]).toEqual(["b1", "b2"]);
    expect(t.inputIds.numberOf("b2")).toBe(5_002);
  });
});

describe("isoforms", () => {
  it("are each gene's entries, and its main isoform is chosen gene by gene in the order of their first entries", async () => {
    const { t } = await readAll(1);
    const dir = tempDir();
    // Entries: AAAAA a1 1, sp|P12345|KIN_AAAAA 2, a3 3, a4 4; BBBBB b1 5, b2 6, b3 7; DDDDD d1 8, d2 9.
    writeFileSync(join(dir, "AAAAA.splice"), "a4; a3\na1; sp|P12345|KIN_AAAAA\n");
    writeFileSync(join(dir, "BBBBB.splice"), "b3; b1; zz\n");
    writeFileSync(join(dir, "DDDDD.splice"), "d2\n");
    const problems = new Problems();
    await readIsoforms(t, species("AAAAA", "BBBBB", "CCCCC", "DDDDD"), dir, problems);
    expect(problems.list.map((p) => p.message)).toEqual(["isoform zz is not a protein of BBBBB"]);
    expect(Array.from({ length: t.count }, (_, i) => isoformsOf(t, i))).toEqual([[1, 2], [1, 2], [3, 4], [3, 4], [5, 7], [], [5, 7], [], []]);
    // Every isoform in a HOG: each gene is told, its first gene by entry first; its first isoform in a HOG is main.
    const told = new Problems();
    chooseMainIsoforms(t, () => true, "splice", told);
    expect(told.list.map((p) => p.message)).toEqual([
      "isoforms a1, sp|P12345|KIN_AAAAA of one gene are all in HOGs",
      "isoforms a3, a4 of one gene are all in HOGs",
      "isoforms b1, b3 of one gene are all in HOGs",
    ]);
    expect(Array.from(t.isMain)).toEqual([1, 0, 1, 0, 1, 1, 0, 1, 1]);
    // None in a HOG: the longest (first on ties) is main.
    chooseMainIsoforms(t, () => false, "splice", new Problems());
    expect(Array.from(t.isMain)).toEqual([0, 1, 1, 0, 1, 1, 0, 1, 1]);
  });
});
