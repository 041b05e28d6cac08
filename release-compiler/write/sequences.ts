/**
 * The sequences table (`{sequence, cdna}` per entry), written genome by genome while the cDNA
 * is read, so no more than one genome's cDNA is held at a time.
 */
import type { SequenceRow, TableRef } from "../../release-format/format.js";
import type { ProteinTable } from "../derive/proteins.js";
import type { SequenceReader } from "../derive/sequence-file.js";
import type { PackWriter } from "./packs.js";
import { tableWriter } from "./tables.js";

/**
 * `readCdna` hands over each genome's cDNA by entry (index = entry − its first entry), every
 * genome in order; without it every cDNA is "".
 */
export async function writeSequences(
  packs: PackWriter,
  t: ProteinTable,
  sequences: SequenceReader,
  readCdna: ((take: (cdna: string[]) => void) => Promise<void>) | undefined,
  chunkBytes: number,
): Promise<TableRef<SequenceRow>> {
  // Packed apart: a protein's answer reads one row of the ~10 a chunk, a bulk retrieve one of each of hundreds.
  const table = tableWriter<SequenceRow>(packs, chunkBytes, { sizeOf: (row) => row.sequence.length + row.cdna.length + 24, apart: true });
  const writeGenome = (g: number, cdna: string[]) => {
    const first = t.genomeFirstEntry[g];
    for (let e = first; e < first + t.genomeSize[g]; e++) table.push({ sequence: sequences.get(e), cdna: cdna[e - first] ?? "" });
  };
  let g = 0;
  if (readCdna) await readCdna((cdna) => writeGenome(g++, cdna));
  for (; g < t.genomeSize.length; g++) writeGenome(g, []);
  return table.finish();
}
