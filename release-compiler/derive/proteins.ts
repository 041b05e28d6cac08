import { existsSync } from "node:fs";
import { pack } from "msgpackr";
import type { Locus } from "../../release-format/format.js";
import type { SpeciesInfoRow } from "../inputs.js";
import type { Problems } from "../problems.js";
import { speciesFile } from "../config.js";
import { readGenomeFiles, reportRead, type CdnaRead, type GenomeFileTask, type LociRead, type ProteomeRead } from "./genome-files.js";
import { readSplice } from "../readers/splice.js";
import { IdIndex, StringColumn } from "../packed-strings.js";
import { ownString } from "./strings.js";
import { GrowingInts } from "../write/growing.js";
import { EntryListsBuilder, entryLists, listMembers, type EntryLists } from "./entry-lists.js";
import { sequenceFileWriter, type SequenceFile } from "./sequence-file.js";
import { columnFileWriter, loadColumn, type ColumnFile } from "./column-file.js";
import { entryFileWriter, openPackedFile, type EntryFile } from "./entry-file.js";

/** The exons' file in the derive task's folder (entry-file.ts): each protein's flat exons, msgpack, empty when it has none. */
export const EXON_FILE = "exons.bin";

/**
 * Every protein of the release, by entry number - 1. Entry numbers are 1..N, contiguous per
 * genome in species_info order, proteins in FASTA order.
 */
export interface ProteinTable {
  count: number;
  /**
   * First word of the FASTA header: the id every other input uses, numbered by entry
   * (`numberOf(id)` is its entry, `idOf(entry)` its id), packed (packed-strings.ts).
   */
  inputIds: IdIndex;
  /**
   * By entry − 1, the UniProt accession of a FASTA id of UniProt's form (sp|P69905|HBA_HUMAN),
   * "" for other ids, and its entry name: a protein's canonical id (canonicalIdOf) and its aliases
   * (aliasesOf) follow from them and its input id.
   */
  accessions: StringColumn;
  entryNames: StringColumn;
  /** Each protein's genome; a genome's proteins are entries genomeFirstEntry[g] .. + genomeSize[g] − 1, so its place in it (the number in its orthid) follows. */
  genome: Int32Array;
  /** The sequences, in a file of the derive task's folder (sequence-file.ts): 421 MiB of heap at a million proteins. */
  sequenceFile: SequenceFile;
  /** Each sequence's length: what the tables that summarize proteins need of it. */
  length: Int32Array;
  /**
   * Each sequence's MD5, MD5_BYTES a protein, in a file of the derive task's folder (loadMd5s,
   * md5Of): 55 MiB of heap at a million proteins as hex strings, 16 MiB as bytes.
   */
  md5: ColumnFile<"Uint8Array">;
  /**
   * Each protein's description as its number in `descriptions` (descriptionOf): texts repeat
   * (a family's copies, "Uncharacterized protein"), and at a million proteins 57,700 distinct
   * ones held as a string a protein took 62 MiB of heap, so 4 MiB and 3.
   */
  description: Int32Array;
  /** The descriptions' texts, each once; number NO_DESCRIPTION is "". */
  descriptions: IdIndex;
  /** Each protein's chromosome as its index in `chromosomes` (chromosomeOf), 0 where unknown. */
  chromosome: Int32Array;
  /** The chromosomes the GFF files name, in the order first met, after "" (unknown). */
  chromosomes: string[];
  /** Each protein's locus, all 0 where unknown, in files of the derive task's folder (loadLoci, locusOf). */
  loci: LocusFiles;
  /**
   * CDS segments, flat (start, end, start, end, …: see exonPairs), in a file of the derive
   * task's folder (readLoci): 179 MiB of heap at a million proteins as an array per protein.
   * Coordinates may pass 2^31 (chromosomes of several gigabases), so they are not an Int32Array.
   */
  exonFile: EntryFile;
  /**
   * Each protein's gene of isoforms (isoformsOf): its number, 0 for a protein of one isoform;
   * gene k's isoforms, by entry number, are list k − 1 of `genes`. Numbers rather than an array
   * slot a protein and an array a gene (10.5 MiB at 1M).
   */
  isoformGene: Int32Array;
  genes: EntryLists;
  /** 1 for the main isoform of its gene (and a protein of one isoform), else 0. */
  isMain: Uint8Array;
  genomeFirstEntry: number[];
  genomeSize: number[];
}

