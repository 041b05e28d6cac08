/**
 * Each genome's own files (its proteome, its cDNA, its GFF) read on worker threads, one genome
 * a task, and taken in genome order (workers.ts runTasksInOrder): parsing them was the longest
 * stage of the compile on one thread (at a million proteins, 2 GB of FASTA and GFF), and each
 * file stands alone. What needs every genome stays with the caller, in proteins.ts: an id used
 * in two proteomes, a locus given for another genome's protein, the entry numbers.
 *
 * The problems a reader reports come back with the task, each with how many records had been
 * read before it, so the caller reports them in the order one thread reading the files would
 * (its own problems about record i after the reader's problems before record i), and a compile
 * gives the same problems, warnings and release at any `--jobs`.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import type { GffLocus } from "../inputs.js";
import { Problems } from "../problems.js";
import { readFasta } from "../readers/fasta.js";
import { readGff } from "../readers/gff.js";
import { runTasksInOrder } from "../workers.js";
import { ownString } from "./strings.js";

export type GenomeFileTask =
  | { kind: "proteome"; file: string; keepStops: boolean }
  /** `ids`: the genome's protein ids by entry, so each cDNA finds its protein's place. */
  | { kind: "cdna"; file: string; code: string; ids: string[] }
  | { kind: "loci"; file: string };

/** A problem or warning as a reader reported it, and how many records had been read before. */
export interface ReadProblem {
  file: string;
  line: number;
  message: string;
  after: number;
}

interface Reported {
  problems: ReadProblem[];
  warnings: ReadProblem[];
}

/** A proteome's records in file order (the reader's own checks done, duplicates within the file dropped). */
export interface ProteomeRead extends Reported {
  kind: "proteome";
  missing: boolean;
  ids: string[];
  lines: number[];
  /** UniProt accession and entry name of a `sp|…|…` or `tr|…|…` id, else "". */
  accessions: string[];
  entryNames: string[];
  sequences: string[];
  /** Each record's sequence MD5, 16 bytes a record, in file order. */
  md5: Uint8Array;
  descriptions: string[];
}

/** A genome's cDNA by entry (index = entry − the genome's first entry), "" where none is given; every problem reported by the task. */
export interface CdnaRead extends Reported {
  kind: "cdna";
  cdna: string[];
}

/** A GFF's loci by protein id, in the reader's order. */
export interface LociRead extends Reported {
  kind: "loci";
  loci: Array<[string, GffLocus]>;
}

export type GenomeFileRead = ProteomeRead | CdnaRead | LociRead;

/** Problems that remember how many records had been read when each was reported. */
class CountedProblems extends Problems {
  records = 0;
  readonly read: Reported = { problems: [], warnings: [] };
  override report(file: string, line: number, message: string): void {
    super.report(file, line, message);
    this.read.problems.push({ file, line, message, after: this.records });
  }
  override warn(file: string, line: number, message: string): void {
    super.warn(file, line, message);
    this.read.warnings.push({ file, line, message, after: this.records });
  }
}

/** Reads one genome file (on a worker thread, or on this one with --jobs 1). */
export async function readGenomeFile(task: GenomeFileTask): Promise<GenomeFileRead> {
  const problems = new CountedProblems();
  if (task.kind === "proteome") {
    const read: ProteomeRead = {
      kind: "proteome", missing: !existsSync(task.file), ids: [], lines: [], accessions: [], entryNames: [], sequences: [], md5: new Uint8Array(0), descriptions: [], ...problems.read,
    };
    if (read.missing) return read;
    const digests: Buffer[] = [];
    for await (const rec of readFasta(task.file, problems, { keepStops: task.keepStops })) {
      // Owned copies: the reader's strings are slices of whole chunks of the file.
      read.ids.push(ownString(rec.id));
      read.lines.push(rec.line);
      read.accessions.push(rec.uniprot ? ownString(rec.uniprot.accession) : "");
      read.entryNames.push(rec.uniprot ? ownString(rec.uniprot.entryName) : "");
      read.sequences.push(ownString(rec.sequence));
      digests.push(createHash("md5").update(rec.sequence).digest());
      read.descriptions.push(ownString(rec.description));
      problems.records++;
    }
    read.md5 = Buffer.concat(digests);
    return read;
  }
  if (task.kind === "cdna") {
    const cdna = new Array<string>(task.ids.length).fill("");
    const place = new Map(task.ids.map((id, i) => [id, i]));
    for await (const rec of existsSync(task.file) ? readFasta(task.file, problems) : []) {
      const at = place.get(rec.id);
      if (at === undefined) problems.report(task.file, rec.line, `cDNA ${rec.id} is not a protein of ${task.code}`);
      else if (!/^[ACGTUN]*$/.test(rec.sequence)) problems.report(task.file, rec.line, `cDNA ${rec.id} has characters other than nucleotides`);
      else cdna[at] = rec.sequence;
    }
    return { kind: "cdna", cdna, ...problems.read };
  }
  const loci = existsSync(task.file) ? [...(await readGff(task.file, problems))] : [];
  return { kind: "loci", loci, ...problems.read };
}

/** Reads the genomes' files on `jobs` worker threads, handing each read to `take` in the order of `tasks`. */
export function readGenomeFiles<Read extends GenomeFileRead>(tasks: GenomeFileTask[], jobs: number, take: (read: Read, index: number) => void): Promise<void> {
  let index = 0;
  return runTasksInOrder<GenomeFileTask, GenomeFileRead>(tasks, (read) => take(read as Read, index++), {
    module: new URL("./genome-file-worker.ts", import.meta.url),
    jobs: Math.min(jobs, tasks.length),
  });
}

/** Reports a read's problems and warnings that came before record `upTo` (all of them with Infinity), from `from` on; returns where it stopped. */
export function reportRead(read: Reported, problems: Problems, upTo: number, from = 0): number {
  let k = from;
  for (; k < read.problems.length && read.problems[k].after <= upTo; k++) problems.report(read.problems[k].file, read.problems[k].line, read.problems[k].message);
  if (upTo === Infinity) for (const w of read.warnings) problems.warn(w.file, w.line, w.message);
  return k;
}
