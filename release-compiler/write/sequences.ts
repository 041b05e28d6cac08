/**
 * The sequences table (`{sequence, cdna}` per entry), written genome by genome while the cDNA
 * is read, so no more than one genome's cDNA is held at a time.
 */
import type { SequenceRow, TableRef } from "../../release-format/format.js";
import type { ProteinTable } from "../derive/proteins.js";
import type { PackWriter } from "./packs.js";
import { tableWriter } from "./tables.js";

/** `cdnaByGenome` yields entry → cDNA for every genome in order; without it every cDNA is "". */
export async function writeSequences(
  packs: PackWriter,
  t: ProteinTable,
  cdnaByGenome: AsyncIterable<Map<number, string>> | undefined,
  chunkBytes: number,
): Promise<TableRef<SequenceRow>> {
  const table = tableWriter<SequenceRow>(packs, chunkBytes, (row) => row.sequence.length + row.cdna.length + 24);
  const writeGenome = (g: number, cdna: Map<number, string>) => {
    const first = t.genomeFirstEntry[g];
    for (let e = first; e < first + t.genomeSize[g]; e++) table.push({ sequence: t.sequence[e - 1], cdna: cdna.get(e) ?? "" });
  };
  let g = 0;
  if (cdnaByGenome) for await (const cdna of cdnaByGenome) writeGenome(g++, cdna);
  for (; g < t.genomeSize.length; g++) writeGenome(g, new Map());
  return table.finish();
}