/**
 * Loci as columns by entry − 1: an array of three a protein held 78 MiB of heap at a million
 * proteins, these 17 bytes a protein. Coordinates may pass 2^31, so they are not Int32Arrays.
 */
export interface LocusColumns {
  start: Float64Array;
  end: Float64Array;
  strand: Int8Array;
}

/** The loci's columns in files of the derive task's folder (column-file.ts). */
export interface LocusFiles {
  start: ColumnFile<"Float64Array">;
  end: ColumnFile<"Float64Array">;
  strand: ColumnFile<"Int8Array">;
}

/** The loci's files' names in the derive task's folder. */
export const LOCUS_FILES = { start: "locus-starts.bin", end: "locus-ends.bin", strand: "locus-strands.bin" } as const;
/** The MD5s' file's name there. */
export const MD5_FILE = "md5s.bin";

const MD5_BYTES = 16;

/** The loci, read from their files in the derive task's folder `folder`. */
export const loadLoci = (files: LocusFiles, folder: string): LocusColumns => ({
  start: loadColumn(files.start, folder, "locus starts"),
  end: loadColumn(files.end, folder, "locus ends"),
  strand: loadColumn(files.strand, folder, "locus strands"),
});

/** The MD5s, read from their file in the derive task's folder `folder`. */
export const loadMd5s = (file: ColumnFile<"Uint8Array">, folder: string): Uint8Array => loadColumn(file, folder, "sequence MD5s");

/** Protein `i`'s (entry − 1) sequence MD5 (of loadMd5s), in hex as the protein record writes it. */
export const md5Of = (md5: Uint8Array, i: number): string => Buffer.from(md5.buffer, md5.byteOffset + i * MD5_BYTES, MD5_BYTES).toString("hex");

/** Protein `i`'s (entry − 1) locus (of loadLoci), as the protein record writes it. */
export const locusOf = (loci: LocusColumns, i: number): Locus => [loci.start[i], loci.end[i], loci.strand[i]];

/** Writes the loci's files, genome by genome: `append` each genome's columns, then `finish`. */
function locusFilesWriter(folder: string) {
  const start = columnFileWriter(folder, LOCUS_FILES.start, "Float64Array");
  const end = columnFileWriter(folder, LOCUS_FILES.end, "Float64Array");
  const strand = columnFileWriter(folder, LOCUS_FILES.strand, "Int8Array");
  return {
    append(loci: LocusColumns): void {
      start.append(loci.start);
      end.append(loci.end);
      strand.append(loci.strand);
    },
    /** `n` unknown loci, a block at a time. */
    appendUnknown(n: number): void {
      for (let done = 0; done < n; done += UNKNOWN_BLOCK) this.append(noLoci(Math.min(UNKNOWN_BLOCK, n - done)));
    },
    finish: (): LocusFiles => ({ start: start.finish(), end: end.finish(), strand: strand.finish() }),
    abandon(): void {
      for (const w of [start, end, strand]) w.abandon();
    },
  };
}

const UNKNOWN_BLOCK = 1 << 16;

/** `n` unknown loci. */
const noLoci = (n: number): LocusColumns => ({ start: new Float64Array(n), end: new Float64Array(n), strand: new Int8Array(n) });

/** Protein `i`'s (entry − 1) chromosome, "" where unknown. */
export const chromosomeOf = (t: Pick<ProteinTable, "chromosome" | "chromosomes">, i: number): string => t.chromosomes[t.chromosome[i]];

/** The number of "" in `descriptions`: a protein without a description. */
export const NO_DESCRIPTION = 1;
/**
 * Drops the texts no protein has any more (those an annotation file replaced: at a million
 * simulated proteins, 883,000 FASTA headers of 77 bytes), numbering the rest afresh in the
 * order of their first proteins.
 */
