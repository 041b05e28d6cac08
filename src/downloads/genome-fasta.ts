/**
 * A genome's proteins (or their cDNA) as FASTA, read chunk by chunk as the client pulls: each
 * header `>{orthid} {canonical id} hog={HOG id} group={group number} [{species}]` (`hog=-`,
 * `group=0` for none), the sequence in lines of 60.
 */
import type { GenomeInfo, ProteinRow, SequenceRow } from "../../release-format/format.js";
import { fastaRecord } from "../render/fasta.js";
import { orthid } from "../render/protein.js";
import type { Release } from "../release/release.js";

export type SequenceKind = "protein" | "cdna";

export const fastaHeader = (release: Release, p: ProteinRow | { entry: number; canonicalId: string; hog: string; group: number }): string => {
  const genome = release.genomeOfEntry(p.entry);
  return `${orthid(genome, p.entry)} ${p.canonicalId} hog=${p.hog || "-"} group=${p.group} [${genome.species}]`;
};

/** The records of a genome's entries, in entry order; opening it reads the first chunks (a storage fault fails before any byte is sent). */
export async function genomeFasta(release: Release, genome: GenomeInfo, kind: SequenceKind): Promise<AsyncIterable<string>> {
  const { proteins, sequences } = release.manifest.tables;
  const from = genome.firstEntry - 1;
  const to = from + genome.nrEntries;
  const [rows, seqs] = await Promise.all([release.rows<ProteinRow>(proteins, from, to), release.rows<SequenceRow>(sequences, from, to)]);
  return (async function* () {
    const seqIterator = seqs[Symbol.asyncIterator]();
    for await (const row of rows) {
      const { value } = await seqIterator.next();
      const sequence = kind === "cdna" ? (value as SequenceRow).cdna : (value as SequenceRow).sequence;
      if (sequence) yield fastaRecord(fastaHeader(release, row), sequence);
    }
  })();
}