export function keepUsedDescriptions(t: Pick<ProteinTable, "description" | "descriptions">): void {
  const kept = IdIndex.of([""]);
  const renumbered = new Int32Array(t.descriptions.count + 1);
  for (let i = 0; i < t.description.length; i++) {
    const n = t.description[i];
    t.description[i] = renumbered[n] ||= kept.add(t.descriptions.idOf(n));
  }
  t.descriptions = kept;
}

/** Protein i's description ("" for none). */
export const descriptionOf = (t: Pick<ProteinTable, "description" | "descriptions">, i: number): string => t.descriptions.idOf(t.description[i]);

/** Protein `i`'s (entry − 1) canonical id: its UniProt accession, else its FASTA id. */
export const canonicalIdOf = (t: Pick<ProteinTable, "accessions" | "inputIds">, i: number): string => t.accessions.at(i) || t.inputIds.idOf(i + 1);

/** Protein `i`'s (entry − 1) ids for lookup besides its canonical id: of a UniProt FASTA id, the id itself and the entry name. */
export const aliasesOf = (t: Pick<ProteinTable, "accessions" | "entryNames" | "inputIds">, i: number): string[] =>
  t.accessions.is(i, "") ? [] : [t.inputIds.idOf(i + 1), t.entryNames.at(i)];

export async function readProteomes(
  species: SpeciesInfoRow[],
  folder: string,
  problems: Problems,
  /**
   * `keepStops`: `*` inside sequences are residues (readFasta), for the proteomes OrthoFinder ran on.
   * `jobs`: worker threads that read the files (genome-files.ts).
   * `sequenceFolder`: where the sequences', MD5s', exons' and loci's files are written (the derive task's folder).
   */
  options: { keepStops?: boolean; jobs?: number; sequenceFolder: string },
): Promise<ProteinTable> {
  const sequences = sequenceFileWriter(options.sequenceFolder);
  const t: Omit<ProteinTable, "sequenceFile" | "exonFile" | "loci" | "md5" | "genome" | "length" | "isMain" | "chromosome" | "chromosomes" | "description" | "isoformGene" | "genes"> = {
    count: 0, inputIds: new IdIndex(), accessions: new StringColumn(), entryNames: new StringColumn(),
    descriptions: IdIndex.of([""]), genomeFirstEntry: [], genomeSize: [],
  };
  const description = new GrowingInts();
  // Numbers a protein, as they are read.
  const genome = new GrowingInts();
  const length = new GrowingInts();
  // Each genome's kept proteins' MD5s, written as each genome is read.
  const md5s = columnFileWriter(options.sequenceFolder, MD5_FILE, "Uint8Array");
  // Header line of each entry, for "used twice" problems (its file follows from its genome).
  const headerLine: number[] = [];
  const proteomeOf = (s: SpeciesInfoRow) => s.proteomePath ?? speciesFile(folder, s.code, ".fa");
  const firstSeen = (entry: number) => `${proteomeOf(species[genome.values[entry - 1]])}:${headerLine[entry - 1]}`;
  const tasks = species.map((s): GenomeFileTask => ({ kind: "proteome", file: proteomeOf(s), keepStops: options.keepStops ?? false }));
  const reading = readGenomeFiles<ProteomeRead>(tasks, options.jobs ?? 1, (read, g) => {
    const s = species[g];
    const file = proteomeOf(s);
    t.genomeFirstEntry.push(t.count + 1);
    if (read.missing) {
      problems.report(file, 0, `proteome of ${s.code} is missing`);
      t.genomeSize.push(0);
      return;
    }
    let n = 0;
    let reported = 0;
    const kept: string[] = [];
    const md5 = Buffer.alloc(read.ids.length * MD5_BYTES);
    for (const [i, id] of read.ids.entries()) {
      reported = reportRead(read, problems, i, reported);
      const entry = t.inputIds.add(id);
      if (entry <= t.count) {
        problems.report(file, read.lines[i], `protein id ${id} is used twice (first at ${firstSeen(entry)})`);
        continue;
      }
      n += 1;
      t.count += 1;
      headerLine.push(read.lines[i]);
      t.accessions.push(read.accessions[i]);
      t.entryNames.push(read.accessions[i] ? read.entryNames[i] : "");
      genome.push(g);
      kept.push(read.sequences[i]);
      length.push(read.sequences[i].length);
      md5.set(read.md5.subarray(i * MD5_BYTES, (i + 1) * MD5_BYTES), (n - 1) * MD5_BYTES);
      description.push(t.descriptions.add(read.descriptions[i]));
    }
    reportRead(read, problems, Infinity, reported);
    sequences.append(kept);
    md5s.append(md5.subarray(0, n * MD5_BYTES));
    t.genomeSize.push(n);
    if (n > 99_999) problems.report(file, 0, `${s.code} has ${n} proteins; orthids allow at most 99999 per genome`);
  });
  await reading.catch((error: unknown) => {
    sequences.finish();
    md5s.abandon();
    throw error;
  });
  const sequenceFile = sequences.finish();
  // No loci nor exons until the loci are read (readLoci).
  const exons = entryFileWriter(options.sequenceFolder, EXON_FILE);
  exons.append(new Uint8Array(0), new Int32Array(t.count));
  const loci = locusFilesWriter(options.sequenceFolder);
  loci.appendUnknown(t.count);
  return {
    ...t, genome: genome.done(), length: length.done(), description: description.done(), isMain: new Uint8Array(t.count).fill(1),
    chromosome: new Int32Array(t.count), chromosomes: [""], isoformGene: new Int32Array(t.count), genes: entryLists([]),
    md5: md5s.finish(), loci: loci.finish(), sequenceFile, exonFile: exons.finish(),
  };
}

/**
 * cDNA, one genome at a time in species order (the biggest input: never all held, a few
 * genomes in flight on the worker threads): `take` gets each genome's cDNA by entry (index =
 * entry − its first entry, "" for none), same ids as the proteomes.
 */
export async function readCdnaByGenome(
  t: ProteinTable,
  species: SpeciesInfoRow[],
  folder: string,
  problems: Problems,
  jobs: number,
  take: (cdna: string[]) => void,
): Promise<void> {
  const tasks = species.map((s, g): GenomeFileTask => {
    const first = t.genomeFirstEntry[g] - 1;
    return { kind: "cdna", file: speciesFile(folder, s.code, ".fa"), code: s.code, ids: [...t.inputIds.range(first + 1, first + 1 + t.genomeSize[g])] };
  });
  await readGenomeFiles<CdnaRead>(tasks, jobs, (read) => {
    reportRead(read, problems, Infinity);
    take(read.cdna);
  });
}

/**
 * Loci from GFF3: the gene span and strand, exons from CDS features, written genome by genome
 * to the exons' file in `exonFolder` (the derive task's, where readProteomes left it empty).
 * Features of other genes are ignored.
 */
export async function readLoci(t: ProteinTable, species: SpeciesInfoRow[], folder: string, problems: Problems, jobs: number, exonFolder: string) {
  // Each chromosome's index in t.chromosomes.
  const chromosomes = new Map(t.chromosomes.map((name, k) => [name, k]));
  const tasks = species.map((s): GenomeFileTask => ({ kind: "loci", file: speciesFile(folder, s.code, ".gff") }));
  const exons = entryFileWriter(exonFolder, EXON_FILE);
  const lociOut = locusFilesWriter(exonFolder);
  try {
    await readGenomeFiles<LociRead>(tasks, jobs, (read, g) => {
      reportRead(read, problems, Infinity);
      const s = species[g];
      const file = speciesFile(folder, s.code, ".gff");
      const first = t.genomeFirstEntry[g];
      // The genome's proteins' exons, encoded: empty for a protein without; and their loci.
      const records: Uint8Array[] = new Array<Uint8Array>(t.genomeSize[g]).fill(NO_EXONS);
      const loci = noLoci(t.genomeSize[g]);
      for (const [id, locus] of read.loci) {
        const entry = t.inputIds.numberOf(id);
        if (entry === undefined) continue;
        if (t.genome[entry - 1] !== g) {
          problems.report(file, locus.line, `${id} is a protein of another genome than ${s.code}`);
          continue;
        }
        let chromosome = chromosomes.get(locus.chromosome);
        if (chromosome === undefined) chromosomes.set(locus.chromosome, (chromosome = t.chromosomes.push(ownString(locus.chromosome)) - 1));
        t.chromosome[entry - 1] = chromosome;
        loci.start[entry - first] = locus.start;
        loci.end[entry - first] = locus.end;
        loci.strand[entry - first] = locus.strand;
        if (locus.exons.length) records[entry - first] = pack(locus.exons.flat());
      }
      exons.append(Buffer.concat(records), records.map((r) => r.length));
      lociOut.append(loci);
    });
  } catch (error) {
    exons.abandon();
    lociOut.abandon();
    throw error;
  }
  t.exonFile = exons.finish();
  t.loci = lociOut.finish();
}

const NO_EXONS = new Uint8Array(0);

/** Reads each protein's exons, flat, from the exons' file written to `folder` (`get(entry)`); `close` when done. */
export const openExons = (file: EntryFile, folder: string) => openPackedFile<number[]>(file, folder, "exons", () => []);

/** Splice files: the isoforms of each gene. Main isoforms are settled after the HOGs are read. */
export async function readIsoforms(t: ProteinTable, species: SpeciesInfoRow[], folder: string, problems: Problems) {
  const genes = new EntryListsBuilder();
  for (const [g, s] of species.entries()) {
    const file = speciesFile(folder, s.code, ".splice");
    if (!existsSync(file)) continue;
    for (const gene of await readSplice(file, problems)) {
      const entries: number[] = [];
      for (const id of gene.isoforms) {
        const entry = t.inputIds.numberOf(id);
        if (entry === undefined || t.genome[entry - 1] !== g) {
          problems.report(file, gene.line, `isoform ${id} is not a protein of ${s.code}`);
        } else if (t.isoformGene[entry - 1]) {
          problems.report(file, gene.line, `isoform ${id} is listed for two genes`);
        } else entries.push(entry);
      }
      if (entries.length < 2) continue;
      entries.sort((a, b) => a - b);
      const k = genes.add(entries) + 1;
      for (const e of entries) t.isoformGene[e - 1] = k;
    }
  }
  t.genes = genes.finish();
}

/** The isoforms of protein i's gene, itself included, by entry number ([] for a protein of one isoform). */
export function isoformsOf(t: Pick<ProteinTable, "isoformGene" | "genes">, i: number): number[] {
  const k = t.isoformGene[i];
  return k ? Array.from(listMembers(t.genes, k - 1)) : [];
}

/** A protein's exons as `[start, end]` pairs, from their flat form. */
export function exonPairs(flat: number[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}

/**
 * One main isoform per gene: the isoform the HOGs reference, else the longest (first on ties).
 * Returns problems where the HOGs reference two isoforms of one gene.
 */
export function chooseMainIsoforms(t: ProteinTable, inHog: (entry: number) => boolean, splicedFile: string, problems: Problems) {
  // Gene by gene in the order of their first isoforms, as the problems are told.
  for (let i = 0; i < t.count; i++) {
    const k = t.isoformGene[i];
    if (!k || listMembers(t.genes, k - 1)[0] !== i + 1) continue;
    const isoforms = isoformsOf(t, i);
    const referenced = isoforms.filter(inHog);
    if (referenced.length > 1) {
      problems.report(splicedFile, 0, `isoforms ${referenced.map((e) => t.inputIds.idOf(e)).join(", ")} of one gene are all in HOGs`);
    }
    const main = referenced[0] ?? isoforms.reduce((a, b) => (t.length[b - 1] > t.length[a - 1] ? b : a));
    for (const e of isoforms) t.isMain[e - 1] = e === main ? 1 : 0;
  }
}
